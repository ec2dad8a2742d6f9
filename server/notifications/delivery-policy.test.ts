import { describe, expect, it } from 'vitest';
import {
  classifyResponse,
  describeNetworkError,
  oversizeHint,
  parseRetryAfter,
  RECEIVER_DEFAULT_BODY_LIMIT_BYTES,
  retryDelayMs,
} from './delivery-policy.ts';

describe('classifyResponse', () => {
  it.each([200, 201, 202, 204, 299])('counts %i as delivered (spec §7: an ok response)', (status) => {
    expect(classifyResponse(status)).toEqual({ kind: 'delivered' });
  });

  it.each([408, 429, 500, 502, 503, 504])('retries %i', (status) => {
    expect(classifyResponse(status)).toMatchObject({
      kind: 'retry',
      error: `The receiver answered HTTP ${status}`,
    });
  });

  it.each([301, 302, 400, 401, 403, 404, 409, 410, 413, 422])('gives up on %i', (status) => {
    expect(classifyResponse(status)).toEqual({
      kind: 'final',
      error: `The receiver answered HTTP ${status}`,
    });
  });

  it('passes the Retry-After of a retryable answer along', () => {
    expect(classifyResponse(503, '7')).toMatchObject({ kind: 'retry', retryAfterMs: 7000 });
  });
});

describe('classifyResponse: 404 and 410 within NOTIFY_RETRY_NOT_FOUND_MINUTES (issue 20)', () => {
  const first = Date.parse('2026-01-01T00:00:00Z');
  const window = { firstAttemptAt: first, windowMs: 30 * 60_000 };
  it.each([404, 410])('retries %i until the window from the first attempt has passed', (status) => {
    expect(classifyResponse(status, undefined, first, window)).toMatchObject({ kind: 'retry' });
    expect(classifyResponse(status, '5', first + 29 * 60_000, window)).toMatchObject({
      kind: 'retry',
      retryAfterMs: 5000,
    });
    expect(classifyResponse(status, undefined, first + 30 * 60_000, window)).toMatchObject({
      kind: 'final',
      error: expect.stringContaining(`HTTP ${status} for more than 30 min`),
    });
  });
  it('keeps other 4xx final, and 404 final with a window of 0', () => {
    expect(classifyResponse(403, undefined, first, window)).toMatchObject({ kind: 'final' });
    expect(classifyResponse(404, undefined, first, { firstAttemptAt: first, windowMs: 0 })).toEqual({
      kind: 'final',
      error: 'The receiver answered HTTP 404',
    });
  });
});

describe('oversizeHint (issue 20)', () => {
  it('names the receiver body limit only for a 5xx to a body over 16 MiB', () => {
    expect(oversizeHint(500, RECEIVER_DEFAULT_BODY_LIMIT_BYTES + 1)).toContain('N8N_PAYLOAD_SIZE_MAX');
    expect(oversizeHint(502, 40_000_000)).toContain('NOTIFY_DOCUMENTS=links');
    expect(oversizeHint(500, RECEIVER_DEFAULT_BODY_LIMIT_BYTES)).toBeUndefined();
    expect(oversizeHint(413, 40_000_000)).toBeUndefined();
    expect(oversizeHint(200, 40_000_000)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP-date, 0 when it is past', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores missing or unparsable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('retryDelayMs (exponential backoff, full jitter)', () => {
  const options = { baseMs: 1000, maxMs: 60_000 };
  it('draws from [0, base * 2^(attempt-1))', () => {
    expect(retryDelayMs(1, { ...options, random: () => 0.999 })).toBe(999);
    expect(retryDelayMs(3, { ...options, random: () => 0.5 })).toBe(2000);
    expect(retryDelayMs(3, { ...options, random: () => 0 })).toBe(0);
  });
  it('never waits longer than maxMs', () => {
    expect(retryDelayMs(30, { ...options, random: () => 0.999 })).toBe(59_940);
    expect(retryDelayMs(1000, { ...options, random: () => 0.5 })).toBe(30_000);
  });
  it('spreads real random delays over the whole window', () => {
    const delays = Array.from({ length: 2000 }, () => retryDelayMs(4, options));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(8000);
    expect(Math.max(...delays)).toBeGreaterThan(7000);
    expect(Math.min(...delays)).toBeLessThan(1000);
  });
  it("takes the receiver's Retry-After instead, capped at maxMs", () => {
    expect(retryDelayMs(1, options, 5000)).toBe(5000);
    expect(retryDelayMs(1, options, 3_600_000)).toBe(60_000);
  });
});

describe('describeNetworkError', () => {
  it('names the error code, never the URL', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9/secret-token'), {
      code: 'ECONNREFUSED',
    });
    expect(describeNetworkError(error)).toBe('Could not reach the receiver (ECONNREFUSED)');
  });
});
