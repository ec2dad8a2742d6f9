/**
 * The payload lists rows in the order the screens show them (one ORDER BY for screen, admin and
 * payload): CME by completion date, newest first, undated last (spec §9).
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { cme } from '../db/schema/sections.ts';
import { loadCompletionSource } from './completion-payload.ts';
import { createCompletedApplication } from './testing/completed-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe('loadCompletionSource', () => {
  it('lists CME credits newest first with undated ones last, as the CME screen does', async () => {
    const provider = await signUpAndSignIn(app);
    const { db, storage, cipher } = app.runtime.deps;
    const { applicationId } = await createCompletedApplication({
      db,
      storage,
      cipher,
      userId: provider.userId,
    });
    // The factory's row is 'Sepsis update', completed 2024-03-01.
    await db.insert(cme).values([
      { applicationId, activityTitle: 'Undated course', providerName: 'ACP' },
      { applicationId, activityTitle: 'Older course', providerName: 'ACP', completionDate: '2019-05-01' },
      { applicationId, activityTitle: 'Newer course', providerName: 'ACP', completionDate: '2025-01-15' },
    ]);
    const screen = await provider.json<{ rows: { activityTitle: string }[] }>(
      'GET',
      `/api/applications/${applicationId}/sections/cme`,
    );

    const source = await loadCompletionSource({
      db,
      cipher,
      logger: pino({ level: 'silent' }),
      notification: { id: randomUUID(), applicationId, userId: provider.userId, createdAt: new Date() },
    });

    const sent = source.lists.cme.map((row) => (row as { activity_title: string }).activity_title);
    expect(sent).toEqual(['Newer course', 'Sepsis update', 'Older course', 'Undated course']);
    expect(screen.body.rows.map((row) => row.activityTitle)).toEqual(sent);
  });
});
