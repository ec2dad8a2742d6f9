/**
 * Validate a value against a JSON Schema (draft 2020-12) in tests of the published completion
 * payload schema (docs/completion-payload.schema.json): Ajv in strict mode, with ajv-formats for
 * `date`, `date-time`, `uuid` and the other formats the schema names.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type JsonSchema = Record<string, unknown>;

/** @returns the problems as "path: message" lines (every one, not the first); empty when valid */
export function validateJsonSchema(value: unknown, schema: JsonSchema): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `$${error.instancePath}: ${error.message}`);
}
