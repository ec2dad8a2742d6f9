/**
 * When to retry a completion notification and how long to wait (issue 5): exponential backoff with
 * full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog, 2015), Retry-After honoured
 * (RFC 9110 §10.2.3: delay-seconds or an HTTP-date). Pure functions, unit tested.
 */

/** What an attempt's outcome means for the notification. */
export type AttemptVerdict =
  | { kind: 'delivered' }
  /** Try again later (network error, timeout, 408, 429, 5xx). */
  | { kind: 'retry'; error: string; retryAfterMs?: number }
  /** Do not retry (other 4xx, 3xx, payload too large). */
  | { kind: 'final'; error: string };

/**
 * Classify a receiver's HTTP answer. 2xx delivered (spec §7: an ok response counts as success);
 * 408, 429 and 5xx retried; anything else (3xx: redirects are not followed; 4xx) final.
 * @param retryAfter the raw Retry-After header, if any
 * @param now for HTTP-date values (ms since the epoch)
 */
export function classifyResponse(status: number, retryAfter?: string, now = Date.now()): AttemptVerdict {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const error = `The receiver answered HTTP ${status}`;
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(retryAfter, now) };
  }
  return { kind: 'final', error };
}

/**
 * Milliseconds to wait from a Retry-After header: delay-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Undefined when absent or unparsable; 0 for a date in the past.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP-date form starts with the day name ("Sun, 06 Nov 1994 08:49:37 GMT").
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface BackoffOptions {
  /** Cap of the first delay, ms. */
  baseMs: number;
  /** Largest delay, ms. */
  maxMs: number;
  /** Random number in [0, 1) (tests pass a fixed one). */
  random?: () => number;
}

/**
 * Delay before the attempt after `attempt` failed attempts (1-based): a uniform random value in
 * [0, min(maxMs, baseMs * 2^(attempt-1))) ("full jitter"), or the receiver's Retry-After (capped at
 * maxMs) when it sent one.
 */
export function retryDelayMs(attempt: number, options: BackoffOptions, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxMs);
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

/** A short, PHI-free description of a network failure (error codes only, never the URL). */
export function describeNetworkError(error: unknown): string {
  const code =
    (error as NodeJS.ErrnoException)?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return `Could not reach the receiver${code ? ` (${code})` : ''}`;
}
