/**
 * A small JSON Schema (2020-12) validator for tests: the subset docs/completion-payload.schema.json
 * uses (type, enum, const, properties, required, additionalProperties: false, items, anyOf, local
 * $ref, minLength, maxLength, minItems, maxItems, minimum, pattern, and the formats date, date-time and uuid). Unknown keywords are
 * ignored, as the specification allows for annotations. No dependency (ajv is not installed).
 */

export type JsonSchema = Record<string, unknown>;

const formats: Record<string, RegExp> = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/**
 * Validate `value` against `schema` (whose `$defs` resolve `#/$defs/...` references).
 * @returns the problems as "path: message" lines; empty when valid
 */
export function validateJsonSchema(value: unknown, schema: JsonSchema, root: JsonSchema = schema): string[] {
  const errors: string[] = [];
  check(value, schema, '$', root, errors);
  return errors;
}

function resolve(ref: string, root: JsonSchema): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`Only local $ref is supported: ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  if (!node) throw new Error(`Unresolved $ref ${ref}`);
  return node as JsonSchema;
}

function check(value: unknown, schema: JsonSchema, path: string, root: JsonSchema, errors: string[]): void {
  if (typeof schema.$ref === 'string') check(value, resolve(schema.$ref, root), path, root, errors);
  if (schema.type !== undefined) {
    const types = [schema.type].flat() as string[];
    if (!types.some((t) => matchesType(value, t))) {
      errors.push(`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if ('const' in schema && schema.const !== value)
    errors.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as JsonSchema[]).map((s) => validateJsonSchema(value, s, root));
    if (!branches.some((b) => b.length === 0)) {
      errors.push(`${path}: matches no allowed shape (${branches.map((b) => b[0]).join(' | ')})`);
    }
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
      errors.push(`${path}: shorter than ${schema.minLength}`);
    }
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
      errors.push(`${path}: longer than ${schema.maxLength}`);
    }
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      errors.push(`${path}: does not match ${schema.pattern}`);
    }
    const format = typeof schema.format === 'string' ? formats[schema.format] : undefined;
    if (format && !format.test(value)) errors.push(`${path}: not a valid ${schema.format}`);
  }
  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum) {
    errors.push(`${path}: less than ${schema.minimum}`);
  }
  if (Array.isArray(value) && typeof schema.minItems === 'number' && value.length < schema.minItems) {
    errors.push(`${path}: fewer than ${schema.minItems} items`);
  }
  if (Array.isArray(value) && typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    errors.push(`${path}: more than ${schema.maxItems} items`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      check(item, schema.items as JsonSchema, `${path}[${i}]`, root, errors);
    });
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in object)) errors.push(`${path}: missing required "${key}"`);
    }
    for (const [key, child] of Object.entries(object)) {
      if (properties[key]) check(child, properties[key], `${path}.${key}`, root, errors);
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property "${key}"`);
    }
  }
}
