/**
 * The server owns its embedded cluster, so when the postmaster dies (kill -9, a crash, the OOM
 * killer) it says so and starts it again on the same port (issue 19 item 1). Until it answers,
 * the health monitor reports the database unreachable: /api/ready and requests answer 503.
 */
import type { DatabaseHealth } from './database-health.ts';
import type { EmbeddedDatabase } from './embedded-postgres.ts';

export interface SupervisorLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Restart `embedded` whenever it exits unexpectedly, retrying every `retryMs` (default 500 ms;
 * PostgreSQL refuses to start while backends of the killed postmaster still hold its shared
 * memory, which takes them a moment to notice). Stops trying once `embedded.stop()` was called.
 */
export function superviseEmbeddedPostgres(
  embedded: EmbeddedDatabase,
  health: DatabaseHealth,
  logger: SupervisorLogger,
  options: { retryMs?: number } = {},
): void {
  const retryMs = options.retryMs ?? 500;
  embedded.onUnexpectedExit(async ({ code, signal }) => {
    logger.error({ exitCode: code, signal }, 'embedded PostgreSQL exited; restarting it');
    health.reportUnreachable(new Error('embedded PostgreSQL exited'));
    const startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await embedded.restart();
        break;
      } catch (error) {
        if (/being stopped/.test((error as Error).message)) return;
        // One line for the first failure and then one a minute at most: no flood while it cannot start.
        if (attempt === 1 || attempt % Math.max(1, Math.round(60_000 / retryMs)) === 0) {
          logger.warn({ err: error, attempt }, 'embedded PostgreSQL did not start yet; retrying');
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
    logger.info(
      { postgresPid: embedded.postgresPid, restartMs: Date.now() - startedAt },
      'embedded PostgreSQL restarted',
    );
    await health.check();
  });
}
