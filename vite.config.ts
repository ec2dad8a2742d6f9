import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderPublicPages } from './scripts/prerender.ts';
import { compressedCopies, earlyEntry, mantineStylesPerComponent } from './vite-plugins.ts';

/**
 * Compile-time constants, shared by the browser's build and the prerendering's Node build (so a
 * prerendered page and its hydration agree): the year of the build, which the landing page's footer
 * shows until the visitor's own year replaces it (web/features/landing/landing-page.tsx).
 */
const define = { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) };

/**
 * The web app: built to dist/web and served by the API server on the same port (decision 016).
 *
 * - Every text asset also gets a brotli (`.br`) and a gzip (`.gz`) copy at build time; the server's
 *   static plugin sends the one the browser accepts (`preCompressed`), so nothing is compressed per
 *   request.
 * - Chunks: the libraries every page runs (React, React Router, TanStack Query) are one `vendor`
 *   chunk, cached across releases that change only the app; the rest of what the first page needs
 *   is one `app` chunk (not a dozen small ones, each a round trip); what only the lazy pages use is
 *   split by page, as Rolldown does by default.
 * - The public pages (`/`, `/auth`) are also prerendered to HTML (scripts/prerender.ts, decision 033).
 */
export default defineConfig({
  root: 'web',
  define,
  plugins: [
    mantineStylesPerComponent(),
    react(),
    compressedCopies(),
    // web/early.ts, built on its own and loaded first: the session check and the first page's reads
    // start from it, before the app's code has loaded (decision 033).
    earlyEntry('early.ts'),
    // `/` and `/auth` as HTML with their critical CSS inline, hydrated by main.tsx (their chunks are
    // not preloaded: every request before the first paint delays it; /auth's tabs say aria-disabled
    // until hydrated); `/dashboard` as index.html preloading the app shell's and the dashboard's
    // chunks (decision 033).
    prerenderPublicPages(
      { define },
      {
        '/dashboard': ['components/app-shell.tsx', 'features/dashboard/dashboard-page.tsx'],
      },
    ),
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/][^\\/]+)[\\/]/,
              priority: 2,
            },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000', '/dev': 'http://127.0.0.1:3000' } },
});
