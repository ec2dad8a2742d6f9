/**
 * `npm run bench`: runs every benchmark in turn and prints their figures (speed and memory are
 * measured here, never in timed tests). Each one can also run alone: bench:uploads, bench:notify,
 * bench:admin (seeds 100k providers on first run, about 30 s), bench:faults, bench:cluster, bench:api,
 * bench:screening, bench:mail, bench:taxonomy, bench:fhir, bench:reports (on bench:admin's seed).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const benches = [
  'uploads',
  'notify',
  'admin',
  'faults',
  'cluster',
  'api',
  'screening',
  'mail',
  'taxonomy',
  'fhir',
  'reports',
].filter((name) => fs.existsSync(`bench/${name}.bench.ts`));
let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench:${name}`);
  const result = spawnSync('npx', ['tsx', `bench/${name}.bench.ts`], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed += 1;
    console.log(`bench:${name} exited with ${result.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
