/**
 * The search parameters of the directory API (issue 33 item 3; FHIR R4 §3.1.1 RESTful search):
 * parsed, bounded and checked per resource type. Anything not listed answers 400 (FHIR R4 §3.1.1.5
 * "unknown parameters": this server is strict, so a client never reads an unfiltered result it did
 * not ask for). Pure.
 *
 * | Type | Parameters (besides `_count`, `_cursor`, `_format`) |
 * |---|---|
 * | Practitioner | `_id`, `identifier` (NPI: `http://hl7.org/fhir/sid/us-npi|<NPI>` or `<NPI>`), `name`, `_lastUpdated`, `_revinclude=PractitionerRole:practitioner` |
 * | PractitionerRole | `_id`, `practitioner` (`Practitioner/<id>` or `<id>`), `_lastUpdated`, `_include=PractitionerRole:practitioner`, `_include=PractitionerRole:location` |
 * | Location | `_id`, `_lastUpdated` |
 * | Organization | `_id`, `identifier` (group NPI), `_lastUpdated` |
 * | VerificationResult | `_id`, `target` (`Practitioner/<id>` or `<id>`), `_lastUpdated` |
 *
 * Every type also takes `_summary=count|false`, `_total=none|estimate|accurate`,
 * `_sort=_lastUpdated|-_lastUpdated` and `_elements` (top-level names); see fhir-search-bundle.ts.
 *
 * `_count`: 1..1000, default 50. `_lastUpdated`: prefixes eq (default), ge, gt, le, lt with a FHIR
 * date or instant (a date, or an instant without seconds' fraction, covers its whole precision for
 * eq); repeatable (ANDed). Values are bounded: at most 100 comma-separated values, 200 characters each.
 */
import type { FhirResourceType } from '../../domain/api-clients.ts';
import { NPI_SYSTEM } from './fhir-resources.ts';

/** Default and largest page size (`_count`). */
export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 1000;
const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 200;
/** A FHIR id (FHIR R4 §2.26 id). */
export const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/** A bad request: the message is the OperationOutcome's diagnostics (400). */
export class SearchParameterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchParameterError';
  }
}

export type Include = 'PractitionerRole:practitioner' | 'PractitionerRole:location';

/** A page position: the last resource sent (provider `u`, its `s`-th resource of the type). */
export interface Cursor {
  /** Provider user id, or the group NPI for Organization. */
  u: string;
  /** Index of the resource within the provider (-1: the provider's own, Practitioner). */
  s: number;
}

export interface ParsedSearch {
  type: FhirResourceType;
  ids?: string[];
  /** NPI (Practitioner) or group NPI (Organization). */
  npi?: string;
  name?: string;
  /** Practitioner ids (`practitioner` of PractitionerRole, `target` of VerificationResult). */
  practitioners?: string[];
  /** Only resources changed after this instant. */
  updatedSince?: Date;
  /** Only resources changed at or before this instant. */
  updatedUntil?: Date;
  include: Include[];
  revincludeRoles: boolean;
  count: number;
  cursor?: Cursor;
  /** `_summary=count`: the total only, no entries (FHIR R4 search.html#summary). */
  summaryCount: boolean;
  /** `_total` (FHIR R4 search.html#total); undefined: as `estimate`. */
  total?: 'none' | 'estimate' | 'accurate';
  /** `_sort` by `_lastUpdated`, ascending or descending (FHIR R4 search.html#sort). */
  sort?: 'lastUpdated' | '-lastUpdated';
  /** `_elements`: the top-level elements to keep (FHIR R4 search.html#elements). */
  elements?: string[];
  /** The parameters as the `self` link repeats them (no `_cursor`). */
  canonical: [string, string][];
}

const common = [
  '_count',
  '_cursor',
  '_format',
  '_id',
  '_lastUpdated',
  '_summary',
  '_total',
  '_sort',
  '_elements',
];
/** An element name of `_elements`: a top-level FHIR element. */
const ELEMENT_NAME = /^[a-z][A-Za-z0-9]{0,63}$/;
const allowed: Record<FhirResourceType, string[]> = {
  Practitioner: [...common, 'identifier', 'name', '_revinclude'],
  PractitionerRole: [...common, 'practitioner', '_include'],
  Location: common,
  Organization: [...common, 'identifier'],
  VerificationResult: [...common, 'target'],
};

function values(raw: string, name: string): string[] {
  const list = raw.split(',').map((v) => v.trim());
  if (list.length > MAX_VALUES) throw new SearchParameterError(`${name}: at most ${MAX_VALUES} values`);
  if (list.some((v) => v.length === 0 || v.length > MAX_VALUE_LENGTH)) {
    throw new SearchParameterError(`${name}: each value must be 1 to ${MAX_VALUE_LENGTH} characters`);
  }
  return list;
}

function ids(raw: string, name: string): string[] {
  const list = values(raw, name);
  for (const id of list)
    if (!FHIR_ID.test(id)) throw new SearchParameterError(`${name}: '${id.slice(0, 64)}' is not a FHIR id`);
  return list;
}

/** `Practitioner/<id>` or `<id>`. */
function practitionerIds(raw: string, name: string): string[] {
  return ids(
    values(raw, name)
      .map((v) => v.replace(/^Practitioner\//, ''))
      .join(','),
    name,
  );
}

function npi(raw: string, name: string): string {
  const list = values(raw, name);
  if (list.length !== 1) throw new SearchParameterError(`${name}: give one identifier`);
  const value = list[0]!;
  const bar = value.lastIndexOf('|');
  const system = bar >= 0 ? value.slice(0, bar) : null;
  const code = bar >= 0 ? value.slice(bar + 1) : value;
  if (system !== null && system !== NPI_SYSTEM) {
    throw new SearchParameterError(`${name}: only the NPI system ${NPI_SYSTEM} is searchable`);
  }
  if (!/^\d{10}$/.test(code)) throw new SearchParameterError(`${name}: an NPI is 10 digits`);
  return code;
}

const FHIR_DATE_TIME =
  /^(\d{4})(-(\d{2})(-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * A FHIR date/dateTime/instant as the half-open range [start, end) it covers: '2027' the year,
 * '2027-01-02' the day (UTC), an instant its second (or millisecond when given).
 */
export function dateRange(value: string, name: string): { start: number; end: number } {
  const m = FHIR_DATE_TIME.exec(value);
  if (!m) throw new SearchParameterError(`${name}: '${value.slice(0, 40)}' is not a FHIR date or instant`);
  const [, y, , mo, , d, , , , , sec, frac] = m;
  let start: number;
  let end: number;
  if (!mo) {
    start = Date.UTC(Number(y), 0, 1);
    end = Date.UTC(Number(y) + 1, 0, 1);
  } else if (!d) {
    start = Date.UTC(Number(y), Number(mo) - 1, 1);
    end = Date.UTC(Number(y), Number(mo), 1);
  } else if (!m[6]) {
    start = Date.UTC(Number(y), Number(mo) - 1, Number(d));
    end = start + 86_400_000;
  } else {
    start = Date.parse(value);
    end = start + (frac ? 1 : sec ? 1000 : 60_000);
  }
  if (!Number.isFinite(start))
    throw new SearchParameterError(`${name}: '${value.slice(0, 40)}' is not a valid date`);
  return { start, end };
}

/** The provider key of a cursor: an account id or a group NPI. */
const CURSOR_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** Opaque page cursor (base64url JSON); tampering gives 400, never another provider's data. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.u, cursor.s])).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) throw new Error('not base64url');
    const [u, s] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [unknown, unknown];
    // `u` is an account id or a group NPI: a value of any other shape (a NUL, a lone surrogate, a
    // quote) never reaches a query (issue 52 item 3: a NUL answered 500).
    if (
      typeof u === 'string' &&
      CURSOR_KEY.test(u) &&
      Number.isSafeInteger(s) &&
      (s as number) >= -1 &&
      (s as number) < 1_000_000
    ) {
      return { u, s: s as number };
    }
  } catch {
    // falls through to the error below
  }
  throw new SearchParameterError(
    '_cursor: not a cursor of this server (follow the Bundle next link as given)',
  );
}

/**
 * Parse the query of `GET /fhir/<type>?...` (`query`: each name with its values, as repeated).
 * @throws SearchParameterError on an unknown parameter, a bad value, or a value out of bounds
 */
export function parseSearch(
  type: FhirResourceType,
  query: Record<string, string | string[] | undefined>,
): ParsedSearch {
  const parsed: ParsedSearch = {
    type,
    include: [],
    revincludeRoles: false,
    count: DEFAULT_COUNT,
    canonical: [],
    summaryCount: false,
  };
  const names = Object.keys(query);
  if (names.length > 20) throw new SearchParameterError('too many parameters');
  for (const name of names) {
    const raw = query[name];
    const list = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
    if (list.length > 10) throw new SearchParameterError(`${name}: repeated too often`);
    if (!allowed[type].includes(name)) {
      throw new SearchParameterError(
        `Unknown search parameter '${name.slice(0, 40)}' for ${type}; supported: ${allowed[type].join(', ')}`,
      );
    }
    for (const value of list) {
      if (name !== '_cursor') parsed.canonical.push([name, value]);
      if (name !== '_lastUpdated' && name !== '_include' && list.length > 1) {
        throw new SearchParameterError(`${name}: give it once`);
      }
      switch (name) {
        case '_count': {
          if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_COUNT) {
            throw new SearchParameterError(`_count: a number from 1 to ${MAX_COUNT}`);
          }
          parsed.count = Number(value);
          break;
        }
        case '_cursor':
          parsed.cursor = decodeCursor(value);
          break;
        case '_format':
          if (!['json', 'application/json', 'application/fhir+json'].includes(value)) {
            throw new SearchParameterError('_format: only json (application/fhir+json) is served');
          }
          break;
        case '_id':
          parsed.ids = ids(value, name);
          break;
        case '_summary':
          if (value === 'count') parsed.summaryCount = true;
          else if (value !== 'false') {
            throw new SearchParameterError(
              '_summary: only count (the total, no entries) or false is served; use _elements to choose elements',
            );
          }
          break;
        case '_total':
          if (value !== 'none' && value !== 'estimate' && value !== 'accurate') {
            throw new SearchParameterError('_total: none, estimate or accurate');
          }
          parsed.total = value;
          break;
        case '_sort':
          if (value !== '_lastUpdated' && value !== '-_lastUpdated') {
            throw new SearchParameterError(
              '_sort: only _lastUpdated (oldest first) or -_lastUpdated (newest first)',
            );
          }
          parsed.sort = value === '_lastUpdated' ? 'lastUpdated' : '-lastUpdated';
          break;
        case '_elements': {
          const list = values(value, name);
          if (list.length > 30) throw new SearchParameterError('_elements: at most 30 elements');
          for (const element of list) {
            if (!ELEMENT_NAME.test(element)) {
              throw new SearchParameterError(
                `_elements: '${element.slice(0, 40)}' is not a top-level element name (e.g. name,identifier)`,
              );
            }
          }
          parsed.elements = list;
          break;
        }
        case 'identifier':
          parsed.npi = npi(value, name);
          break;
        case 'name': {
          const text = values(value, name).join(' ').trim();
          if (text.length < 1 || text.length > 100)
            throw new SearchParameterError('name: 1 to 100 characters');
          parsed.name = text;
          break;
        }
        case 'practitioner':
        case 'target':
          parsed.practitioners = practitionerIds(value, name);
          break;
        case '_include':
          if (value !== 'PractitionerRole:practitioner' && value !== 'PractitionerRole:location') {
            throw new SearchParameterError(
              '_include: PractitionerRole:practitioner or PractitionerRole:location',
            );
          }
          if (!parsed.include.includes(value)) parsed.include.push(value);
          break;
        case '_revinclude':
          if (value !== 'PractitionerRole:practitioner') {
            throw new SearchParameterError('_revinclude: only PractitionerRole:practitioner');
          }
          parsed.revincludeRoles = true;
          break;
        case '_lastUpdated': {
          const m = /^(eq|ge|gt|le|lt)?(.*)$/.exec(value)!;
          const prefix = m[1] ?? 'eq';
          const range = dateRange(m[2]!, name);
          // Kept as (since, until]: since is exclusive, until inclusive, to the millisecond.
          const since =
            prefix === 'gt'
              ? range.end - 1
              : prefix === 'ge' || prefix === 'eq'
                ? range.start - 1
                : undefined;
          const until =
            prefix === 'lt'
              ? range.start - 1
              : prefix === 'le' || prefix === 'eq'
                ? range.end - 1
                : undefined;
          if (since !== undefined && (!parsed.updatedSince || since > parsed.updatedSince.getTime())) {
            parsed.updatedSince = new Date(since);
          }
          if (until !== undefined && (!parsed.updatedUntil || until < parsed.updatedUntil.getTime())) {
            parsed.updatedUntil = new Date(until);
          }
          break;
        }
      }
    }
  }
  return parsed;
}
