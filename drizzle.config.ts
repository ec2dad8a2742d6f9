import { defineConfig } from 'drizzle-kit';

/** drizzle-kit generates migrations from the TypeScript schema; the app applies them at start-up. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
  casing: undefined,
});
