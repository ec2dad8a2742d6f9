/**
 * One chunk per signed-in route for what its first screen needs (issue 35 goal 3, decision 033):
 * a Vite plugin and the code-splitting groups that go with it, used by vite.config.ts.
 *
 * Without it, Rolldown splits the modules the lazy pages share by the set of pages sharing each
 * one, and `/dashboard` fetched 37 scripts and 8 stylesheets (27 of them 1 to 2 kB Mantine and app
 * pieces), each a request on HTTP/1.1 before its first paint. With it, a route's modules that the
 * app's entry does not already load are one chunk `route-<name>` (and one stylesheet); the few it
 * shares with the public pages' lazy parts are `route-<name>-shared`, so the prerendered `/` and
 * `/auth` never load a signed-in route's code to hydrate. Other lazy pages import what they share
 * with the route from the route's chunk.
 *
 * Which modules a route uses is read from the build's module graph, through the packages' barrel
 * files: `import { Alert } from '@mantine/core'` uses Alert's module, not the 400 components the
 * barrel re-exports (Rolldown links the same way, so its chunks agree with these sets; the chunk
 * layout test checks it, tests/architecture/chunk-layout.test.ts).
 */
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type Program = ReturnType<Rolldown.PluginContext['parse']>;
type Statement = Program['body'][number];

/** The name an import or export specifier carries (an identifier or a string literal). */
function nameOf(node: { type: string; name?: string; value?: unknown }): string {
  return node.type === 'Identifier' ? (node.name as string) : String(node.value);
}

/**
 * A barrel: a package module made only of imports and re-exports (e.g. `@mantine/core`'s index).
 * `exports` maps each exported name to where it comes from; `stars` are its `export * from` sources.
 */
interface Barrel {
  exports: Map<string, { source: string; name: string }>;
  stars: string[];
}

/** The barrel `body` describes, or undefined when the module does anything but re-export. */
function barrelOf(body: readonly Statement[]): Barrel | undefined {
  const imported = new Map<string, { source: string; name: string }>();
  const exports = new Map<string, { source: string; name: string }>();
  const locals = new Map<string, string>();
  const stars: string[] = [];
  for (const statement of body) {
    if (statement.type === 'ImportDeclaration') {
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ImportSpecifier') return undefined;
        imported.set(specifier.local.name, {
          source: statement.source.value,
          name: nameOf(specifier.imported),
        });
      }
    } else if (statement.type === 'ExportNamedDeclaration' && !statement.declaration) {
      for (const specifier of statement.specifiers) {
        const exported = nameOf(specifier.exported);
        if (statement.source)
          exports.set(exported, { source: statement.source.value, name: nameOf(specifier.local) });
        else locals.set(exported, nameOf(specifier.local));
      }
    } else if (statement.type === 'ExportAllDeclaration' && !statement.exported) {
      stars.push(statement.source.value);
    } else return undefined;
  }
  for (const [exported, local] of locals) {
    const from = imported.get(local);
    if (!from) return undefined;
    exports.set(exported, from);
  }
  return { exports, stars };
}

/** What a module imports from one source: the names, or every export ('*': a namespace, a star re-export). */
interface ImportOf {
  source: string;
  names: string[] | '*';
}

function importsOf(body: readonly Statement[]): ImportOf[] {
  const found: ImportOf[] = [];
  for (const statement of body) {
    if (statement.type === 'ImportDeclaration') {
      const names: string[] = [];
      let all = false;
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportSpecifier') names.push(nameOf(specifier.imported));
        else if (specifier.type === 'ImportDefaultSpecifier') names.push('default');
        else all = true;
      }
      found.push({ source: statement.source.value, names: all ? '*' : names });
    } else if (statement.type === 'ExportNamedDeclaration' && statement.source) {
      found.push({ source: statement.source.value, names: statement.specifiers.map((s) => nameOf(s.local)) });
    } else if (statement.type === 'ExportAllDeclaration') {
      found.push({ source: statement.source.value, names: '*' });
    }
  }
  return found;
}

/**
 * The plugin, which reads the module graph once the build has it, and the groups for
 * `build.rollupOptions.output.codeSplitting.groups`: per route, `route-<name>-shared` (priority 1)
 * and `route-<name>` (priority 0), so give the app's own groups higher priorities.
 *
 * @param routes path -> the modules (under the Vite root) the route's first screen renders.
 * @param keepOut modules (under the root) whose code stays out of every route's own chunk: the
 *   public pages' lazy parts, which a prerendered page loads to hydrate.
 * @throws at build time when a named module is not in the build.
 */
export function routeChunks(
  routes: Record<string, readonly string[]>,
  keepOut: readonly string[] = [],
): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  let root = '';
  /** Per route: its modules the entry does not load, and those of them the kept-out modules use too. */
  const sets = new Map<string, { own: Set<string>; shared: Set<string> }>();

  const plugin: Plugin = {
    name: 'route-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    /**
     * Walks the graph from the entries, the kept-out modules and each route's modules, parsing
     * only the modules it reaches: through a barrel it follows only the names imported, so the
     * thousands of modules a package's index re-exports and nobody uses are never read.
     */
    async buildEnd(error) {
      sets.clear();
      if (error) return;
      const bodies = new Map<string, readonly Statement[] | null>();
      const bodyOf = (id: string) => {
        if (!bodies.has(id)) {
          const code = this.getModuleInfo(id)?.code;
          const script = /\.[cm]?[jt]sx?$/.test(id.split('?')[0] ?? '');
          bodies.set(id, code != null && script ? this.parse(code).body : null);
        }
        return bodies.get(id) ?? null;
      };
      const barrels = new Map<string, Barrel | undefined>();
      const barrelAt = (id: string) => {
        if (!barrels.has(id)) {
          const body = id.includes(`${path.sep}node_modules${path.sep}`) ? bodyOf(id) : null;
          barrels.set(id, body ? barrelOf(body) : undefined);
        }
        return barrels.get(id);
      };
      const resolved = new Map<string, string | undefined>();
      const resolve = async (source: string, importer: string) => {
        const key = `${importer}\0${source}`;
        if (!resolved.has(key)) resolved.set(key, (await this.resolve(source, importer))?.id);
        return resolved.get(key);
      };
      /** The modules that provide `name` when imported from `barrelId` (through nested barrels). */
      const providers = async (
        barrelId: string,
        name: string,
        seen = new Set<string>(),
      ): Promise<string[]> => {
        const barrel = barrelAt(barrelId);
        if (!barrel) return [barrelId];
        if (seen.has(`${barrelId}\0${name}`)) return [];
        seen.add(`${barrelId}\0${name}`);
        const from = barrel.exports.get(name);
        const sources = from ? [from] : barrel.stars.map((source) => ({ source, name }));
        const found: string[] = [];
        for (const { source, name: inner } of sources) {
          const target = await resolve(source, barrelId);
          if (target) found.push(...(await providers(target, inner, seen)));
        }
        return found;
      };
      /** The modules `id` uses: its imports, with a barrel replaced by the modules of the names taken from it. */
      const usesOf = async (id: string): Promise<Set<string>> => {
        const importedIds = this.getModuleInfo(id)?.importedIds ?? [];
        const used = new Set(importedIds);
        const body = barrelAt(id) || !importedIds.some((imported) => barrelAt(imported)) ? null : bodyOf(id);
        if (!body) return used;
        const named = new Map<string, string[] | '*'>();
        for (const { source, names } of importsOf(body)) {
          const target = await resolve(source, id);
          if (!target || !barrelAt(target)) continue;
          const before = named.get(target) ?? [];
          named.set(target, before === '*' || names === '*' ? '*' : [...before, ...names]);
        }
        for (const [target, names] of named) {
          if (names === '*') continue;
          used.delete(target);
          for (const name of names) for (const provider of await providers(target, name)) used.add(provider);
        }
        return used;
      };
      const reachable = async (from: readonly string[]) => {
        const seen = new Set<string>();
        const stack = [...from];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(await usesOf(id)));
        }
        return seen;
      };
      const resolveUnderRoot = (module: string) => {
        const id = path.resolve(root, module);
        if (!this.getModuleInfo(id)) throw new Error(`route-chunks: ${module} is not in the build`);
        return id;
      };
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const initial = await reachable(entries);
      const kept = await reachable(keepOut.map(resolveUnderRoot));
      for (const [route, modules] of Object.entries(routes)) {
        const all = [...(await reachable(modules.map(resolveUnderRoot)))].filter((id) => !initial.has(id));
        sets.set(route, {
          own: new Set(all.filter((id) => !kept.has(id))),
          shared: new Set(all.filter((id) => kept.has(id))),
        });
      }
    },
  };

  const groups = Object.keys(routes).flatMap((route) => {
    const name = `route-${route.split('/').filter(Boolean).pop() ?? 'index'}`;
    return [
      // What the route shares with the kept-out modules, captured first: Rolldown puts a captured
      // module's imports in its group too, and these modules' imports are shared as well.
      { name: `${name}-shared`, test: (id: string) => sets.get(route)?.shared.has(id) ?? false, priority: 1 },
      { name, test: (id: string) => sets.get(route)?.own.has(id) ?? false, priority: 0 },
    ];
  });
  return { plugin, groups };
}
