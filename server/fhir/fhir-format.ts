/**
 * Content negotiation of the FHIR API (issue 52 item 3; FHIR R4 http.html#mime and #format): this
 * server writes JSON only, so a request that accepts only XML is answered 406 with an
 * OperationOutcome, never a 200 in a format the client said it cannot read. Pure.
 *
 * - `Accept`: refused when every media range it lists with a non-zero `q` is an XML one
 *   (`application/fhir+xml`, `application/xml`, `text/xml`); any wildcard,
 *   `application/json`, `application/fhir+json`, `application/fhir+ndjson` or no header are served.
 * - `_format` (overrides Accept, FHIR R4 http.html#format): `xml`, `text/xml`, `application/xml` and
 *   `application/fhir+xml` are refused; the JSON spellings are served; anything else is the search
 *   parser's 400 (fhir-search.ts).
 */
import type { FastifyInstance } from 'fastify';
import { FhirError } from './fhir-http.ts';

const XML_TYPES = new Set(['application/fhir+xml', 'application/xml', 'text/xml', 'application/xml+fhir']);
const XML_FORMATS = new Set(['xml', ...XML_TYPES]);

/** The media types of an `Accept` header with a non-zero quality, lower-cased, parameters dropped. */
function acceptedTypes(accept: string): string[] {
  return accept
    .split(',')
    .map((range) => {
      const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return q !== undefined && Number(q.slice(2)) === 0 ? '' : (type ?? '');
    })
    .filter((type) => type !== '');
}

/**
 * Why a request cannot be answered in JSON (the 406 OperationOutcome's diagnostics), or undefined
 * when it can. `accept` is the raw `Accept` header; `format` the `_format` parameter's values.
 * @example notAcceptable('application/fhir+xml', undefined) // 'This server answers in JSON only…'
 * @example notAcceptable('application/fhir+xml, application/json;q=0.1', undefined) // undefined
 */
export function notAcceptable(
  accept: string | undefined,
  format: string | string[] | undefined,
): string | undefined {
  const formats = (Array.isArray(format) ? format : format === undefined ? [] : [format]).map((f) =>
    f.trim().toLowerCase(),
  );
  const message = 'This server answers in JSON only: send Accept: application/fhir+json (or _format=json).';
  if (formats.length > 0) return formats.some((f) => XML_FORMATS.has(f)) ? message : undefined;
  if (!accept) return undefined;
  const types = acceptedTypes(accept);
  if (types.length > 0 && types.every((type) => XML_TYPES.has(type))) return message;
  return undefined;
}

/** Most parameters read from a form-encoded `_search` body. */
const MAX_FORM_PARAMS = 40;

/**
 * The body parsers of the FHIR plugin (its scope only): JSON as `application/fhir+json` or
 * `application/json`, an empty body read as undefined (a POST `$export` may have none); and
 * `application/x-www-form-urlencoded` (POST `_search`, FHIR R4 http.html#search) as each name with
 * its values. A body that does not parse is a 400 OperationOutcome saying what to send.
 */
export function registerFhirBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/fhir+json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(
          new FhirError(
            400,
            'structure',
            'The body is not valid JSON: send a FHIR resource as application/fhir+json.',
          ),
        );
      }
    },
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const params: Record<string, string | string[]> = {};
      const form = new URLSearchParams(String(body));
      let n = 0;
      for (const [name, value] of form) {
        if (++n > MAX_FORM_PARAMS) {
          return done(new FhirError(400, 'too-costly', `At most ${MAX_FORM_PARAMS} form parameters.`));
        }
        const held = params[name];
        params[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
      }
      done(null, params);
    },
  );
}
