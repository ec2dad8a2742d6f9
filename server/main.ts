/**
 * Server entry point: `npm start` (builds the web app first) or `npm run dev`.
 * Stops gracefully on SIGINT/SIGTERM (issue 19 item 3): no new connections, requests in flight
 * finish, then the pool and the embedded database close; exits 0 even when the database has died.
 */
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { SecretMismatchError } from './cluster/instance-registry.ts';
import { EmbeddedPostgresError } from './db/embedded-postgres.ts';
import { loadEnv } from './env.ts';
import { isProvablyLocal } from './http/loopback.ts';
import { loggerOptions } from './logger.ts';
import { describeMailDestination } from './mail/mailer.ts';
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
  // runtime.close() bounds each of its steps (requests in flight: SHUTDOWN_GRACE_MS; then the pool
  // 5 s and the embedded cluster 10 s); this backstop ends the process (code 1) if one ignores it.
  closeWithGrace({ delay: env.SHUTDOWN_GRACE_MS + 20_000 }, async ({ err, signal }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await runtime.close();
  });
  try {
    await runtime.app.listen({
      port: env.PORT,
      host: env.HOST,
      // Fastify's own line would print a URL (http://127.0.0.1:3000); the one URL to open is below.
      listenTextResolver: () => `server bound to ${env.HOST} port ${env.PORT}`,
    });
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
  logger.info(`Credentialing portal ready: open ${env.appUrl}`);
  logger.info(`Mail is ${describeMailDestination(env.SMTP_URL, env.dataDir)}.`);
  if (!env.SMTP_URL) {
    logger.info(
      isProvablyLocal(env)
        ? 'Read it on the /dev/mail page of that address (served only to this machine).'
        : 'The development mailbox page (/dev/mail) is off: the server is reachable from other machines (HOST is not a loopback address, or TRUST_PROXY is set). Set SMTP_URL to deliver mail.',
    );
  }
}

main().catch((error) => {
  // A start-up problem the person can fix is one paragraph; anything else keeps its stack.
  console.error(
    error instanceof EmbeddedPostgresError || error instanceof SecretMismatchError ? error.message : error,
  );
  process.exit(1);
});
