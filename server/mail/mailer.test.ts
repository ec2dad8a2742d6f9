/**
 * Over SMTP the mailer keeps its connections and reuses them (a daily job emails tens of thousands
 * of providers), never opens more than SMTP_MAX_CONNECTIONS at once, loses no message, and closes
 * them on `close()`. Against a real SMTP server on loopback (smtp-server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, SMTP_MAX_CONNECTIONS } from './mailer.ts';

let server: SMTPServer;
let port = 0;
let opened = 0;
let open = 0;
let mostOpen = 0;
const received: string[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-mailer-'));

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      opened += 1;
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      callback();
    },
    onClose() {
      open -= 1;
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const message = (n: number) => ({
  to: `provider-${n}@example.test`,
  subject: `Message ${n}`,
  text: `Body ${n}`,
});
const waitFor = async (condition: () => boolean) => {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('createMailer over SMTP', () => {
  it('reuses one connection for messages sent one after another, and closes it on close()', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'portal@example.test',
      dataDir,
      logger: pino({ level: 'silent' }),
    });
    for (let n = 1; n <= 12; n++) await mailer.send(message(n));
    expect(received).toHaveLength(12);
    expect(received[11]).toContain('Subject: Message 12');
    expect(opened).toBe(1);

    // Twenty at once: queued over at most SMTP_MAX_CONNECTIONS, every one delivered.
    await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send(message(100 + i))));
    expect(received).toHaveLength(32);
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(SMTP_MAX_CONNECTIONS);

    await mailer.close?.();
    await waitFor(() => open === 0);
    expect(open).toBe(0);
  });
});

describe('a calendar invitation (issue 50 item 9)', () => {
  it('goes over SMTP as a text/calendar method=REQUEST part and an .ics attachment', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'portal@example.test',
      dataDir,
      logger: pino({ level: 'silent' }),
    });
    const content = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Mailer//EN',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      'UID:meeting-test@example.test',
      'DTSTAMP:20261128T150000Z',
      'DTSTART:20261201T150000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const before = received.length;
    await mailer.send({
      ...message(900),
      icalEvent: { method: 'REQUEST', filename: 'meeting.ics', content },
    });
    await mailer.close?.();
    const raw = received[before] ?? '';
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
    expect(raw).toMatch(/Content-Type: application\/ics; name=meeting\.ics/);
    expect(raw).toContain('DTSTART:20261201T150000Z');
  });
});
