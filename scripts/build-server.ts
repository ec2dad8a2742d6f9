/**
 * `npm run build:server` (issue 35, decision 032): compiles the server, its CLIs and the domain code
 * they import from TypeScript to JavaScript under dist/ (dist/server/main.js, dist/server/cli/admin.js,
 * dist/scripts/*.js), with source maps, for `npm start` to run on plain Node.
 *
 * tsconfig.server.json names the entry points; tsc follows their imports and rewrites the `.ts`
 * import specifiers to `.js`. It does not type-check (`noCheck`): `npm run typecheck` and `npm test`
 * do, once, for the whole tree. The previous output is removed first, so a deleted module never
 * lingers in dist/. Runs with Node 24's own type stripping: no tsx.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
for (const folder of ['server', 'domain', 'scripts']) {
  fs.rmSync(path.join(root, 'dist', folder), { recursive: true, force: true });
}
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.server.json')], { stdio: 'inherit' });
