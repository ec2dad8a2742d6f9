/**
 * A decision carries its signature (issue 50 item 7), real PostgreSQL and HTTP: an administrator keeps
 * the organization's name, address and letter signer ('Settings'); the medical director's approval
 * letter then carries them and names the director; the review page and the File Summary name who
 * decided and when. Only administrators keep the settings; a name is one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview, ProviderReview } from '../../domain/api/review.ts';
import type { OrganizationSettings } from '../../domain/api/settings.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { approveCleanFile, reviewedFile } from '../committee/testing/decide.ts';
import { pdfText } from '../pdf/pdf-text.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('organization settings and signed letters', () => {
  it('puts the organization and the signer on the letters, and names the decider everywhere', async () => {
    const admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
    await grantAdmin(app, admin);
    const specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
    expect((await specialist.json('GET', '/api/admin/settings')).status).toBe(403);
    expect((await admin.json<OrganizationSettings>('GET', '/api/admin/settings')).body).toEqual({
      organizationName: '',
      address: '',
      signerName: '',
      signerTitle: '',
    });
    const bad = await admin.json<{ issues: { message: string }[] }>('PUT', '/api/admin/settings', {
      organizationName: 'Lakeside\nHealth',
      address: '',
      signerName: '',
      signerTitle: '',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i) => i.message)).toContain(
      'Organization name must be on one line, without tabs or control characters',
    );
    const settings = {
      organizationName: 'Lakeside Health Network',
      address: '100 Shore Drive\nChicago, IL 60601',
      signerName: 'Dana Whitfield',
      signerTitle: 'Director of Credentialing',
    };
    expect((await admin.json('PUT', '/api/admin/settings', settings)).status).toBe(200);
    const changed = await app.runtime.deps.database.pool.query<{ details: { fields: string } }>(
      `select details from audit_log where action = 'settings.changed'`,
    );
    expect(changed.rows[0]?.details.fields).toBe('organizationName,address,signerName,signerTitle');

    // The medical director approves a clean file: the letter names the director and carries it all.
    const { provider, applicationId } = await reviewedFile(app, specialist);
    const director = await approveCleanFile(app, specialist, applicationId);
    const me = (await director.json<{ profile: { firstName: string; lastName: string } }>('GET', '/api/me'))
      .body;
    const directorName = `${me.profile.firstName} ${me.profile.lastName}`;
    const review = await provider.json<ProviderReview>('GET', `/api/applications/${applicationId}/review`);
    const letter = await provider.request(
      'GET',
      `/api/applications/${applicationId}/letters/${review.body.letters[0]!.letterId}`,
    );
    const text = flat(await pdfText(new Uint8Array(await letter.arrayBuffer())));
    for (const expected of [
      'Lakeside Health Network 100 Shore Drive Chicago, IL 60601',
      `The Medical Director, ${directorName}, approved your credentialing application on`,
      'Sincerely, Dana Whitfield Director of Credentialing Lakeside Health Network',
    ]) {
      expect(text).toContain(expected);
    }
    // The review page and the File Summary say who decided and when.
    const staffView = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
    expect(staffView.body.decision).toMatchObject({
      by: 'medical_director',
      signedBy: directorName,
      decidedAt: expect.any(String),
    });
    const summary = await admin.request('GET', `/api/admin/applications/${applicationId}/file-summary.pdf`);
    expect(flat(await pdfText(new Uint8Array(await summary.arrayBuffer())))).toContain(
      `Decided by the Medical Director (clean file): ${directorName}`,
    );
  }, 120_000);
});
