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
 * Refuse `value` (a string, or a parsed JSON value) when it holds unstorable text. `part` names the
 * whole value in the message when the text is `value` itself (e.g. 'body', 'params').
 * @throws AppError bad_request (400) naming the field, e.g. "search: remove the NUL character..."
 */
export function assertStorableText(value: unknown, part: string): void {
  const found = findUnstorableText(value);
  if (!found) return;
  const field = found.join('.') || part;
  throw new AppError(
    'bad_request',
    `${field}: remove the control character (NUL) or invalid character from this text and try again.`,
    { issues: [{ path: found, message: 'Contains a NUL or invalid character' }] },
  );
}

/** The refusal of an uploaded file whose name holds unstorable text (issue 28 item 3). */
export const UNSTORABLE_FILE_NAME_MESSAGE =
  'The file name contains a control character (NUL) or an invalid character: rename the file and upload it again.';

/**
 * Refuse a multipart file part whose file name holds unstorable text. Multipart parts are read by the
 * handler, after the preValidation hook has run, so every upload route calls this on its part (issue
 * 28 item 3). The part's stream is drained before the throw, so the answer is not held up.
 * @throws AppError bad_request (400) with UNSTORABLE_FILE_NAME_MESSAGE
 */
export function assertStorableFileName(part: { filename: string; file: { resume(): unknown } }): void {
  if (!findUnstorableText(part.filename)) return;
  part.file.resume();
  throw new AppError('bad_request', UNSTORABLE_FILE_NAME_MESSAGE, {
    issues: [{ path: ['file'], message: 'The file name contains a NUL or invalid character' }],
  });
}

/**
 * Fastify preValidation hook: params, query string and parsed JSON body. Bodies a route keeps raw
 * (the signed inbound webhook) and multipart parts are not parsed yet here: their routes call
 * `assertStorableText` / `assertStorableFileName` once they have parsed them.
 * @throws AppError bad_request (400) naming the field
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    assertStorableText(value, part);
  }
}
