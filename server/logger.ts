/**
 * pino options shared by the server and CLIs. PHI and secrets never reach logs (HIPAA 164.312(b);
 * issue 10 items 2 and 4), at any level:
 *
 * - requests are logged by method, a *safe* path and request id: no query string, no body, no
 *   header; a path segment that is neither a UUID nor a plain lowercase word is replaced by
 *   `:redacted`, so tokens carried in paths (better-auth's `/api/auth/reset-password/<token>`) never
 *   appear, whatever the route;
 * - every logged error goes through `safeErrorSummary`: a database error is logged by its SQLSTATE,
 *   constraint, table and column only (its message and Drizzle's "Failed query" text carry the SQL
 *   and every bound parameter: dates of birth, addresses, license numbers); other errors by name,
 *   scrubbed message and stack frames;
 * - fields named like PHI or secrets are censored wherever they appear.
 */
import type { LoggerOptions } from 'pino';

/** Field names censored in any logged object (spec §3 personal_information and credentials). */
export const redactedPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.ssn',
  '*.dateOfBirth',
  '*.token',
  '*.secret',
  '*.url',
  'password',
  'ssn',
  'token',
  'secret',
  'url',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Route words: `api`, `sign-in`, `openapi.json`, `robots.txt`. No digits, no capitals: tokens have both. */
const PLAIN_WORD = /^[a-z]+(?:[-_.][a-z]+)*$/;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path of `url` as it may be logged: no query string or fragment, percent-decoding undone, and
 * every segment that is not a UUID or a plain lowercase word replaced by `:redacted`.
 * @example safeLogPath('/api/auth/reset-password/Xk9fQ2?callbackURL=/x') // '/api/auth/reset-password/:redacted'
 */
export function safeLogPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path
    .split('/')
    .map((segment) => {
      if (segment === '') return segment;
      const decoded = safeDecode(segment);
      return UUID.test(decoded) || PLAIN_WORD.test(decoded) ? decoded : ':redacted';
    })
    .join('/')
    .slice(0, 300);
}

const EMAIL = /[^\s@"'<>()]+@[^\s@"'<>()]+\.[A-Za-z]{2,}/g;
const URL_WITH_PATH = /\b(https?:\/\/[^\s/"'<>]+)(\/[^\s"'<>]*)?/g;

/** Removes what a free-text message may carry that must not be logged: email addresses, URL paths and queries. */
export function scrubText(text: string): string {
  return text
    .replace(URL_WITH_PATH, (_m, origin: string, rest?: string) => (rest ? `${origin}/[redacted]` : origin))
    .replace(EMAIL, '[email]')
    .slice(0, 500);
}

/** What a log line may say about an error. */
export interface SafeErrorSummary {
  type: string;
  /** SQLSTATE for database errors, Node/library error code otherwise. */
  code?: string;
  /** Database errors: constraint, table and column names (never values). */
  constraint?: string;
  table?: string;
  column?: string;
  /** Non-database errors only, scrubbed of emails and URL paths. */
  message?: string;
  /** Stack frames without the message line. */
  stack?: string;
  cause?: SafeErrorSummary;
}

/** A PostgreSQL error from the `pg` driver: has a 5-character SQLSTATE and a severity. */
function isDatabaseError(error: Record<string, unknown>): boolean {
  return (
    typeof error.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(error.code) &&
    (typeof error.severity === 'string' || typeof error.routine === 'string')
  );
}

function stackFrames(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.slice(0, 15).join('\n') : undefined;
}

/**
 * A log-safe description of `error` (the pino `err` serializer). Database errors, and errors that
 * wrap one (Drizzle's "Failed query: <sql> params: <values>"), keep no message at all.
 */
export function safeErrorSummary(error: unknown, depth = 0): SafeErrorSummary {
  if (!error || typeof error !== 'object') return { type: typeof error, message: scrubText(String(error)) };
  const record = error as Record<string, unknown>;
  // Drizzle's DrizzleQueryError keeps `name` 'Error': know it by its query and params instead.
  const isQueryError = 'query' in record && 'params' in record;
  const type = isQueryError
    ? 'DrizzleQueryError'
    : typeof record.name === 'string'
      ? record.name
      : (error.constructor?.name ?? 'Error');
  const cause = record.cause;
  const wrapsDatabaseError =
    !!cause && typeof cause === 'object' && isDatabaseError(cause as Record<string, unknown>);
  const summary: SafeErrorSummary = { type };
  if (isDatabaseError(record)) {
    summary.code = record.code as string;
    if (typeof record.constraint === 'string') summary.constraint = record.constraint;
    if (typeof record.table === 'string') summary.table = record.table;
    if (typeof record.column === 'string') summary.column = record.column;
  } else {
    if (typeof record.code === 'string') summary.code = record.code.slice(0, 60);
    // Drizzle's wrapper names the query and its parameters: its message is the PHI leak itself.
    if (!wrapsDatabaseError && !isQueryError && typeof record.message === 'string') {
      summary.message = scrubText(record.message);
    }
  }
  const stack = stackFrames(record.stack);
  if (stack) summary.stack = stack;
  if (cause && depth < 3) summary.cause = safeErrorSummary(cause, depth + 1);
  return summary;
}

interface LoggableRequest {
  id?: string;
  method?: string;
  url?: string;
  routeOptions?: { url?: string };
}

/** pino options for the server, the CLIs and the tests (the tests use exactly these). */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      req: (req: LoggableRequest) => ({
        id: req.id,
        method: req.method,
        path: safeLogPath(req.url ?? ''),
        ...(req.routeOptions?.url ? { route: req.routeOptions.url } : {}),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: (error: unknown) => safeErrorSummary(error),
    },
  };
}
