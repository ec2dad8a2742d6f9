/**
 * Where the package's files are, the same whether this code runs from its TypeScript sources (Node 24 type stripping or tsx:
 * tests, `npm run dev`, benches) or compiled into `dist/` (`npm start`, decision 032). Files that are
 * not code (migrations, the web build, the shipped taxonomy) are read from the package, never
 * copied beside the compiled modules: one copy of each.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const thisFile = fileURLToPath(import.meta.url);

/** The nearest folder at or above `from` holding a package.json. Throws when there is none. */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json at or above ${from}`);
  }
}

/** The package's root folder (absolute): where package.json is. */
export const packageRoot = findPackageRoot(path.dirname(thisFile));

/** True when this module was compiled to JavaScript (`dist/`), false when its TypeScript source runs. */
export const isCompiled = thisFile.endsWith('.js');

/** `vite build`'s output, served by the app unless WEB_DIST_DIR names another. */
export const defaultWebDistDir = path.join(packageRoot, 'dist', 'web');

/**
 * Node's arguments that start this server's entry point as a child process (scripts/start-cluster,
 * benches): `dist/server/main.js` when this code is compiled, else the source, which Node 24 runs
 * with its own type stripping (tsconfig.json's `erasableSyntaxOnly` keeps the code strippable).
 */
export function serverEntryArgs(): string[] {
  return isCompiled
    ? [path.join(packageRoot, 'dist', 'server', 'main.js')]
    : [path.join(packageRoot, 'server', 'main.ts')];
}
