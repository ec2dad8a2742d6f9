/** Per-file test setup: an unexpected console.error fails the test (style.md habit 9). */
import { afterEach, beforeEach, vi } from 'vitest';

let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error: ${errors.map((e) => e.map(String).join(' ')).join('\n')}`);
  }
});
