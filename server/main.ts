/**
 * Server entry point: `npm start` (builds the web app first) or `npm run dev`.
 * Stops cleanly on SIGINT/SIGTERM, closing the embedded database.
 */
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadEnv } from './env.ts';
import { loggerOptions } from './logger.ts';
import { createRuntime } from './runtime.ts';

async function main() {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger = pino(loggerOptions(env.LOG_LEVEL));
  const runtime = await createRuntime({ env, logger });
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await runtime.close();
  });
  try {
    await runtime.app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    // Stop the embedded PostgreSQL too, instead of leaving it running without an owner.
    await runtime.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(
        `Port ${env.PORT} on ${env.HOST} is already in use: stop the program using it or set PORT.`,
      );
    } else {
      console.error(`Could not listen on ${env.HOST}:${env.PORT}: ${(error as Error).message}`);
    }
    process.exit(1);
  }
  logger.info(`Credentialing portal listening on ${env.appUrl}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
