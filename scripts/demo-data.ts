/**
 * Demo data through the real HTTP API (used by `npm run scan`): signs up and confirms a provider
 * (reading the confirmation link from the file outbox), starts an application and fills a few
 * sections. Prints `COOKIE=<session cookie>` and `APPLICATION_ID=<id>` for the scanners.
 *
 * Usage: tsx scripts/demo-data.ts <baseUrl> <dataDir>
 */
import path from 'node:path';
import { HttpClient, linkFromOutbox, signUpConfirmSignIn } from '../tests/http-client.ts';

const [baseUrl = 'http://localhost:3000', dataDir = './data'] = process.argv.slice(2);

/** Send one JSON request and fail on an error status: the scanners need every row in place. */
async function send(client: HttpClient, method: string, urlPath: string, body: unknown): Promise<unknown> {
  const response = await client.json(method, urlPath, body);
  if (response.status >= 400) {
    throw new Error(`${method} ${urlPath} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

async function main() {
  const client = new HttpClient({ baseUrl });
  await signUpConfirmSignIn(
    client,
    {
      email: `demo.${Date.now()}@example.test`,
      password: 'scanner demo passphrase 2024!',
      firstName: 'Demo',
      lastName: 'Provider',
    },
    // The server writes the mail in the background, after answering the sign-up.
    linkFromOutbox(path.join(dataDir, 'mail')),
  );
  const application = (await send(client, 'POST', '/api/applications', {})) as { id: string };
  const base = `/api/applications/${application.id}/sections`;
  await send(client, 'PUT', `${base}/personal-information`, {
    providerType: 'MD',
    ssn: '123-45-6789',
    npiNumber: '1234567893',
    city: 'Boston',
  });
  await send(client, 'POST', `${base}/payors`, { payorName: 'Aetna', credentialingStatus: 'pending' });
  await send(client, 'POST', `${base}/peer-references`, {
    referenceName: 'Dr. Ref',
    email: 'ref@example.test',
    yearsKnown: 5,
  });
  console.log(`COOKIE=${client.cookie}`);
  console.log(`APPLICATION_ID=${application.id}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
