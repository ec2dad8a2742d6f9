/**
 * The import half of `npm run bench:screening`, in a process of its own so its peak RSS is the
 * import's (as in a server that imports a list), not the bench's file generation: stages FILE into
 * DATABASE_URL's database with `stageExclusionFile`, applies it, and prints one JSON line:
 * `{ stageMs, applyMs, rowCount, rssBeforeBytes, peakRssBytes, heapPeakBytes }` (peak RSS from VmHWM,
 * reset once the modules are loaded and the pool is open).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openDatabase } from '../server/db/client.ts';
import { applyExclusionImport, stageExclusionFile } from '../server/screening/exclusion-imports.ts';
import { peakRssBytes, resetPeakRss } from './lib.ts';

const [file, url] = process.argv.slice(2);
const database = openDatabase(url!, { max: 2, logger: pino({ level: 'warn' }) });
await database.db.execute('select 1');
resetPeakRss();
const rssBeforeBytes = process.memoryUsage().rss;
let heapPeakBytes = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  heapPeakBytes = Math.max(heapPeakBytes, process.memoryUsage().heapUsed);
}, 20);
const now = new Date();
let started = performance.now();
const staged = await stageExclusionFile(database.db, file!, {
  fileName: path.basename(file!),
  stagedBy: null,
  now,
});
const stageMs = performance.now() - started;
started = performance.now();
await applyExclusionImport(database.db, staged.id, { appliedBy: null, now });
const applyMs = performance.now() - started;
clearInterval(sampler);
console.log(
  JSON.stringify({
    stageMs,
    applyMs,
    rowCount: staged.rowCount,
    rssBeforeBytes,
    peakRssBytes: peakRssBytes(process.pid),
    heapPeakBytes,
  }),
);
await database.close();
