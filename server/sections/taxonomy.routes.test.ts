/**
 * GET /api/taxonomy (issue 31 item 1) against the real app: 401 signed out; a provider and an
 * administrator get the shipped NUCC code set, every row of the file in the file's order; the route
 * and its response schema are in the OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxonomyResponse } from '../../domain/api/taxonomy.ts';
import { NUCC_TAXONOMY_VERSION } from '../../domain/sections/taxonomy/nucc-taxonomy.ts';
import { Client, createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { taxonomyFileUrl } from './taxonomy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The data rows of the shipped file, read here without the server's parser. */
function fileRows(): string[][] {
  const [, ...rows] = parse(readFileSync(taxonomyFileUrl, 'utf8'), { bom: true, skip_empty_lines: true });
  return rows as string[][];
}

describe('GET /api/taxonomy', () => {
  it('answers 401 when signed out', async () => {
    const anonymous = new Client(app);
    expect((await anonymous.json('GET', '/api/taxonomy')).status).toBe(401);
  });

  it("gives a provider every code of the shipped file, in the file's order", async () => {
    const provider = await signUpAndSignIn(app);
    const { status, body } = await provider.json<TaxonomyResponse>('GET', '/api/taxonomy');
    expect(status).toBe(200);
    expect(body.version).toBe(NUCC_TAXONOMY_VERSION);
    const rows = fileRows();
    expect(rows.length).toBeGreaterThan(800);
    expect(body.entries).toHaveLength(rows.length);
    expect(body.entries.map((entry) => entry.code)).toEqual(rows.map((row) => row[0]?.trim()));
    expect(body.entries.find((entry) => entry.code === '207RC0000X')).toEqual({
      code: '207RC0000X',
      grouping: 'Allopathic & Osteopathic Physicians',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
      displayName: 'Cardiovascular Disease Physician',
      section: 'Individual',
    });
    // A classification-level code has no specialization.
    expect(body.entries.find((entry) => entry.code === '207R00000X')).toMatchObject({
      classification: 'Internal Medicine',
      specialization: '',
    });
  });

  it('is in the OpenAPI document with its response schema', async () => {
    const { status, body } = await new Client(app).json<{
      paths: Record<string, { get?: { responses?: Record<string, unknown> } }>;
    }>('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(JSON.stringify(body.paths['/api/taxonomy']?.get?.responses?.['200'])).toContain('specialization');
  });

  it('gives an administrator the same code set', async () => {
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const { status, body } = await admin.json<TaxonomyResponse>('GET', '/api/taxonomy');
    expect(status).toBe(200);
    expect(body.entries).toHaveLength(fileRows().length);
  });
});
