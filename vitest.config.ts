import { defineConfig } from 'vitest/config';

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
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
