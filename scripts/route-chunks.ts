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
  /** module id -> the modules it uses (barrels seen through). */
  const uses = new Map<string, Set<string>>();
  const entries: string[] = [];
  const sets = new Map<string, { own: Set<string>; shared: Set<string> }>();

  const reachable = (from: readonly string[]) => {
    const seen = new Set<string>();
    const stack = [...from];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const used of uses.get(id) ?? []) stack.push(used);
    }
    return seen;
  };
  const resolveUnderRoot = (module: string) => {
    const id = path.resolve(root, module);
    if (!uses.has(id)) throw new Error(`route-chunks: ${module} is not in the build`);
    return id;
  };
  const setsOf = (route: string) => {
    let found = sets.get(route);
    if (!found) {
      const initial = reachable(entries);
      const kept = reachable(keepOut.map(resolveUnderRoot));
      const modules = routes[route] ?? [];
      const all = [...reachable(modules.map(resolveUnderRoot))].filter((id) => !initial.has(id));
      found = {
        own: new Set(all.filter((id) => !kept.has(id))),
        shared: new Set(all.filter((id) => kept.has(id))),
      };
      sets.set(route, found);
    }
    return found;
  };

  const plugin: Plugin = {
    name: 'route-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async buildEnd(error) {
      if (error) return;
      uses.clear();
      sets.clear();
      entries.length = 0;
      const ids = [...this.getModuleIds()];
      const bodies = new Map<string, readonly Statement[]>();
      const barrels = new Map<string, Barrel>();
      for (const id of ids) {
        const info = this.getModuleInfo(id);
        if (!info) continue;
        if (info.isEntry) entries.push(id);
        if (info.code === null || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0] ?? '')) continue;
        const body = this.parse(info.code).body;
        bodies.set(id, body);
        const barrel = id.includes(`${path.sep}node_modules${path.sep}`) ? barrelOf(body) : undefined;
        if (barrel) barrels.set(id, barrel);
      }
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
        const barrel = barrels.get(barrelId);
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
      for (const id of ids) {
        const info = this.getModuleInfo(id);
        const used = new Set(info?.importedIds ?? []);
        const body = bodies.get(id);
        if (body && !barrels.has(id) && info?.importedIds.some((imported) => barrels.has(imported))) {
          const named = new Map<string, string[] | '*'>();
          for (const { source, names } of importsOf(body)) {
            const target = await resolve(source, id);
            if (!target || !barrels.has(target)) continue;
            const before = named.get(target) ?? [];
            named.set(target, before === '*' || names === '*' ? '*' : [...before, ...names]);
          }
          for (const [target, names] of named) {
            if (names === '*') continue;
            used.delete(target);
            for (const name of names)
              for (const provider of await providers(target, name)) used.add(provider);
          }
        }
        uses.set(id, used);
      }
    },
  };

  const groups = Object.keys(routes).flatMap((route) => {
    const name = `route-${route.split('/').filter(Boolean).pop() ?? 'index'}`;
    return [
      // What the route shares with the kept-out modules, captured first: Rolldown puts a captured
      // module's imports in its group too, and these modules' imports are shared as well.
      { name: `${name}-shared`, test: (id: string) => setsOf(route).shared.has(id), priority: 1 },
      { name, test: (id: string) => setsOf(route).own.has(id), priority: 0 },
    ];
  });
  return { plugin, groups };
}
