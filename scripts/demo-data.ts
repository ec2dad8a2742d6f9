/**
 * Demo data through the real HTTP API (used by `npm run scan`): signs up and confirms a provider
 * (reading the confirmation link from the file outbox), starts an application and fills a few
 * sections. Prints `COOKIE=<session cookie>` and `APPLICATION_ID=<id>` for the scanners.
 *
 * Usage: tsx scripts/demo-data.ts <baseUrl> <dataDir>
 */
import { readOutbox } from '../server/mail/outbox.ts';

const [baseUrl = 'http://localhost:3000', dataDir = './data'] = process.argv.slice(2);
const origin = new URL(baseUrl).origin;
let cookie = '';

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      origin,
      ...(cookie ? { cookie } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const setCookie = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (setCookie.length > 0) cookie = setCookie.join('; ');
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, json };
}

async function main() {
  const email = `demo.${Date.now()}@example.test`;
  const password = 'scanner demo passphrase 2024!';
  await call('POST', '/api/auth/sign-up/email', {
    email,
    password,
    name: 'Demo Provider',
    firstName: 'Demo',
    lastName: 'Provider',
  });
  // The server sends mail in the background: wait (up to 10 s) for the file to appear.
  let link: string | undefined;
  for (let waited = 0; !link && waited < 10_000; waited += 50) {
    link = (await readOutbox(`${dataDir}/mail`)).find((m) => m.to.includes(email))?.links[0];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!link) throw new Error('no confirmation mail in the outbox');
  const verify = new URL(link);
  await call('GET', `${verify.pathname}${verify.search}`);
  cookie = '';
  const signIn = await call('POST', '/api/auth/sign-in/email', { email, password });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
  const application = (await call('POST', '/api/applications', {})).json as { id: string };
  const base = `/api/applications/${application.id}/sections`;
  await call('PUT', `${base}/personal-information`, {
    providerType: 'MD',
    ssn: '123-45-6789',
    npiNumber: '1234567893',
    city: 'Boston',
  });
  await call('POST', `${base}/payors`, { payorName: 'Aetna', credentialingStatus: 'pending' });
  await call('POST', `${base}/peer-references`, {
    referenceName: 'Dr. Ref',
    email: 'ref@example.test',
    yearsKnown: 5,
  });
  console.log(`COOKIE=${cookie}`);
  console.log(`APPLICATION_ID=${application.id}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
