/**
 * NPPES NPI Registry client (issue 15 "NPPES look-up"; API version 2.1,
 * https://npiregistry.cms.hhs.gov/api-page): `GET <NPPES_API_URL>?version=2.1&number=<npi>`.
 * Server-side only (the browser never calls CMS).
 *
 * How an answer is read (issue 30 item 6):
 * - `{"Errors":[{"description":…}]}` (the registry answers its errors with HTTP 200) is the registry's
 *   own message, a 502; `result_count: 0` is "no provider with the NPI", a 404.
 * - An answer that is not JSON (an HTML error page, whatever its status) is "NPPES answered with an
 *   error page (HTTP N)", a 502.
 * - The record's `number` must be the NPI asked for, else a 502.
 * - No redirect is followed (a 3xx is a 502): the registry's address is configuration, and a redirect
 *   to an internal address must not put that address's answer on the review page.
 * - At most 1 MB of body is read (streamed, then the connection is dropped), and the lookup,
 *   bodies and retry included, has 5 s: a failure is answered within 5 s with its reason (issue 54
 *   item 5; it took 10 s when each of two attempts had 5 s).
 * - A network error or a 5xx is tried once more if at least 1 s of the 5 is left; a timeout has
 *   used them all. Nothing else is retried.
 * - Only a record is cached (a day per instance: the registry changes slowly and a reviewer clicks
 *   more than once); a refusal, an error or "not found" is asked again next time.
 *
 * `compareWithApplication` lists where the record and the application disagree (an organization's
 * NPI, name, state licenses, status).
 */

import type { NppesRecord } from '../../domain/api/nppes.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import { normaliseName } from '../../domain/screening/matching.ts';

declare module '../app-types.ts' {
  interface AppDeps {
    /** The NPPES NPI Registry client (issue 15); runtime.ts makes it from NPPES_API_URL. */
    nppes: NppesClient;
  }
}

/** Time allowed to one lookup, bodies and retry included, ms (issue 15, issue 30 item 6, issue 54 item 5: 5 s). */
export const NPPES_TIMEOUT_MS = 5_000;
/** The least time left in which a failed attempt is tried again: a fifth of the lookup's (1 s of 5). */
const RETRY_SHARE = 5;
/** How long a record is reused, ms (issue 15: a day). */
export const NPPES_CACHE_MS = 24 * 60 * 60 * 1000;
/** The most of an NPPES answer that is read, bytes (issue 30 item 6: 1 MB; a record is a few kB). */
export const NPPES_MAX_BODY_BYTES = 1024 * 1024;

/** The mismatch an organization's NPI on an individual's application makes (issue 30 item 6). */
export const NPPES_ORGANIZATION_MISMATCH = 'This NPI belongs to an organization';

/** One fetched record: when, the raw answer (kept on the checklist item) and its reading. */
export interface NppesLookup {
  fetchedAt: Date;
  raw: unknown;
  record: NppesRecord;
}

export interface NppesClient {
  /**
   * The registry's record of `npi`, from the cache when fetched within a day of `now`.
   * @throws AppError validation_failed (not 10 digits), not_found (NPPES has no such NPI),
   *   bad_gateway (NPPES answered with an error, an error page, a redirect, more than 1 MB or another
   *   NPI's record), service_unavailable (NPPES unreachable, slow or failing, after one retry)
   */
  lookup(npi: string, now: Date): Promise<NppesLookup>;
}

interface RawName {
  first_name?: string;
  last_name?: string;
  middle_name?: string;
  organization_name?: string;
}

interface RawAddress {
  address_purpose?: string;
  address_1?: string;
  address_2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
}

interface RawResult {
  number?: string | number;
  enumeration_type?: string;
  basic?: RawName & {
    credential?: string;
    status?: string;
    enumeration_date?: string;
    last_updated?: string;
  };
  other_names?: (RawName & { type?: string })[];
  taxonomies?: {
    code?: string;
    desc?: string;
    primary?: boolean;
    state?: string | null;
    license?: string | null;
  }[];
  addresses?: RawAddress[];
  /** The secondary practice locations (same address fields as `addresses`). */
  practiceLocations?: RawAddress[];
  /** Set by this client (not NPPES): the registry's words when it answered that CMS deactivated the NPI. */
  deactivation?: string;
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';

const list = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);

/** `JANE A DOE`, or the organization's name. */
function nameLine(name: RawName): string {
  return (
    text(name.organization_name) ||
    [text(name.first_name), text(name.middle_name), text(name.last_name)].filter(Boolean).join(' ')
  );
}

/** `1 MAIN ST, SUITE 2, CHICAGO, IL, 60601` (the ZIP+4 cut to five digits). */
function addressLine(address: RawAddress): string {
  return [
    text(address.address_1),
    text(address.address_2),
    text(address.city),
    text(address.state),
    text(address.postal_code).slice(0, 5),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The review page's reading of one NPPES result (issue 15; every practice location, issue 30 item 6). */
export function readNppesResult(result: RawResult): NppesRecord {
  const basic = result.basic ?? {};
  const status = text(basic.status);
  const primary = list(result.addresses).filter((a) => a?.address_purpose === 'LOCATION');
  const locations = [...primary, ...list(result.practiceLocations)]
    .filter((a): a is RawAddress => typeof a === 'object' && a !== null)
    .map(addressLine)
    .filter(Boolean);
  return {
    npi: text(result.number),
    enumerationType: text(result.enumeration_type),
    name: nameLine(basic),
    otherNames: list(result.other_names)
      .filter((n) => typeof n === 'object' && n !== null)
      .map(nameLine)
      .filter(Boolean),
    credential: text(basic.credential) || null,
    status: status === 'A' ? 'Active' : status === 'D' ? 'Deactivated' : status || 'Unknown',
    statusNote: result.deactivation ?? null,
    enumerationDate: text(basic.enumeration_date) || null,
    lastUpdated: text(basic.last_updated) || null,
    taxonomies: list(result.taxonomies).map((t) => ({
      code: text(t.code),
      description: text(t.desc),
      primary: t.primary === true,
      state: text(t.state) || null,
      license: text(t.license) || null,
    })),
    practiceLocations: [...new Set(locations)],
  };
}

/** License numbers and states compare as letters and digits only, upper case. */
const normalise = (v: unknown) =>
  text(v)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

/**
 * Whether an NPPES name is the application's first + last name, folded like LEIE names (accents,
 * case, spaces, hyphens and apostrophes aside: `normaliseName`, one rule for both). A middle name in
 * NPPES is no difference; an application that wrote the middle name into the first name matches too.
 */
function sameName(name: RawName, first: string, last: string): boolean {
  if (normaliseName(name.last_name) !== normaliseName(last)) return false;
  const wanted = normaliseName(first);
  const given = normaliseName(name.first_name);
  return given === wanted || (wanted !== '' && given + normaliseName(name.middle_name) === wanted);
}

/**
 * Where the NPPES record and the application (its newest snapshot) disagree, in this order:
 * - an organization's NPI (NPI-2) on the individual's application: 'This NPI belongs to an
 *   organization' (issue 30 item 6), and then no name comparison;
 * - the name: the profile's first and last name against NPPES's name and each of its `other_names`,
 *   accents folded (issue 30 item 6);
 * - each state license NPPES lists that the application does not;
 * - a status other than active.
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
  const organization = record.enumerationType === 'NPI-2' || text(basic.organization_name) !== '';
  if (record.statusNote !== null) {
    // Deactivated: NPPES shows nothing of the provider, so there is nothing else to compare.
    return [`Status: NPPES says Deactivated (${record.statusNote})`];
  }
  if (organization) {
    mismatches.push(NPPES_ORGANIZATION_MISMATCH);
  } else if (first || last) {
    const names = [basic, ...list(raw.other_names).filter((n) => typeof n === 'object' && n !== null)];
    if (!names.some((n) => sameName(n, first, last))) {
      const also = record.otherNames.length > 0 ? ` (other names: ${record.otherNames.join('; ')})` : '';
      mismatches.push(`Name: NPPES has ${record.name}${also}, the application ${`${first} ${last}`.trim()}`);
    } else if (!sameName(basic, first, last)) {
      // Issue 52 item 2: the application's name is one of NPPES's other (former) names: say both.
      const former = list(raw.other_names).find(
        (n) => typeof n === 'object' && n !== null && sameName(n, first, last),
      );
      mismatches.push(
        `Name: the application's ${`${first} ${last}`.trim()} is NPPES's other name ${former ? nameLine(former) : ''}; NPPES's current name is ${record.name}`.replace(
          /\s+/g,
          ' ',
        ),
      );
    }
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

/** What a reviewer can always do instead. */
const BY_HAND = 'Look the NPI up on npiregistry.cms.hhs.gov and record the result by hand.';

/** One answer of the registry, its body read in full (within the limits). */
interface Answer {
  status: number;
  body: string;
  /** 1, or 2 when this is the retry's answer. */
  attempt: number;
}

/** A failed attempt worth one more try (timeout, network error, 5xx): what to say if it stays failed. */
class RetryableFailure extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message);
    this.error = error;
  }
}

/**
 * Whether an `Errors` answer says CMS deactivated the NPI (issue 52 item 2): NPPES API 2.1 answers a
 * deactivated NPI with error number 15, `{"field":"number","number":"15","description":"CMS
 * deactivated NPI 1669463816. The provider can no longer use this NPI. …"}`, not a record. Any error
 * whose description says "deactivated" counts too. @returns the registry's words, or null
 */
function deactivationOf(body: Record<string, unknown>): string | null {
  const errors = Array.isArray(body.Errors) ? (body.Errors as unknown[]) : [];
  for (const e of errors) {
    if (typeof e !== 'object' || e === null) continue;
    const { number, description } = e as { number?: unknown; description?: unknown };
    const said = text(description)
      .replace(/\p{Cc}+/gu, ' ')
      .slice(0, 500);
    if (text(number) === '15' || /deactivated/i.test(said)) return said || 'CMS deactivated the NPI';
  }
  return null;
}

/**
 * `{"Errors":[{"description":…}]}`: the descriptions joined by '; ', control characters out, at most
 * 500 characters, no final period; null when the answer has no `Errors`.
 */
function registryErrors(body: Record<string, unknown>): string | null {
  const errors = body.Errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const said = errors
    .map((e) => text((e as { description?: unknown } | null)?.description))
    .filter(Boolean)
    .join('; ')
    .replace(/\p{Cc}+/gu, ' ')
    .slice(0, 500)
    .replace(/[\s.]+$/, '');
  return said || 'an error without a description';
}

/**
 * A client of the registry at `baseUrl` (NPPES_API_URL). `timeoutMs` (per lookup, bodies and retry included),
 * `cacheMs` and `maxBodyBytes` default to NPPES_TIMEOUT_MS, NPPES_CACHE_MS and NPPES_MAX_BODY_BYTES;
 * tests shorten them.
 */
export function createNppesClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  cacheMs?: number;
  maxBodyBytes?: number;
}): NppesClient {
  const timeoutMs = options.timeoutMs ?? NPPES_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? NPPES_CACHE_MS;
  const maxBodyBytes = options.maxBodyBytes ?? NPPES_MAX_BODY_BYTES;
  const maxBodyText =
    maxBodyBytes % (1024 * 1024) === 0 ? `${maxBodyBytes / (1024 * 1024)} MB` : `${maxBodyBytes} bytes`;
  const cache = new Map<string, NppesLookup>();

  const unreachable = (attempts: number) =>
    new AppError(
      'service_unavailable',
      `NPPES did not answer within ${timeoutMs / 1000} s${attempts > 1 ? ' (tried twice)' : ''}. Try again in a few minutes, or look the NPI up on npiregistry.cms.hhs.gov and record the result by hand.`,
    );
  const errorPage = (status: number) =>
    new AppError('bad_gateway', `NPPES answered with an error page (HTTP ${status}). ${BY_HAND}`);
  const tooLarge = () =>
    new AppError('bad_gateway', `NPPES answered with more than ${maxBodyText}; it was not read. ${BY_HAND}`);

  /**
   * The body as text, reading at most `maxBodyBytes` (then the read stops and the connection is
   * dropped). The attempt's abort signal also ends a body that dribbles in.
   * @throws AppError bad_gateway when the body is larger
   */
  async function readBody(response: Response, abort: AbortController): Promise<string> {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBodyBytes) {
      abort.abort();
      throw tooLarge();
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let size = 0;
    let body = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBodyBytes) {
        abort.abort();
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      body += decoder.decode(value, { stream: true });
    }
    return body + decoder.decode();
  }

  /**
   * One request, within `budgetMs` from the request to the body's last byte (`attempt`: 1 or 2).
   * @throws AppError bad_gateway (a redirect, a body over the limit): final
   * @throws RetryableFailure (timeout, network error)
   */
  async function fetchOnce(npi: string, budgetMs: number, attempt: number): Promise<Answer> {
    const url = new URL(options.baseUrl);
    url.searchParams.set('version', '2.1');
    url.searchParams.set('number', npi);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), budgetMs);
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: abort.signal,
      });
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        abort.abort();
        throw new AppError(
          'bad_gateway',
          `NPPES redirected the request (HTTP ${response.status || 'redirect'}); not followed. Check NPPES_API_URL. ${BY_HAND}`,
        );
      }
      return { status: response.status, body: await readBody(response, abort), attempt };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new RetryableFailure(unreachable(attempt));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The record in `answer`, or why there is none.
   * @throws AppError not_found, bad_gateway, service_unavailable (a 5xx that says nothing more)
   */
  function read(npi: string, answer: Answer): RawResult {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      throw errorPage(answer.status);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw errorPage(answer.status);
    const body = parsed as Record<string, unknown>;
    // A deactivated NPI is a finding about the provider, not an outage (issue 52 item 2).
    const deactivation = deactivationOf(body);
    if (deactivation !== null) {
      return { number: npi, enumeration_type: '', basic: { status: 'D' }, deactivation };
    }
    const said = registryErrors(body);
    if (said !== null) throw new AppError('bad_gateway', `NPPES answered: ${said}. ${BY_HAND}`);
    if (answer.status >= 500) {
      throw new AppError(
        'service_unavailable',
        `NPPES is failing (HTTP ${answer.status}${answer.attempt > 1 ? ', tried twice' : ''}). Try again in a few minutes, or look the NPI up on npiregistry.cms.hhs.gov and record the result by hand.`,
      );
    }
    if (answer.status !== 200) {
      throw new AppError('bad_gateway', `NPPES answered HTTP ${answer.status} without a record. ${BY_HAND}`);
    }
    const results = Array.isArray(body.results) ? (body.results as unknown[]) : [];
    if (body.result_count === 0 || results.length === 0) {
      throw new AppError(
        'not_found',
        `NPPES has no provider with the NPI ${npi}. Check the number with the provider.`,
      );
    }
    const result = results[0];
    if (typeof result !== 'object' || result === null) {
      throw new AppError('bad_gateway', `NPPES answered in a form this product cannot read. ${BY_HAND}`);
    }
    const number = text((result as RawResult).number);
    if (number !== npi) {
      throw new AppError(
        'bad_gateway',
        `NPPES answered with the record of another NPI (${number || 'none'}) when asked for ${npi}; it was not used. ${BY_HAND}`,
      );
    }
    return result as RawResult;
  }

  return {
    async lookup(npi, now) {
      if (!/^\d{10}$/.test(npi)) {
        throw new AppError('validation_failed', 'The application has no 10-digit NPI to look up.');
      }
      const cached = cache.get(npi);
      if (cached && now.getTime() - cached.fetchedAt.getTime() < cacheMs) return cached;
      let last: Answer | RetryableFailure | undefined;
      // Measured on the monotonic clock: `now` is the caller's time of record, not a stopwatch.
      const deadline = performance.now() + timeoutMs;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const left = deadline - performance.now();
        if (attempt > 1 && left < timeoutMs / RETRY_SHARE) break;
        try {
          last = await fetchOnce(npi, left, attempt);
          if (last.status < 500) break;
        } catch (error) {
          if (!(error instanceof RetryableFailure)) throw error;
          last = error;
        }
      }
      if (!last || last instanceof RetryableFailure) throw last?.error ?? unreachable(1);
      const result = read(npi, last);
      const lookup: NppesLookup = { fetchedAt: now, raw: result, record: readNppesResult(result) };
      cache.set(npi, lookup);
      return lookup;
    },
  };
}
