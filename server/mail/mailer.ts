/**
 * Outgoing mail through nodemailer. With `SMTP_URL`: real SMTP. Without (the embedded default, never
 * in production) no message is lost: each is written as an `.eml` file under `$DATA_DIR/mail/`, which
 * the development mail page (/dev/mail, only on a provably local server) lists, so a new user can
 * confirm an account without a mail server (issue 2). Links are never logged: they carry
 * verification and reset tokens (issue 10 item 2).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * A calendar invitation (RFC 5545 text, e.g. a committee meeting's, issue 50 item 9): nodemailer
   * sends it as a `text/calendar; method=…` alternative and as an `.ics` attachment, which mail
   * clients offer to add to the calendar.
   */
  icalEvent?: { method: 'REQUEST' | 'PUBLISH' | 'CANCEL'; filename: string; content: string };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Directory of saved .eml files when no SMTP server is configured, otherwise undefined. */
  readonly outboxDir?: string;
  /** Close the SMTP connections kept open for the next message (at shutdown). */
  close?(): Promise<void>;
}

/**
 * SMTP connections kept open and reused (nodemailer's pooled transport): a daily job that emails
 * every provider with a credential crossing a threshold (83,215 on the volume seed) would otherwise
 * open a TCP connection, negotiate TLS and authenticate once per message. At most this many at once;
 * sends beyond them wait in nodemailer's queue.
 */
export const SMTP_MAX_CONNECTIONS = 5;

/**
 * Where mail goes, for the start-up log: the SMTP server's host and port (never its credentials),
 * or the outbox directory.
 */
export function describeMailDestination(smtpUrl: string | undefined, dataDir: string): string {
  if (!smtpUrl) return `saved as .eml files in ${path.join(dataDir, 'mail')} (no SMTP_URL set)`;
  const url = new URL(smtpUrl);
  return `sent through the SMTP server ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
}

/**
 * @param smtpUrl smtp(s)://user:pass@host:port, or undefined for the file outbox. Over SMTP the
 *   connections are pooled (up to SMTP_MAX_CONNECTIONS, each reused for up to 100 messages and
 *   closed by `close()`).
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  const { smtpUrl, from, dataDir, logger } = options;
  if (smtpUrl) {
    // nodemailer reads a URL's options from the URL alone (an object's other keys are ignored), so the
    // pool is asked for in its query; an operator's own `pool` or `maxConnections` there is kept.
    const url = new URL(smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    if (!url.searchParams.has('maxConnections')) {
      url.searchParams.set('maxConnections', String(SMTP_MAX_CONNECTIONS));
    }
    const transport = nodemailer.createTransport(url.toString());
    return {
      async send(message) {
        await transport.sendMail({ from, ...message });
        logger.info({ subject: message.subject }, 'mail sent over SMTP');
      },
      async close() {
        transport.close();
      },
    };
  }
  const outboxDir = path.join(dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    outboxDir,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID()}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info(
        { file: path.basename(file), subject: message.subject },
        'mail saved to the outbox (no SMTP_URL set)',
      );
    },
  };
}
