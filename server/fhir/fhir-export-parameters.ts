/**
 * The body of a POST `$export` kick-off (issue 52 item 3; Bulk Data Access IG 2.0
 * export.html#query-parameters: "a FHIR Parameters resource" with the same parameters as the GET
 * query). Pure.
 */
import { FhirError } from './fhir-http.ts';

/** A `Parameters.parameter` entry as sent: a name and one `value[x]`. */
interface ParameterEntry {
  name?: unknown;
  [valueX: string]: unknown;
}

/**
 * The kick-off parameters of `body` (undefined or empty: none), as the GET query would hold them:
 * each name with its values; repeated `_type` entries are joined with commas (the IG allows either
 * form). Values are read from any primitive `value[x]` (`valueString`, `valueCode`, `valueInstant`…).
 * @throws FhirError 400 when the body is not a Parameters resource or an entry has no primitive value
 */
export function exportParametersOf(body: unknown): Record<string, string | string[]> {
  if (body === undefined || body === null || body === '') return {};
  const resource = body as { resourceType?: unknown; parameter?: unknown };
  if (typeof body !== 'object' || resource.resourceType !== 'Parameters') {
    throw new FhirError(
      400,
      'invalid',
      'A POST kick-off body must be a FHIR Parameters resource (or empty), sent as application/fhir+json.',
    );
  }
  const entries = Array.isArray(resource.parameter) ? (resource.parameter as ParameterEntry[]) : [];
  if (entries.length > 50) throw new FhirError(400, 'too-costly', 'At most 50 parameters.');
  const params: Record<string, string[]> = {};
  for (const entry of entries) {
    const name = typeof entry?.name === 'string' ? entry.name : '';
    const valueKey = Object.keys(entry ?? {}).find((key) => key.startsWith('value'));
    const value = valueKey ? entry[valueKey] : undefined;
    if (!name || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) {
      throw new FhirError(
        400,
        'invalid',
        `Each parameter needs a name and a primitive value[x] (e.g. { "name": "_type", "valueString": "Practitioner" }); '${name.slice(0, 40)}' has none.`,
      );
    }
    params[name] = [...(params[name] ?? []), String(value)];
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(params)) {
    query[name] = name === '_type' ? values.join(',') : values.length === 1 ? values[0]! : values;
  }
  return query;
}
