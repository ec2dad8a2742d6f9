/**
 * NPPES NPI Registry client (issue 15 "NPPES look-up"; API version 2.1,
 * https://npiregistry.cms.hhs.gov/api-page): `GET <NPPES_API_URL>?version=2.1&number=<npi>`.
 * Server-side only (the browser never calls CMS). Each request has 5 seconds; a timeout, network
 * error or 5xx is tried once more; answers are cached for a day per instance (the registry changes
 * slowly and a reviewer clicks more than once). `compareWithApplication` lists where the record and the
 * application disagree (name, state licenses, status).
 */

import type { NppesRecord } from '../../domain/api/nppes.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';

declare module '../app-types.ts' {
  interface AppDeps {
    /** The NPPES NPI Registry client (issue 15); runtime.ts makes it from NPPES_API_URL. */
    nppes: NppesClient;
  }
}

/** Time allowed to one NPPES request, ms (issue 15: 5 s). */
export const NPPES_TIMEOUT_MS = 5_000;
/** How long an answer is reused, ms (issue 15: a day). */
export const NPPES_CACHE_MS = 24 * 60 * 60 * 1000;

/** One fetched record: when, the raw answer (kept on the checklist item) and its reading. */
export interface NppesLookup {
  fetchedAt: Date;
  raw: unknown;
  record: NppesRecord;
}

export interface NppesClient {
  /**
   * The registry's record of `npi`, from the cache when fetched within a day of `now`.
   * @throws AppError not_found (no such NPI), service_unavailable (NPPES unreachable, slow or failing)
   */
  lookup(npi: string, now: Date): Promise<NppesLookup>;
}

interface RawResult {
  number?: string | number;
  enumeration_type?: string;
  basic?: {
    first_name?: string;
    last_name?: string;
    middle_name?: string;
    organization_name?: string;
    credential?: string;
    status?: string;
    enumeration_date?: string;
    last_updated?: string;
  };
  taxonomies?: {
    code?: string;
    desc?: string;
    primary?: boolean;
    state?: string | null;
    license?: string | null;
  }[];
  addresses?: {
    address_purpose?: string;
    address_1?: string;
    address_2?: string;
    city?: string;
    state?: string;
    postal_code?: string;
  }[];
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';

/** The review page's reading of one NPPES result. */
export function readNppesResult(result: RawResult): NppesRecord {
  const basic = result.basic ?? {};
  const name =
    text(basic.organization_name) ||
    [text(basic.first_name), text(basic.middle_name), text(basic.last_name)].filter(Boolean).join(' ');
  const location = (result.addresses ?? []).find((a) => a.address_purpose === 'LOCATION');
  const status = text(basic.status);
  return {
    npi: text(result.number),
    enumerationType: text(result.enumeration_type),
    name,
    credential: text(basic.credential) || null,
    status: status === 'A' ? 'Active' : status === 'D' ? 'Deactivated' : status || 'Unknown',
    enumerationDate: text(basic.enumeration_date) || null,
    lastUpdated: text(basic.last_updated) || null,
    taxonomies: (result.taxonomies ?? []).map((t) => ({
      code: text(t.code),
      description: text(t.desc),
      primary: t.primary === true,
      state: text(t.state) || null,
      license: text(t.license) || null,
    })),
    practiceLocation: location
      ? [
          text(location.address_1),
          text(location.address_2),
          text(location.city),
          text(location.state),
          text(location.postal_code).slice(0, 5),
        ]
          .filter(Boolean)
          .join(', ')
      : null,
  };
}

const normalise = (v: unknown) =>
  text(v)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

/**
 * Where the NPPES record and the application (its newest snapshot) disagree: the name (profile first
 * and last name against NPPES's), each state license NPPES lists that the application does not, and a
 * status other than active.
 */
export function compareWithApplication(
  record: NppesRecord,
  raw: RawResult,
  snapshot: ApplicationSnapshot,
): string[] {
  const mismatches: string[] = [];
  const first = text(snapshot.profile?.first_name);
  const last = text(snapshot.profile?.last_name);
  const basic = raw.basic ?? {};
  if (
    (first || last) &&
    !basic.organization_name &&
    (normalise(basic.first_name) !== normalise(first) || normalise(basic.last_name) !== normalise(last))
  ) {
    mismatches.push(`Name: NPPES has ${record.name}, the application ${`${first} ${last}`.trim()}`);
  }
  const licenses = new Set(
    (snapshot.lists?.licenses ?? []).map(
      (l) => `${normalise(l.issuing_state)}:${normalise(l.license_number)}`,
    ),
  );
  const numbers = new Set((snapshot.lists?.licenses ?? []).map((l) => normalise(l.license_number)));
  for (const t of record.taxonomies) {
    if (!t.license) continue;
    const key = `${normalise(t.state)}:${normalise(t.license)}`;
    if (!licenses.has(key) && !numbers.has(normalise(t.license))) {
      mismatches.push(
        `License: NPPES lists ${t.state ?? ''} ${t.license} (${t.description}), which is not in the application`.replace(
          /\s+/g,
          ' ',
        ),
      );
    }
  }
  if (record.status !== 'Active') mismatches.push(`Status: NPPES says ${record.status}, not Active`);
  return mismatches;
}

/** A client of the registry at `baseUrl` (NPPES_API_URL). */
export function createNppesClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  cacheMs?: number;
}): NppesClient {
  const timeoutMs = options.timeoutMs ?? NPPES_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? NPPES_CACHE_MS;
  const cache = new Map<string, NppesLookup>();
  const unreachable = () =>
    new AppError(
      'service_unavailable',
      `NPPES did not answer (tried twice, ${timeoutMs / 1000} s each). Try again in a few minutes, or look the NPI up on npiregistry.cms.hhs.gov and record the result by hand.`,
    );

  async function fetchOnce(npi: string): Promise<{ status: number; body: unknown }> {
    const url = new URL(options.baseUrl);
    url.searchParams.set('version', '2.1');
    url.searchParams.set('number', npi);
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = response.ok ? await response.json() : await response.text().catch(() => '');
    return { status: response.status, body };
  }

  return {
    async lookup(npi, now) {
      if (!/^\d{10}$/.test(npi)) {
        throw new AppError('validation_failed', 'The application has no 10-digit NPI to look up.');
      }
      const cached = cache.get(npi);
      if (cached && now.getTime() - cached.fetchedAt.getTime() < cacheMs) return cached;
      let answer: { status: number; body: unknown } | undefined;
      for (let attempt = 1; attempt <= 2 && !answer; attempt++) {
        try {
          const got = await fetchOnce(npi);
          if (got.status >= 500) continue;
          answer = got;
        } catch {
          // Timeout or network error: once more, then give up.
        }
      }
      if (!answer) throw unreachable();
      if (answer.status !== 200) throw unreachable();
      const body = answer.body as { result_count?: number; results?: RawResult[]; Errors?: unknown[] };
      const result = body.results?.[0];
      if (!result || !body.result_count) {
        throw new AppError(
          'not_found',
          `NPPES has no provider with the NPI ${npi}. Check the number with the provider.`,
        );
      }
      const lookup: NppesLookup = { fetchedAt: now, raw: result, record: readNppesResult(result) };
      cache.set(npi, lookup);
      return lookup;
    },
  };
}
