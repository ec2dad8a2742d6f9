/**
 * The import rules of ARCHITECTURE.md, checked over the real import graph (issue 11). Run by
 * `npm test` (tests/architecture/import-rules.test.ts) and alone with `npm run check:imports`.
 *
 * Rules:
 * 1. domain/ imports neither server/ nor web/, nor Node built-ins (it runs in both).
 * 2. web/ never imports server/; server/ never imports web/.
 * 3. A web feature (web/features/<name>/) never imports another web feature: composition happens
 *    in web/router.tsx and the app shell (web/app/).
 * 4. No import cycles: between modules anywhere, and between server features (server/<name>/) as
 *    folders (a -> b -> a through any files). Test files are left out of the folder graph: a test
 *    may exercise several features. Files directly in server/ (app.ts, runtime.ts, app-types.ts,
 *    ...) are the composition root, outside every feature.
 *
 * Imports are read with TypeScript's own pre-processor (static, dynamic and re-exports, type-only
 * included); relative specifiers are resolved to files. Package imports are not edges.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The folders whose TypeScript files form the graph. */
const ROOTS = ['domain', 'server', 'web', 'tests', 'bench', 'scripts'];
const EXTENSIONS = ['.ts', '.tsx'];

export interface ImportReport {
  /** Files read, relative to the repository root. */
  files: number;
  /** Relative imports between them. */
  edges: number;
  /** One line per broken rule, e.g. `rule 2: web/api.ts imports server/env.ts`. */
  violations: string[];
}

function listFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && EXTENSIONS.some((x) => e.name.endsWith(x)) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => !f.includes('node_modules/'));
}

function resolve(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path
    .normalize(path.join(path.dirname(from), specifier))
    .split(path.sep)
    .join('/');
  const candidates = [
    target,
    ...EXTENSIONS.map((x) => target + x),
    ...EXTENSIONS.map((x) => `${target}/index${x}`),
  ];
  return candidates.find(
    (c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile(),
  );
}

function top(file: string): string {
  return file.split('/')[0]!;
}

/** `web/features/admin/x.tsx` -> `admin`; undefined outside web/features. */
function webFeature(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'web' && parts[1] === 'features' && parts.length > 3 ? parts[2] : undefined;
}

/** `server/admin/admin.service.ts` -> `server/admin`; files directly in server/ are `server`. */
function serverFeature(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'server') return undefined;
  return parts.length > 2 ? `server/${parts[1]}` : 'server';
}

/** Every elementary cycle found by a DFS (each reported once, starting at its smallest member). */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'active');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'active') {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(' -> '), rotated);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...cycles.values()];
}

/** Check the import rules over the files under `root` (the repository root). */
export function checkImports(root: string): ImportReport {
  const files = ROOTS.flatMap((dir) => listFiles(root, dir));
  const modules = new Map<string, Set<string>>();
  const violations: string[] = [];
  let edges = 0;
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (
        top(file) === 'domain' &&
        (fileName.startsWith('node:') || /^(fs|path|os|crypto|http)$/.test(fileName))
      ) {
        violations.push(`rule 1: ${file} imports the Node built-in ${fileName}`);
      }
      const target = resolve(root, file, fileName);
      if (!target) continue;
      targets.add(target);
      edges += 1;
      const [from, to] = [top(file), top(target)];
      if (from === 'domain' && (to === 'server' || to === 'web'))
        violations.push(`rule 1: ${file} imports ${target}`);
      if ((from === 'web' && to === 'server') || (from === 'server' && to === 'web'))
        violations.push(`rule 2: ${file} imports ${target}`);
      const [a, b] = [webFeature(file), webFeature(target)];
      if (a && b && a !== b)
        violations.push(`rule 3: web feature ${a} imports web feature ${b} (${file} -> ${target})`);
    }
    modules.set(file, targets);
  }
  for (const cycle of findCycles(modules))
    violations.push(`rule 4: module cycle ${[...cycle, cycle[0]].join(' -> ')}`);
  const features = new Map<string, Set<string>>();
  for (const [file, targets] of modules) {
    if (/\.test\.tsx?$/.test(file)) continue;
    const from = serverFeature(file);
    if (!from || from === 'server') continue;
    for (const target of targets) {
      const to = serverFeature(target);
      if (to && to !== from && to !== 'server') {
        if (!features.has(from)) features.set(from, new Set());
        features.get(from)!.add(to);
      }
    }
  }
  for (const cycle of findCycles(features))
    violations.push(`rule 4: server feature cycle ${[...cycle, cycle[0]].join(' -> ')}`);
  return { files: files.length, edges, violations };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const report = checkImports(root);
  console.log(
    `import rules: ${report.files} files, ${report.edges} relative imports, ${report.violations.length} violations`,
  );
  for (const line of report.violations) console.log(`  ${line}`);
  process.exit(report.violations.length > 0 ? 1 : 0);
}
