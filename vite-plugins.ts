/**
 * Vite plugins shared by the web app's build (vite.config.ts) and the floor page of
 * `npm run bench:web` (bench/floor/vite.config.ts), so the floor is built as the app is.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Each Mantine component brings its own stylesheet (decision 016). Mantine ships one CSS file per
 * component (`@mantine/core/styles/Button.css`, the documented alternative to the 250 kB
 * `styles.css`), matching the class-name module each component imports (`Button.module.mjs`). This
 * adds that import to the module, so the CSS lands in the chunk of the code that renders it: the
 * landing page blocks only on its own components' styles, and a lazy page's styles load with it.
 * A component's CSS follows the CSS of the components it is built on, as Mantine's docs require,
 * because it imports them first. Mantine's global styles are in web/styles/first-paint.css.
 */
export function mantineStylesPerComponent(): Plugin {
  const classModule = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/;
  return {
    name: 'mantine-styles-per-component',
    transform(code, id) {
      const name = classModule.exec(id)?.[1];
      return name ? { code: `import '@mantine/core/styles/${name}.css';\n${code}`, map: null } : undefined;
    },
  };
}

/**
 * A brotli (`.br`) and a gzip (`.gz`) copy of every text asset at build time; the server's static
 * plugin sends the one the browser accepts (`preCompressed`), so nothing is compressed per request.
 */
export function compressedCopies(): Plugin {
  return compression({
    include: /\.(js|mjs|css|html|svg|txt|json|webmanifest)$/,
    // Below 1 kB compression saves less than the request headers weigh.
    threshold: 1024,
    algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
  });
}

/**
 * Builds `entry` (a module, e.g. web/early.ts) on its own, into one minified file
 * `assets/<name>-<hash>.js` with every module it imports, and loads it from the HTML before the
 * app's entry (`<script type="module" async>` first in `<head>`, tagged `data-early-entry`; a prerendered
 * page leaves it out: scripts/prerender.ts). Built apart from the app, it shares no chunk with it:
 * the app's entry neither imports nor waits for it, and it runs as soon as its few kB have arrived,
 * while the app's code is still downloading (decision 033). What it hands the app goes through
 * `globalThis` (web/early-reads.ts). Build only; the dev server runs the app's entry alone.
 */
export function earlyEntry(entry: string, name = 'early'): Plugin {
  let fileName = '';
  let resolved: ResolvedConfig;
  return {
    name: 'early-entry',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    async buildStart() {
      if (resolved.build.ssr) return;
      const built = await build({
        configFile: false,
        root: resolved.root,
        mode: resolved.mode,
        logLevel: 'warn',
        build: {
          write: false,
          minify: true,
          sourcemap: false,
          target: resolved.build.target,
          lib: { entry: path.resolve(resolved.root, entry), formats: ['es'], fileName: name },
        },
      });
      const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
      const chunks = outputs.flatMap((o) => o.output).filter((file) => file.type === 'chunk');
      if (chunks.length !== 1)
        throw new Error(`early-entry: ${entry} built into ${chunks.length} files, not one`);
      const code = chunks[0]!.code;
      fileName = `assets/${name}-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        return [
          {
            tag: 'script',
            // async: it runs once arrived, not after the stylesheets and the whole document as a
            // deferred module would (its fetches need no DOM).
            attrs: {
              type: 'module',
              async: true,
              crossorigin: true,
              src: `${resolved.base}${fileName}`,
              'data-early-entry': true,
            },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}
