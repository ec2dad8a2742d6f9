/**
 * `tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top=25]`: the functions with the most self time
 * in a V8 CPU profile (`node --cpu-prof`, as `BENCH_CPU_PROF=<dir> npm run bench:api` writes), then
 * self time per package (node_modules/<name>), per project file and per built-in. Not a benchmark
 * (run-all only runs *.bench.ts).
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a project file, node's own code, or V8 (GC, idle, program). */
function placeOf(url: string): string {
  if (!url) return '(v8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:*';
  const project = /\/(server|domain|bench|tests)\/.*$/.exec(url);
  return project ? project[0].slice(1) : url;
}

function main() {
  const [file, topArgument] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top]');
  const top = Number(topArgument ?? 25);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Self time of each node: the time deltas of the samples that landed on it (microseconds).
  const selfMicros = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  const idle = [...selfMicros].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
  const busy = total - idle.reduce((sum, [, micros]) => sum + micros, 0);

  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const key = `${functionName || '(anonymous)'}  ${placeOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    byPlace.set(placeOf(url), (byPlace.get(placeOf(url)) ?? 0) + micros);
  }
  const print = (title: string, entries: Map<string, number>, count: number) => {
    console.log(`\n${title}`);
    for (const [key, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(
        `${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${key}`,
      );
    }
  };
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s not idle (percentages of that).`,
  );
  // Time spent in a project function and everything it called synchronously (an await starts a new
  // stack, so this is the synchronous part: query building, serialising, hashing). A recursive
  // function counts once per level.
  const inclusive = new Map<string, number>();
  const totalOf = (node: ProfileNode): number => {
    let sum = selfMicros.get(node.id) ?? 0;
    for (const child of node.children ?? []) sum += totalOf(byId.get(child)!);
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url);
    const key = `${functionName || '(anonymous)'}  ${place}:${lineNumber + 1}`;
    if (/^(server|domain)\//.test(place)) inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    return sum;
  };
  totalOf(profile.nodes[0]!);
  print('Self time by function:', byFunction, top);
  print('Self time by place:', byPlace, top);
  print('Synchronous time in project functions, callees included:', inclusive, top);
}

main();
