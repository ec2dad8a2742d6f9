import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compressedCopies, mantineStylesPerComponent } from '../../vite-plugins.ts';

/**
 * The floor page of `npm run bench:web` (bench/floor/main.tsx): built with the project's own Vite,
 * React and Mantine, compressed as the app is (brotli and gzip copies), one chunk.
 * `npx vite build --config bench/floor/vite.config.ts --outDir <dir>`.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  plugins: [mantineStylesPerComponent(), react(), compressedCopies()],
  build: { emptyOutDir: true, sourcemap: false },
});
