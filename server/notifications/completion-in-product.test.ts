/**
 * The completion is delivered to the credentialing team inside the product (issue 51 item 6), real
 * PostgreSQL and HTTP, mail captured as sent: with no webhook configured the provider's completion
 * is recorded (a 2xx: the provider's 'Success' and 'Completed ✓', web/features/dashboard/completion-slot.tsx),
 * the application is on the 'Review Queue', and each staff member who reviews files (administrators
 * and credentialing specialists, `review:application:any`) gets one email, naming no provider; the
 * webhook's state ('no endpoint configured') stays on the staff's 'Notifications' tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { completionSuite } from './testing/completion-suite.ts';
import type { WebhookReceiver } from './testing/webhook-receiver.ts';

let app: TestApp;

beforeAll(async () => {
  // No NOTIFY_WEBHOOK_URL: the product alone delivers the completion.
  app = await createTestApp();
}, 60_000);
afterAll(async () => {
  await app?.close();
});

// The receiver is never started: nothing may be sent to it.
const { providerWithCompleteApplication, complete } = completionSuite(() => ({
  app,
  receiver: undefined as unknown as WebhookReceiver,
}));

const SUBJECT = "A completed credentialing application is on the 'Review Queue'";

describe('the completion delivered inside the product (issue 51 item 6)', () => {
  it('puts the application on the Review Queue and emails the staff who review files, with no webhook configured', async () => {
    // First, the credentialing team: an administrator, a specialist, and a medical director (who
    // decides files but does not review them).
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const specialist = await signUpStaff(app, 'specialist');
    const director = await signUpStaff(app, 'medical_director');
    // Second, Priya completes her application; she is also a specialist, and is not told of her own file.
    const { provider: priya, applicationId } = await providerWithCompleteApplication(app);
    await app.runtime.deps.database.pool.query(
      `insert into staff_roles (user_id, role) values ($1, 'specialist')`,
      [priya.userId],
    );
    const me = await priya.json<{ profile: { firstName: string; lastName: string } }>('GET', '/api/me');
    const before = app.mail.length;
    const response = await complete(priya, applicationId);

    // The product accepted the completion: a 2xx, the provider's 'Success'.
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);

    // Each staff member who reviews files is told once, with a link to the file; nobody else.
    const sent = app.mail.slice(before).filter((m) => m.subject === SUBJECT);
    expect(sent.map((m) => m.to).sort()).toEqual([admin.email, specialist.email].sort());
    expect(sent.map((m) => m.to)).not.toContain(director.email);
    expect(sent.map((m) => m.to)).not.toContain(priya.email);
    for (const mail of sent) {
      expect(mail.text).toContain(`/admin/applications/${applicationId}`);
      expect(mail.text).not.toContain(me.body.profile.lastName);
    }

    // The application is on the Review Queue.
    const queue = await specialist.json<{ items: { applicationId: string }[] }>(
      'GET',
      '/api/admin/review-queue',
    );
    expect(queue.body.items.map((i) => i.applicationId)).toContain(applicationId);

    // The webhook's own state is the staff's: 'no endpoint configured' on the Notifications tab.
    const list = await admin.json<{
      notifications: { applicationId: string; status: string; lastError: string }[];
    }>('GET', '/api/admin/notifications');
    expect(list.body.notifications.find((n) => n.applicationId === applicationId)).toMatchObject({
      status: 'undelivered',
      lastError: 'no endpoint configured',
    });

    // Asking again about the recorded completion tells nobody twice.
    const again = await priya.json('POST', `/api/applications/${applicationId}/completion`);
    expect(again.status).toBeLessThan(300);
    expect(app.mail.slice(before).filter((m) => m.subject === SUBJECT)).toHaveLength(2);
  }, 60_000);
});
