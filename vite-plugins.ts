/**
 * Vite plugins shared by the web app's build (vite.config.ts) and the floor page of
 * `npm run bench:web` (bench/floor/vite.config.ts), so the floor is built as the app is.
 */
import type { Plugin } from 'vite';
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
