/**
 * What the hardening suites share (hardening.test.ts, hardening-limits.test.ts): the apps a file
 * starts, each with its own settings, closed after its tests; and a multipart upload body.
 */
import { afterAll } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/harness.ts';

/**
 * A `createTestApp` whose apps are all closed after the file's tests. Call it at the top level of a
 * test file (it registers the file's afterAll).
 */
export function appStarter(): (...args: Parameters<typeof createTestApp>) => Promise<TestApp> {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });
  return async (...args) => {
    const app = await createTestApp(...args);
    apps.push(app);
    return app;
  };
}

/** A multipart upload of one file as `documentType`. */
export function uploadForm(documentType: string, name: string, bytes: Buffer): FormData {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}
