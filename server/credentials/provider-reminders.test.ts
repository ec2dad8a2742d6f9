/**
 * The daily provider-reminders job (issue 14) against the real PostgreSQL, the clock driven by the
 * test: recredentialing reminders at 180, 90 and 30 days, each once; none once the provider started
 * the next cycle; a re-attestation reminder once an attestation under review has aged; a failed
 * email is retried by the next run and never sent twice.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { runProviderReminders } from './provider-reminders.ts';

let app: TestApp;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const day = 24 * 60 * 60 * 1000;
const deps = (mailer: Mailer = app.runtime.deps.mailer) => ({
  db: app.runtime.deps.db,
  mailer,
  appUrl: 'https://portal.example',
  logger: silent,
  attestationValidDays: 120,
});
/** Noon UTC, `offset` days from `isoDate`. */
const at = (isoDate: string, offset: number) => new Date(Date.parse(`${isoDate}T12:00:00Z`) + offset * day);
const query = (sql: string, params: unknown[]) => app.runtime.deps.database.pool.query(sql, params);

async function approvedProvider(firstName: string, decidedAt: string) {
  const provider = await signUpAndSignIn(app, { firstName });
  const { applicationId } = await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
  });
  await query(
    `update provider_applications set application_status = 'approved', decided_at = $2 where id = $1`,
    [applicationId, decidedAt],
  );
  return { provider, applicationId };
}

describe('provider-reminders job', () => {
  it('reminds of recredentialing 180, 90 and 30 days before the due date, each once', async () => {
    // Approved Mar 10, 2024: due Mar 10, 2027 (36 months).
    const { provider } = await approvedProvider('Rosa', '2024-03-10T09:00:00Z');
    const due = '2027-03-10';
    const mails = () =>
      app.mail.filter((m) => m.to === provider.email && m.subject === 'Recredentialing due Mar 10, 2027');

    expect((await runProviderReminders(deps(), at(due, -200))).recorded).toBe(0);
    expect(mails()).toHaveLength(0);

    await runProviderReminders(deps(), at(due, -170));
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.text).toContain('(170 days left)');
    expect(mails()[0]!.text).toContain("press 'Start Recredentialing'");
    // The same day again, and later days under the same threshold: nothing new.
    expect(await runProviderReminders(deps(), at(due, -170))).toEqual({ recorded: 0, emailed: 0 });
    await runProviderReminders(deps(), at(due, -120));
    expect(mails()).toHaveLength(1);

    for (const [offset, count] of [
      [-85, 2],
      [-60, 2],
      [-25, 3],
      [10, 3],
    ] as const) {
      await runProviderReminders(deps(), at(due, offset));
      expect(mails()).toHaveLength(count);
    }
    expect(mails()[1]!.text).toContain('(85 days left)');
    expect(mails()[2]!.text).toContain('(25 days left)');
    const recorded = await query(
      `select threshold from provider_reminders where user_id = $1 and kind = 'recredentialing' order by created_at`,
      [provider.userId],
    );
    expect(recorded.rows.map((r) => r.threshold)).toEqual(['180', '90', '30']);
  });

  it('sends nothing once the provider has started the next cycle', async () => {
    const { provider } = await approvedProvider('Sami', '2024-05-02T09:00:00Z');
    const started = await provider.json('POST', '/api/applications', {});
    expect(started.status).toBe(201);
    await runProviderReminders(deps(), at('2027-05-02', -100));
    expect(
      app.mail.filter((m) => m.to === provider.email && m.subject.startsWith('Recredentialing')),
    ).toEqual([]);
  });

  it('asks for a new attestation once the one under review has aged past the validity, once', async () => {
    const { provider, applicationId } = await completedApplication(app);
    const mails = () =>
      app.mail.filter((m) => m.to === provider.email && m.subject === 'Please attest your application again');
    await runProviderReminders(deps(), new Date(Date.now() + 100 * day));
    expect(mails()).toHaveLength(0);
    await runProviderReminders(deps(), new Date(Date.now() + 121 * day));
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.text).toContain("press 'Attest Again'");
    await runProviderReminders(deps(), new Date(Date.now() + 122 * day));
    expect(mails()).toHaveLength(1);
    // A decided application is not asked.
    await query(
      `update provider_applications set application_status = 'approved', decided_at = now() where id = $1`,
      [applicationId],
    );
    await runProviderReminders(deps(), new Date(Date.now() + 400 * day));
    expect(mails()).toHaveLength(1);
  });

  it('retries a failed email on the next run and never sends one twice', async () => {
    const { provider } = await approvedProvider('Tariq', '2024-07-20T09:00:00Z');
    let down = true;
    const flaky: Mailer = {
      send: async (message) => {
        if (down) throw new Error('SMTP 421 service not available');
        await app.runtime.deps.mailer.send(message);
      },
    };
    const when = at('2027-07-20', -150);
    await expect(runProviderReminders(deps(flaky), when)).rejects.toThrow(/failed; retrying/);
    const mails = () =>
      app.mail.filter((m) => m.to === provider.email && m.subject.startsWith('Recredentialing'));
    expect(mails()).toHaveLength(0);
    down = false;
    const retried = await runProviderReminders(deps(flaky), when);
    expect(retried.recorded).toBe(0);
    expect(mails()).toHaveLength(1);
    await runProviderReminders(deps(flaky), when);
    expect(mails()).toHaveLength(1);
  });

  it('sends each reminder once when two runs overlap, one still sending', async () => {
    // Run A stops at its first of these reminders; run B (a second instance taking over a lease that
    // ended) runs meanwhile, and A goes on once B has sent one of them.
    const providers = [
      (await approvedProvider('Uma', '2024-09-05T09:00:00Z')).provider,
      (await approvedProvider('Vik', '2024-09-05T09:00:00Z')).provider,
    ];
    const ours = (message: MailMessage) => providers.some((p) => p.email === message.to);
    const sent: MailMessage[] = [];
    let pausedOnce = false;
    let paused!: () => void;
    const atPause = new Promise<void>((resolve) => (paused = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const mailerA: Mailer = {
      send: async (message) => {
        if (!pausedOnce && ours(message)) {
          pausedOnce = true;
          paused();
          await resumed;
        }
        sent.push(message);
      },
    };
    const mailerB: Mailer = {
      send: async (message) => {
        sent.push(message);
        if (ours(message)) resume();
      },
    };
    const when = at('2027-09-05', -150);
    const runA = runProviderReminders(deps(mailerA), when);
    await atPause;
    const runB = runProviderReminders(deps(mailerB), when);
    await resumed;
    await Promise.all([runA, runB]);
    expect(providers.map((p) => sent.filter((m) => m.to === p.email).length)).toEqual([1, 1]);
  });
});
