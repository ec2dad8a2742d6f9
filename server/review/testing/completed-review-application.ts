/**
 * Test fixture of the review's tests: a new provider whose application has every section (the
 * notification factory's data) and was completed through the API, so it is `submitted` with version 1.
 * The server's exclusion lists are loaded and current (an empty list of each source), so the file's
 * screening can be verified (issue 51 item 1), unless `exclusionLists: false`.
 */

import { expect } from 'vitest';
import { signUpAndSignIn, type TestApp } from '../../../tests/harness.ts';
import { signedAttestation } from '../../../tests/http-client.ts';
import { createCompletedApplication } from '../../notifications/testing/completed-application.ts';
import { loadCurrentExclusionLists } from '../../screening/testing/current-lists.ts';

export async function completedApplication(app: TestApp, options: { exclusionLists?: boolean } = {}) {
  if (options.exclusionLists !== false) await loadCurrentExclusionLists(app.runtime.deps.db);
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
  });
  const completed = await provider.json(
    'POST',
    `/api/applications/${created.body.id}/completion`,
    await signedAttestation(provider),
  );
  // 202 while the notification is queued (or no endpoint is set), 200 when it was delivered at once.
  expect([200, 202]).toContain(completed.status);
  return { provider, applicationId: created.body.id };
}
