/**
 * `npm start` as a new user meets it (issue 10 items 1, 2 and 8): the start-up log names one URL to
 * open and says where mail goes; the development mailbox is announced only on a loopback server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../tests/harness.ts';
import { freePort } from './db/embedded-postgres.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** Start server/main.ts and collect its log until the ready line and the mail lines are out. */
async function startServer(env: Record<string, string>): Promise<string[]> {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-main-'));
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const lines: string[] = [];
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; log:\n${lines.join('\n')}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) {
        const message = (JSON.parse(part) as { msg?: string }).msg ?? '';
        lines.push(message);
        // With SMTP "Mail is ..." ends the start-up log; without, the mailbox line after it does.
        const mailLine = lines.findIndex((l) => l.startsWith('Mail is'));
        if (mailLine >= 0 && (env.SMTP_URL || lines.length > mailLine + 1)) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk}`));
    child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${lines.join('\n')}`)));
  });
  return lines;
}

describe('start-up log', () => {
  it('on loopback: one URL to open, mail saved to the outbox and read at /dev/mail', async () => {
    const port = await freePort();
    const lines = await startServer({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development' });
    const urls = lines.join('\n').match(/https?:\/\/[^\s"']+/g) ?? [];
    expect(urls).toEqual([`http://localhost:${port}`]);
    expect(lines).toContain(`Credentialing portal ready: open http://localhost:${port}`);
    expect(lines.some((l) => /^Mail is saved as \.eml files in .*mail \(no SMTP_URL set\)\.$/.test(l))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes('/dev/mail page of that address'))).toBe(true);
    const page = await fetch(`http://127.0.0.1:${port}/dev/mail`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Outgoing mail');
  });

  it('on every interface: says the mailbox page is off, and it is', async () => {
    const port = await freePort();
    const lines = await startServer({ PORT: String(port), HOST: '0.0.0.0', NODE_ENV: 'development' });
    expect(lines.some((l) => l.includes('The development mailbox page (/dev/mail) is off'))).toBe(true);
    // The built web app may answer the unknown path with its own 404 page: never the mailbox.
    expect(await (await fetch(`http://127.0.0.1:${port}/dev/mail`)).text()).not.toContain('Outgoing mail');
  });

  it('with SMTP: names the server, never its credentials', async () => {
    const port = await freePort();
    const lines = await startServer({
      PORT: String(port),
      SMTP_URL: 'smtp://mailer:hunter2-secret@smtp.example.test:2525',
    });
    expect(lines).toContain('Mail is sent through the SMTP server smtp.example.test:2525.');
    expect(lines.join('\n')).not.toContain('hunter2-secret');
  });
});
