/**
 * The FHIR tests' shared start (fhir.routes.test.ts, fhir-protocol.test.ts): a test app whose directory
 * holds one practitioner (a complete file reviewed, verified and approved through the product) and a
 * payer's client token for every FHIR type, and a `fetch` of the FHIR API with that token.
 */
import type { Resource } from '@medplum/fhirtypes';
import { type Client, createTestApp, signUpStaff, type TestApp } from '../../../tests/harness.ts';
import { clientWithToken } from '../../api-clients/testing.ts';
import { approveCleanFile, reviewedFile } from '../../committee/testing/decide.ts';

/** The started app, its one approved provider and a `system/*.read` token. */
export interface DirectoryApp {
  app: TestApp;
  provider: Client & { userId: string };
  token: string;
}

/** Start the app and approve one provider's file; the caller closes `app`. */
export async function startDirectoryApp(): Promise<DirectoryApp> {
  const app = await createTestApp();
  // First, a specialist reviews and verifies a complete application; the medical director approves it.
  const specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam' });
  const reviewed = await reviewedFile(app, specialist);
  await approveCleanFile(app, specialist, reviewed.applicationId);
  // Then a payer's client is registered and gets a token for every FHIR type.
  const token = (await clientWithToken(app, ['system/*.read'])).accessToken;
  return { app, provider: reviewed.provider as Client & { userId: string }, token };
}

/** One request to the FHIR API: `token` undefined sends the directory's token, null none. */
export interface FhirRequest {
  token?: string | null;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A FHIR fetch against `directory()`'s app with its token (read when called, after beforeAll). */
export function fhirFetcher(directory: () => DirectoryApp) {
  return async function fhir<T = Resource>(
    path: string,
    options: FhirRequest = {},
  ): Promise<{ status: number; headers: Headers; body: T }> {
    const { app, token } = directory();
    const bearer = options.token === undefined ? token : options.token;
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...options.headers },
      body: options.body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : undefined) as T,
    };
  };
}
