import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFieldCipher, loadFieldCipher } from './field-cipher.ts';

describe('field cipher (AES-256-GCM)', () => {
  const keyA: [string, Buffer] = ['a', randomBytes(32)];
  const keyB: [string, Buffer] = ['b', randomBytes(32)];

  it('round-trips and never stores the plaintext', () => {
    const cipher = createFieldCipher([keyA]);
    const stored = cipher.encrypt('123-45-6789');
    expect(stored).not.toContain('6789');
    expect(stored.startsWith('v1:a:')).toBe(true);
    expect(cipher.decrypt(stored)).toBe('123-45-6789');
    // A fresh IV each time: equal plaintexts give different ciphertexts.
    expect(cipher.encrypt('123-45-6789')).not.toBe(stored);
  });

  it('rejects a tampered value', () => {
    const cipher = createFieldCipher([keyA]);
    const stored = cipher.encrypt('123-45-6789');
    const last = stored.at(-2) === 'A' ? 'B' : 'A';
    expect(() => cipher.decrypt(`${stored.slice(0, -2)}${last}${stored.at(-1)}`)).toThrow();
  });

  it('rotates keys: new values use the first key, old ones stay readable', () => {
    const before = createFieldCipher([keyA]);
    const old = before.encrypt('111-22-3333');
    const after = createFieldCipher([keyB, keyA]);
    expect(after.decrypt(old)).toBe('111-22-3333');
    expect(after.keyIdOf(after.encrypt('x'))).toBe('b');
    expect(() => createFieldCipher([keyB]).decrypt(old)).toThrow(/unknown key/);
  });

  it('creates a 0600 key file on first start and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cipher-'));
    const created: string[] = [];
    const first = loadFieldCipher({ dataDir: dir, onCreate: (f) => created.push(f) });
    const second = loadFieldCipher({ dataDir: dir, onCreate: (f) => created.push(f) });
    expect(created).toHaveLength(1);
    expect(fs.statSync(created[0]!).mode & 0o777).toBe(0o600);
    expect(second.decrypt(first.encrypt('secret'))).toBe('secret');
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses keys of the wrong size', () => {
    expect(() => createFieldCipher([['short', randomBytes(16)]])).toThrow(/32 bytes/);
  });
});
