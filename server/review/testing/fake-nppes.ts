/**
 * A local fake of the NPI Registry (NPPES API 2.1) for the tests of nppes.ts and 'Check NPPES': the
 * registry's answers for an individual (NPI-1) and an organization (NPI-2), and a server on
 * 127.0.0.1 that answers from a script of replies (no network).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An NPPES 2.1 answer for one individual provider (shape as the registry returns it). */
export function registryAnswer(
  npi: string,
  person: { first: string; last: string; middle?: string },
  license = { state: 'IL', number: 'MD-1' },
) {
  return {
    result_count: 1,
    results: [
      {
        created_epoch: '1176249600000',
        enumeration_type: 'NPI-1',
        last_updated_epoch: '1700000000000',
        number: npi,
        addresses: [
          {
            country_code: 'US',
            address_purpose: 'LOCATION',
            address_type: 'DOM',
            address_1: '1200 BAYSHORE BLVD',
            city: 'TAMPA',
            state: 'FL',
            postal_code: '336061234',
            telephone_number: '813-555-0142',
          },
          {
            address_purpose: 'MAILING',
            address_1: 'PO BOX 1',
            city: 'TAMPA',
            state: 'FL',
            postal_code: '33601',
          },
        ],
        basic: {
          first_name: person.first.toUpperCase(),
          last_name: person.last.toUpperCase(),
          ...(person.middle ? { middle_name: person.middle.toUpperCase() } : {}),
          credential: 'M.D.',
          sole_proprietor: 'NO',
          gender: 'F',
          enumeration_date: '2007-04-11',
          last_updated: '2023-11-14',
          status: 'A',
        },
        taxonomies: [
          {
            code: '207R00000X',
            taxonomy_group: '',
            desc: 'Internal Medicine',
            state: license.state,
            license: license.number,
            primary: true,
          },
        ],
        identifiers: [],
        endpoints: [],
        other_names: [] as Record<string, string>[],
        practiceLocations: [] as Record<string, string>[],
      },
    ],
  };
}

/** An NPPES 2.1 answer for an organization (NPI-2). */
export function organizationAnswer(npi: string) {
  return {
    result_count: 1,
    results: [
      {
        enumeration_type: 'NPI-2',
        number: npi,
        addresses: [
          {
            address_purpose: 'LOCATION',
            address_1: '4 HARBOR WAY',
            city: 'TAMPA',
            state: 'FL',
            postal_code: '33602',
          },
        ],
        basic: {
          organization_name: 'BAYSHORE MEDICAL GROUP LLC',
          organizational_subpart: 'NO',
          enumeration_date: '2009-02-02',
          last_updated: '2024-01-05',
          status: 'A',
          authorized_official_first_name: 'JANE',
          authorized_official_last_name: 'DOE',
        },
        taxonomies: [],
        other_names: [],
        practiceLocations: [],
      },
    ],
  };
}

/** One scripted answer of the fake registry. */
export type Reply = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** Answers `body` as JSON with `status`. */
export const json =
  (body: unknown, status = 200): Reply =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
/** The fake registry: where it listens, and what it was asked. */
export interface FakeNppes {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The API's base URL, as NPPES_API_URL names it: `<origin>/api/`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the fake registry. Each request's URL is pushed to `requests`; it is answered by the next
 * reply of `script`, or with no result when the script is empty. A request for `/internal...` (the
 * internal address a redirect may point at) answers a record: were a redirect followed, the client
 * would read it.
 */
export async function startFakeNppes(script: Reply[], requests: string[]): Promise<FakeNppes> {
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url?.startsWith('/internal')) {
      // The internal address a redirect points at: were it followed, this would be read as the record.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(registryAnswer('1234567893', { first: 'Internal', last: 'Secret' })));
      return;
    }
    const next = script.shift() ?? json({ result_count: 0, results: [] });
    next(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/api/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
