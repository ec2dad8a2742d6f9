import { defineConfig } from 'vitest/config';

/**
 * @medplum/core 5 (the FHIR validator of server/fhir's tests) needs a global WebSocket at import:
 * Node 22+ has one, Node 20 only behind --experimental-websocket.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** Unit and integration tests (real PostgreSQL: embedded, or DATABASE_URL's server). */
export default defineConfig({
  test: {
    include: [
      'domain/**/*.test.ts',
      'server/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'tests/integration/**/*.test.ts',
      'tests/architecture/**/*.test.ts',
    ],
    exclude: ['node_modules', 'dist', 'tests/e2e/**'],
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup.ts'],
    pool: 'forks',
    // One module graph per worker, not per file (issue 54 item 7): importing the server for each of
    // 176 files cost 826 s of the workers' time (a 1,599 s run); without it the suite took 371 s.
    // Each file still gets its own database and app (tests/harness.ts); files restore what they
    // stub (tests/setup.ts restores spies; stubbed globals are unstubbed in the files that stub).
    isolate: false,
    execArgv: nodeMajor < 22 ? ['--experimental-websocket'] : [],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
