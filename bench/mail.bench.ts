/**
 * `npm run bench:mail`: what pooled SMTP connections (server/mail/mailer.ts) are worth to the daily
 * jobs that email one message per provider. Sends BENCH_MAILS messages (default 500) one after
 * another, as the jobs do, to a real SMTP server on loopback (smtp-server; no TLS, no network delay,
 * so the gain here is the smallest it can be: a relay adds a TLS handshake and round trips to every
 * new connection), first through the mailer, then through nodemailer's unpooled transport (one
 * connection per message, what the mailer did before). Prints messages per second and connections.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../server/mail/mailer.ts';

const MAILS = Number(process.env.BENCH_MAILS ?? 500);
let connections = 0;
let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  // No reverse DNS of 127.0.0.1 per connection: it would time the resolver, not SMTP.
  disableReverseLookup: true,
  logger: false,
  onConnect(_session, callback) {
    connections += 1;
    callback();
  },
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.server.address() as { port: number }).port;
const smtpUrl = `smtp://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-bench-mail-'));
const message = (n: number) => ({
  to: `provider-${n}@example.test`,
  subject: 'Your credentials are expiring',
  text: `These credentials in your credentialing application expire soon or have expired:\n\n- Professional Licenses: Medical License ${n} (IL), expires Dec 15, 2026 (20 days left)\n`,
});

async function measure(name: string, send: (n: number) => Promise<unknown>, close: () => Promise<void>) {
  connections = 0;
  received = 0;
  const started = process.hrtime.bigint();
  for (let n = 0; n < MAILS; n++) await send(n);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await close();
  if (received !== MAILS) throw new Error(`${name}: ${received} of ${MAILS} messages arrived`);
  console.log(
    `${name.padEnd(34)} ${MAILS} messages in ${seconds.toFixed(2)} s: ${(MAILS / seconds).toFixed(0)} msg/s, ${connections} connection(s)`,
  );
}

try {
  console.log(`${MAILS} messages sent one after another to smtp-server on 127.0.0.1 (no TLS):`);
  const mailer = createMailer({
    smtpUrl,
    from: 'portal@example.test',
    dataDir,
    logger: pino({ level: 'silent' }),
  });
  await measure(
    'pooled (the mailer)',
    (n) => mailer.send(message(n)),
    async () => mailer.close?.(),
  );
  const unpooled = nodemailer.createTransport(smtpUrl);
  await measure(
    'unpooled (one connection each)',
    (n) => unpooled.sendMail({ from: 'portal@example.test', ...message(n) }),
    async () => unpooled.close(),
  );
} finally {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
