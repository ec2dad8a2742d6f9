/**
 * sendsOf (issue 53 item 4): attempts grouped into the first message and each re-send, the current
 * send last even before its first attempt, attempts logged before their send was recorded kept apart.
 */
import { describe, expect, it } from 'vitest';
import { type LoggedAttempt, sendsOf } from './delivery-sends.ts';

const id = '11111111-1111-4111-8111-111111111111';
const resend = '22222222-2222-4222-8222-222222222222';
const at = (minute: number, messageId: string | null, httpStatus: number | null): LoggedAttempt => ({
  messageId,
  attemptedAt: new Date(Date.UTC(2026, 10, 28, 10, minute)),
  httpStatus,
  durationMs: 250,
  error: httpStatus === 200 ? null : `The receiver answered HTTP ${httpStatus}`,
});

describe('sendsOf', () => {
  it('gives each send what it offered in links mode, by its webhook-id', () => {
    const offered = { offered: 2, fetched: 1, linksExpireAt: '2026-11-28T11:00:00.000Z' };
    const sends = sendsOf(
      { id, messageId: resend, status: 'delivered' },
      [at(0, id, 400), at(1, resend, 200)],
      new Map([[resend, offered]]),
    );
    expect(sends.map((s) => s.documents)).toEqual([null, offered]);
  });

  it('keeps the first delivery and its time when a delivered notification is re-sent', () => {
    const sends = sendsOf({ id, messageId: resend, status: 'pending' }, [at(0, id, 200)]);
    expect(sends).toEqual([
      {
        webhookId: id,
        resend: false,
        result: 'delivered',
        firstAttemptAt: '2026-11-28T10:00:00.000Z',
        deliveredAt: '2026-11-28T10:00:00.250Z',
        attempts: [
          { attemptedAt: '2026-11-28T10:00:00.000Z', httpStatus: 200, durationMs: 250, error: null },
        ],
        documents: null,
      },
      {
        webhookId: resend,
        resend: true,
        result: 'pending',
        firstAttemptAt: null,
        deliveredAt: null,
        attempts: [],
        documents: null,
      },
    ]);
  });

  it('says an earlier send that never got through was not delivered, and counts attempts per send', () => {
    const sends = sendsOf({ id, messageId: resend, status: 'delivered' }, [
      at(0, id, 503),
      at(1, id, 400),
      at(2, resend, 503),
      at(3, resend, 200),
    ]);
    expect(sends.map((s) => [s.webhookId, s.result, s.attempts.length, s.deliveredAt])).toEqual([
      [id, 'not_delivered', 2, null],
      [resend, 'delivered', 2, '2026-11-28T10:03:00.250Z'],
    ]);
  });

  it('keeps attempts whose send was not recorded apart, of unknown kind, first', () => {
    const sends = sendsOf({ id, messageId: resend, status: 'failed' }, [
      at(0, null, 400),
      at(5, resend, 400),
    ]);
    expect(sends.map((s) => [s.webhookId, s.resend, s.result])).toEqual([
      [null, null, 'not_delivered'],
      [resend, true, 'failed'],
    ]);
  });

  it('shows a first message with no endpoint configured as one send with no attempts', () => {
    expect(sendsOf({ id, messageId: null, status: 'undelivered' }, [])).toEqual([
      {
        webhookId: id,
        resend: false,
        result: 'undelivered',
        firstAttemptAt: null,
        deliveredAt: null,
        attempts: [],
        documents: null,
      },
    ]);
  });
});
