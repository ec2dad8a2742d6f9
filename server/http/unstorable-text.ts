/**
 * Refuses text that PostgreSQL cannot store or compare (issue 10 item 5): a NUL character (U+0000)
 * anywhere in a path parameter, the query string or a JSON body, and lone UTF-16 surrogates (what
 * invalid UTF-8 decodes to in some parsers). Without this, such a value reaches a query and the
 * driver's "invalid byte sequence" error becomes a 500; with it, the caller gets a 400 saying what
 * to change, on every route at once.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this guard looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first place in `value` (a parsed JSON/query/params value) holding unstorable text, or undefined. */
export function findUnstorableText(
  value: unknown,
  path: (string | number)[] = [],
  depth = 0,
): (string | number)[] | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, index], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const found =
      (UNSTORABLE.test(key) ? [...path, key] : undefined) ??
      findUnstorableText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Fastify preValidation hook.
 * @throws AppError bad_request (400) naming the field, e.g. "search: remove the NUL character..."
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = findUnstorableText(value);
    if (found) {
      const field = found.join('.') || part;
      throw new AppError(
        'bad_request',
        `${field}: remove the control character (NUL) or invalid character from this text and try again.`,
        { issues: [{ path: found, message: 'Contains a NUL or invalid character' }] },
      );
    }
  }
}
