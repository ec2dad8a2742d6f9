import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderPublicPages } from './scripts/prerender.ts';
import { routeChunks } from './scripts/route-chunks.ts';
import { compressedCopies, earlyEntry, mantineStylesPerComponent } from './vite-plugins.ts';

/**
 * Compile-time constants, shared by the browser's build and the prerendering's Node build (so a
 * prerendered page and its hydration agree): the year of the build, which the landing page's footer
 * shows until the visitor's own year replaces it (web/features/landing/landing-page.tsx).
 */
const define = { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) };

/**
 * The routes sent as a shell that preloads what their first screen needs (path -> the modules under
 * web/ it renders), and which get one chunk for it (decision 033).
 */
const routeShells = {
  '/dashboard': ['components/app-shell.tsx', 'features/dashboard/dashboard-page.tsx'],
};
/** The prerendered pages' lazy parts (their hydration loads them): none of their code is put in a route's chunk. */
const publicPageParts = ['features/auth/auth-page.tsx', 'features/landing/landing-details.tsx'];
const routeChunking = routeChunks(routeShells, publicPageParts);

/**
 * The web app: built to dist/web and served by the API server on the same port (decision 016).
 *
 * - Every text asset also gets a brotli (`.br`) and a gzip (`.gz`) copy at build time; the server's
 *   static plugin sends the one the browser accepts (`preCompressed`), so nothing is compressed per
 *   request.
 * - Chunks: the libraries every page runs (React, React Router, TanStack Query) are one `vendor`
 *   chunk, cached across releases that change only the app; the rest of what the first page needs
 *   is one `app` chunk (not a dozen small ones, each a round trip); what a signed-in route's first
 *   screen needs beyond those is one `route-<name>` chunk, with what it shares with the public
 *   pages' lazy parts in `route-<name>-shared` (scripts/route-chunks.ts); what only the other lazy
 *   pages use is split by page, as Rolldown does by default.
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
    prerenderPublicPages({ define }, routeShells),
    routeChunking.plugin,
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
              priority: 3,
            },
            { name: 'app', tags: ['$initial'], priority: 2 },
            ...routeChunking.groups,
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000', '/dev': 'http://127.0.0.1:3000' } },
});
