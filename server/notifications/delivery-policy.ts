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
 * How long a 404 or 410 is retried (issue 20 item 2): while n8n restarts, or while a workflow is
 * unpublished, its webhook answers 404 "webhook ... is not registered" for a while.
 */
export interface NotFoundWindow {
  /** When the first attempt of this series (since creation or the last resend) started, ms since the epoch. */
  firstAttemptAt: number;
  /** NOTIFY_RETRY_NOT_FOUND_MINUTES in ms; 0 makes 404 and 410 final at once. */
  windowMs: number;
}

/**
 * Classify a receiver's HTTP answer. 2xx delivered (spec §7: an ok response counts as success);
 * 408, 429 and 5xx retried; 404 and 410 retried while `now` is within `notFound`'s window of the first
 * attempt (issue 20), then final; anything else (3xx: redirects are not followed; 4xx) final.
 * @param retryAfter the raw Retry-After header, if any
 * @param now ms since the epoch (Retry-After HTTP-dates, the 404 window)
 */
export function classifyResponse(
  status: number,
  retryAfter?: string,
  now = Date.now(),
  notFound?: NotFoundWindow,
): AttemptVerdict {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const error = `The receiver answered HTTP ${status}`;
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(retryAfter, now) };
  }
  if ((status === 404 || status === 410) && notFound && notFound.windowMs > 0) {
    const minutes = Math.round(notFound.windowMs / 60_000);
    if (now - notFound.firstAttemptAt < notFound.windowMs) {
      return {
        kind: 'retry',
        error: `${error}; retried for up to ${minutes} min after the first attempt (NOTIFY_RETRY_NOT_FOUND_MINUTES): the workflow may be restarting or unpublished`,
        retryAfterMs: parseRetryAfter(retryAfter, now),
      };
    }
    return {
      kind: 'final',
      error: `${error} for more than ${minutes} min (NOTIFY_RETRY_NOT_FOUND_MINUTES): check that the workflow is published and NOTIFY_WEBHOOK_URL is its production URL`,
    };
  }
  return { kind: 'final', error };
}

/**
 * Body limit of common receivers: n8n's default N8N_PAYLOAD_SIZE_MAX is 16 MiB (issue 20 item 1).
 * Past it n8n answers 500, not 413.
 */
export const RECEIVER_DEFAULT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The hint added when a 5xx answers a body larger than RECEIVER_DEFAULT_BODY_LIMIT_BYTES (issue 20
 * item 1), or undefined. PHI-free: sizes only.
 * @param bodyBytes the size of the body that was sent
 */
export function oversizeHint(status: number, bodyBytes: number): string | undefined {
  if (status < 500 || bodyBytes <= RECEIVER_DEFAULT_BODY_LIMIT_BYTES) return undefined;
  return `the body was ${bodyBytes} bytes, more than 16 MiB: the receiver's body limit is the likely cause (n8n: N8N_PAYLOAD_SIZE_MAX, 16 MiB by default). Raise it there, or set NOTIFY_DOCUMENTS=links`;
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
