/**
 * Issue 20 over real HTTP, with the real local test receiver and a fresh PostgreSQL database per app:
 *
 * - `links` mode: each document carries a signed `downloadUrl` and `base64Content: null`; the URL
 *   downloads exactly that document without a session within its TTL, every fetch audited; expired,
 *   altered and other-document tokens get 403 with no-store; the token never reaches the log.
 * - 404 is retried within NOTIFY_RETRY_NOT_FOUND_MINUTES of the first attempt, then final.
 * - A 5xx to a body over 16 MiB says the receiver's body limit is the likely cause (admin view, log);
 *   a body refused here as too large is logged at warn with the reason.
 */

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminNotification, documentFetchState } from '../../domain/api/notifications.ts';
import {
  type Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  type TestApp,
} from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { markUnfetchedDigested, unfetchedDigestText } from './document-fetches.ts';
import { createCompletedApplication, FACTORY_SSN } from './testing/completed-application.ts';
import { type JsonSchema, validateJsonSchema } from './testing/json-schema.ts';
import { type ReceivedRequest, WebhookReceiver, waitUntil } from './testing/webhook-receiver.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const payloadSchema = JSON.parse(
  fs.readFileSync(new URL('../../docs/completion-payload.schema.json', import.meta.url), 'utf8'),
) as JsonSchema;

const fastRetries = {
  NOTIFY_WEBHOOK_SECRET: SECRET,
  NOTIFY_TIMEOUT_MS: '5000',
  NOTIFY_RETRY_BASE_MS: '100',
  NOTIFY_RETRY_MAX_MS: '300',
  NOTIFY_POLL_INTERVAL_MS: '100',
  NOTIFY_MAX_ATTEMPTS: '10',
};

interface SentDocument {
  id: string;
  sha256: string;
  file_size: number;
  downloadUrl?: string;
  base64Content: string | null;
}

let receiver: WebhookReceiver;
let links: TestApp;

beforeAll(async () => {
  receiver = new WebhookReceiver({ secret: SECRET });
  await receiver.listen();
  links = await createTestApp({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_DOCUMENTS: 'links',
    // NOTIFY_LINK_TTL_MINUTES is left at its default (60 minutes, issue 28 item 10).
    ...fastRetries,
  });
});
afterAll(async () => {
  await links?.close();
  await receiver?.close();
});

async function providerWithCompleteApplication(target: TestApp, documentSizes?: number[]) {
  const provider = await signUpAndSignIn(target);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  const filled = await createCompletedApplication({
    ...target.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
    documentSizes,
  });
  return { provider, ...filled };
}

async function complete(client: Client, applicationId: string) {
  return client.json<{ status: string; lastError: string | null }>(
    'POST',
    `/api/applications/${applicationId}/completion`,
    await signedAttestation(client),
  );
}

function requestsFor(applicationId: string): ReceivedRequest[] {
  return receiver.requests.filter((r) => r.body?.toString().includes(applicationId));
}

async function notificationOf(target: TestApp, applicationId: string) {
  const result = await target.runtime.deps.database.pool.query<{
    id: string;
    status: string;
    attempts: number;
    last_error: string | null;
  }>('select id, status, attempts, last_error from completion_notifications where application_id = $1', [
    applicationId,
  ]);
  return result.rows[0]!;
}

/** GET an absolute downloadUrl (its origin is APP_URL) from the test app, with no cookie at all. */
function fetchLink(target: TestApp, downloadUrl: string) {
  const url = new URL(downloadUrl);
  return fetch(`${target.baseUrl}${url.pathname}${url.search}`);
}

async function fetchedAudits(target: TestApp, documentId: string) {
  const result = await target.runtime.deps.database.pool.query<{
    actor_user_id: string | null;
    subject_user_id: string | null;
    ip_address: string | null;
    details: Record<string, unknown>;
  }>(
    `select actor_user_id, subject_user_id, ip_address, details from audit_log
     where action = 'notification.document_fetched' and resource_id = $1`,
    [documentId],
  );
  return result.rows;
}

describe('NOTIFY_DOCUMENTS=links', () => {
  it('sends a signed downloadUrl per document that fetches exactly that document, audited', async () => {
    // First, Alice completes her application with two documents.
    const {
      provider: alice,
      applicationId,
      documents,
    } = await providerWithCompleteApplication(links, [200_001, 40_000]);
    const response = await complete(alice, applicationId);
    expect(response.status).toBe(200);

    // The receiver got a verified message whose documents carry links, not bytes.
    const [request] = requestsFor(applicationId);
    expect(request?.verified).toBe(true);
    const payload = JSON.parse(request!.body!.toString('utf8'));
    expect(validateJsonSchema(payload, payloadSchema)).toEqual([]);
    const sent = payload.documents as SentDocument[];
    expect(sent).toHaveLength(2);
    const timestamp = Number(request!.headers['webhook-timestamp']);
    for (const document of sent) {
      expect(document.base64Content).toBeNull();
      const url = new URL(document.downloadUrl!);
      // The public base URL (APP_URL) and the token's expiry: this attempt + NOTIFY_LINK_TTL_MINUTES,
      // 60 minutes by default.
      expect(url.origin).toBe('http://localhost:3000');
      expect(url.pathname).toMatch(
        new RegExp(`^/api/notification-documents/${document.id}/${timestamp + 3600}\\.`),
      );
    }

    // Second, the workflow fetches each link without a session: the stored bytes, byte-exact.
    for (const stored of documents) {
      const link = sent.find((d) => d.id === stored.id)!.downloadUrl!;
      const download = await fetchLink(links, link);
      expect(download.status).toBe(200);
      expect(download.headers.get('cache-control')).toBe('no-store');
      expect(download.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.length).toBe(stored.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(stored.sha256);
      // Every fetch is audited: no actor (no session), the provider as subject, and the address that
      // fetched it (whoever holds a link can use it, so the address is what tells fetches apart).
      const audits = await fetchedAudits(links, stored.id);
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        actor_user_id: null,
        subject_user_id: alice.userId,
        ip_address: '127.0.0.1',
      });
    }
    // A second fetch of the same link works too (within the TTL), and is audited again.
    const again = await fetchLink(links, sent[0]!.downloadUrl!);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(await fetchedAudits(links, sent[0]!.id)).toHaveLength(2);

    // The token is a capability: it never appears in the log, and neither does the SSN.
    const logs = links.logs.join('\n');
    for (const document of sent) {
      const token = new URL(document.downloadUrl!).pathname.split('/').pop()!;
      expect(logs).not.toContain(token.split('.')[1]);
    }
    expect(logs).toContain('/api/notification-documents/');
    expect(logs).not.toContain(FACTORY_SSN);
  });

  it("says 'documents fetched' only once every link was fetched whole, and the digest lists a send whose links expired unfetched", async () => {
    const admin = await signUpAndSignIn(links);
    await grantAdmin(links, admin);
    const sendOf = async (applicationId: string) => {
      const listed = await admin.json<{ notifications: AdminNotification[] }>(
        'GET',
        '/api/admin/notifications',
      );
      return listed.body.notifications.find((n) => n.applicationId === applicationId)!.sends.at(-1)!;
    };
    // Carla's two documents go out as links; the receiver answers 200 and has fetched nothing yet.
    const { provider: carla, applicationId } = await providerWithCompleteApplication(links, [30_000, 20_000]);
    expect((await complete(carla, applicationId)).status).toBe(200);
    const sent = JSON.parse(requestsFor(applicationId)[0]!.body!.toString('utf8'))
      .documents as SentDocument[];
    const before = await sendOf(applicationId);
    expect(before).toMatchObject({ result: 'delivered', documents: { offered: 2, fetched: 0 } });
    expect(Date.parse(before.documents!.linksExpireAt)).toBe(
      (Number(requestsFor(applicationId)[0]!.headers['webhook-timestamp']) + 3600) * 1000,
    );
    expect(documentFetchState(before, Date.now())).toBe('waiting');

    // One fetched: still waiting. Both: 'fetched'.
    await (await fetchLink(links, sent[0]!.downloadUrl!)).arrayBuffer();
    await waitUntil(async () => (await sendOf(applicationId)).documents?.fetched === 1, 5_000, 'one fetch');
    expect(documentFetchState(await sendOf(applicationId), Date.now())).toBe('waiting');
    await (await fetchLink(links, sent[1]!.downloadUrl!)).arrayBuffer();
    await waitUntil(
      async () => (await sendOf(applicationId)).documents?.fetched === 2,
      5_000,
      'both fetched',
    );
    expect(documentFetchState(await sendOf(applicationId), Date.now())).toBe('fetched');

    // Dmitri's links are never fetched: once they expire the send is 'not fetched', and the digest
    // lists it once; Carla's (fetched) is never listed.
    const { provider: dmitri, applicationId: second } = await providerWithCompleteApplication(
      links,
      [10_000],
    );
    expect((await complete(dmitri, second)).status).toBe(200);
    const unfetched = await sendOf(second);
    const afterExpiry = Date.parse(unfetched.documents!.linksExpireAt) + 1_000;
    expect(documentFetchState(unfetched, afterExpiry)).toBe('not_fetched');
    const { db } = links.runtime.deps;
    expect(
      await markUnfetchedDigested(db, new Date(Date.parse(unfetched.documents!.linksExpireAt) - 1_000)),
    ).toBe(0);
    expect(await markUnfetchedDigested(db, new Date(afterExpiry))).toBe(1);
    expect(await markUnfetchedDigested(db, new Date(afterExpiry))).toBe(0);
    expect(unfetchedDigestText(1)).toContain("use 'Re-send' to send new links");
  });

  it('answers 403 (no-store, nothing audited) to expired, altered and other-document tokens', async () => {
    const { provider, applicationId, documents } = await providerWithCompleteApplication(links, [1000, 2000]);
    await complete(provider, applicationId);
    const payload = JSON.parse(requestsFor(applicationId)[0]!.body!.toString('utf8'));
    const [first, second] = payload.documents as SentDocument[];
    const firstPath = new URL(first!.downloadUrl!).pathname;
    const secondToken = new URL(second!.downloadUrl!).pathname.split('/').pop()!;
    const [expires, mac] = firstPath.split('/').pop()!.split('.') as [string, string];
    const base = `/api/notification-documents/${first!.id}`;
    const flipped = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const documentLinks = links.runtime.deps.completionDelivery.documentLinks;

    const refused = {
      // Signed by this server for this document, but its expiry has passed.
      expired: new URL(documentLinks.mint(first!.id, Math.floor(Date.now() / 1000) - 1)).pathname,
      // One character of the MAC changed; the expiry pushed later with the old MAC.
      alteredMac: `${base}/${expires}.${flipped}`,
      alteredExpiry: `${base}/${Number(expires) + 3600}.${mac}`,
      // The other document's valid token on this document's path, and this one's on another document.
      otherDocument: `${base}/${secondToken}`,
      unknownDocument: `/api/notification-documents/${crypto.randomUUID()}/${expires}.${mac}`,
      malformed: `${base}/not-a-token`,
      empty: `${base}/${expires}.`,
    };
    for (const [what, path] of Object.entries(refused)) {
      const answer = await fetch(`${links.baseUrl}${path}`);
      expect({ what, status: answer.status }).toEqual({ what, status: 403 });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect((await answer.json()) as { code: string }).toMatchObject({ code: 'forbidden' });
    }
    // A session grants nothing either: the owner's own cookie with a forged token is refused.
    expect((await provider.request('GET', refused.alteredMac)).status).toBe(403);
    for (const document of documents) expect(await fetchedAudits(links, document.id)).toHaveLength(0);

    // The untouched link still works.
    const ok = await fetch(`${links.baseUrl}${firstPath}`);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });
});

describe('404 and 410 while the workflow restarts or is unpublished', () => {
  it('retries a 404 within NOTIFY_RETRY_NOT_FOUND_MINUTES, then delivers', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication(links);
    receiver.answers = [404, 410, 404];
    const response = await complete(provider, applicationId);
    expect(response.status).toBe(202);
    expect(response.body.status).toBe('pending');
    expect(response.body.lastError).toContain('NOTIFY_RETRY_NOT_FOUND_MINUTES');
    await links.runtime.deps.completionDelivery.kick();
    await waitUntil(
      async () => (await notificationOf(links, applicationId)).status === 'delivered',
      10_000,
      'the notification to be delivered after the 404s',
    );
    expect((await notificationOf(links, applicationId)).attempts).toBe(4);
  });

  it('fails a 404 that comes after the window, measured from the first attempt', async () => {
    const { provider, applicationId } = await providerWithCompleteApplication(links);
    // The first attempt gets a 404 (retried); the receiver holds the second attempt's 404 until the
    // first attempt is made to look 31 minutes old (the second stays recent).
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.answers = [404, { status: 404, until: held }];
    const first = await complete(provider, applicationId);
    expect(first.body.status).toBe('pending');
    await links.runtime.deps.completionDelivery.kick();
    await waitUntil(() => requestsFor(applicationId).length === 2, 10_000, 'the second attempt');
    await links.runtime.deps.database.pool.query(
      `update notification_attempts set attempted_at = now() - interval '31 minutes'
       where id = (select min(a.id) from notification_attempts a
                   join completion_notifications n on n.id = a.notification_id where n.application_id = $1)`,
      [applicationId],
    );
    release();
    await waitUntil(
      async () => (await notificationOf(links, applicationId)).status === 'failed',
      10_000,
      'the notification to fail',
    );
    const row = await notificationOf(links, applicationId);
    expect(row.attempts).toBe(2);
    expect(row.last_error).toBe(
      'The receiver answered HTTP 404 for more than 30 min (NOTIFY_RETRY_NOT_FOUND_MINUTES): check that the workflow is published and NOTIFY_WEBHOOK_URL is its production URL',
    );
  });
});

describe('size', () => {
  it('says the receiver body limit is the likely cause when a 5xx answers a body over 16 MiB', async () => {
    const big = await createTestApp({
      NOTIFY_WEBHOOK_URL: receiver.url,
      ...fastRetries,
      NOTIFY_MAX_ATTEMPTS: '1',
      NOTIFY_MAX_PAYLOAD_BYTES: String(64 * 1024 * 1024),
    });
    try {
      // Two 6.5 MB documents: about 17.4 MB of base64, over n8n's default 16 MiB.
      const { provider, applicationId } = await providerWithCompleteApplication(big, [6_500_000, 6_500_000]);
      receiver.answers = [500];
      const response = await complete(provider, applicationId);
      expect(response.body.status).toBe('failed');
      const [request] = receiver.requests.filter((r) => r.bytes > 16 * 1024 * 1024);
      expect(request).toBeDefined();
      const row = await notificationOf(big, applicationId);
      expect(row.last_error).toContain('The receiver answered HTTP 500');
      expect(row.last_error).toContain(
        `the body was ${request!.bytes} bytes, more than 16 MiB: the receiver's body limit is the likely cause (n8n: N8N_PAYLOAD_SIZE_MAX, 16 MiB by default)`,
      );
      // Admins see it in GET /api/admin/notifications (lastError and the attempt's error).
      const admin = await signUpAndSignIn(big);
      await grantAdmin(big, admin);
      const list = await admin.json<{
        notifications: { id: string; lastError: string; attemptLog: { error: string }[] }[];
      }>('GET', '/api/admin/notifications');
      const view = list.body.notifications.find((n) => n.id === row.id)!;
      expect(view.lastError).toContain('N8N_PAYLOAD_SIZE_MAX');
      expect(view.attemptLog[0]!.error).toContain('N8N_PAYLOAD_SIZE_MAX');
      // And the log says so at warn (40), sizes only.
      const warning = big.logs
        .map((line) => JSON.parse(line) as { level: number; msg: string; bodyBytes?: number })
        .find((line) => line.msg.includes('N8N_PAYLOAD_SIZE_MAX'));
      expect(warning).toMatchObject({ level: 40, bodyBytes: request!.bytes });

      // The same answer to a small body gives no such hint.
      const small = await providerWithCompleteApplication(big, [1000]);
      receiver.answers = [500];
      await complete(small.provider, small.applicationId);
      expect((await notificationOf(big, small.applicationId)).last_error).toBe(
        'Gave up after 1 attempts. Last error: The receiver answered HTTP 500',
      );
    } finally {
      await big.close();
    }
  });

  it('logs at warn why a body too large to send was refused, without PHI', async () => {
    const tight = await createTestApp({
      NOTIFY_WEBHOOK_URL: receiver.url,
      ...fastRetries,
      NOTIFY_MAX_PAYLOAD_BYTES: '4096',
    });
    try {
      const { provider, applicationId } = await providerWithCompleteApplication(tight, [40_000]);
      const before = receiver.requests.length;
      const response = await complete(provider, applicationId);
      expect(response.body.status).toBe('failed');
      expect(response.body.lastError).toContain('NOTIFY_DOCUMENTS=links');
      expect(receiver.requests.length).toBe(before);
      const lines = tight.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      const warning = lines.find((line) => String(line.msg).startsWith('completion notification refused'));
      expect(warning).toMatchObject({ level: 40, limitBytes: 4096, documents: 1, documentsMode: 'inline' });
      expect(tight.logs.join('\n')).not.toContain(FACTORY_SSN);
    } finally {
      await tight.close();
    }
  });
});
