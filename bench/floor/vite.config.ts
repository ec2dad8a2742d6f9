import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** As the app's vite.config.ts: each Mantine component brings its own stylesheet (decision 016). */
function mantineStylesPerComponent(): Plugin {
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
 * The floor page of `npm run bench:web` (bench/floor/main.tsx): built with the project's own Vite,
 * React and Mantine, compressed as the app is (brotli and gzip copies), one chunk.
 * `npx vite build --config bench/floor/vite.config.ts --outDir <dir>`.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  plugins: [
    mantineStylesPerComponent(),
    react(),
    compression({
      include: /\.(js|mjs|css|html|svg|txt|json|webmanifest)$/,
      threshold: 1024,
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
    }),
  ],
  build: { emptyOutDir: true, sourcemap: false },
});
