import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LAST_ACTIVITY_STORAGE_KEY,
  lastActivityAcrossTabs,
  shareLastActivity,
} from './idle-session-guard.tsx';

/** A Map-backed stand-in for the browser's localStorage (the unit tests run in Node). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, String(value));
    },
  };
}

function throwingStorage(): Storage {
  const fail = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return { length: 0, clear: fail, getItem: fail, key: fail, removeItem: fail, setItem: fail };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('last activity shared between tabs (one cookie session for every tab)', () => {
  it('records only the timestamp, under idle:lastActivity', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    shareLastActivity(1_700_000_000_000);
    expect(LAST_ACTIVITY_STORAGE_KEY).toBe('idle:lastActivity');
    expect(storage.length).toBe(1);
    expect(storage.getItem('idle:lastActivity')).toBe('1700000000000');
  });

  it("counts another tab's newer activity, and this tab's own when it is newer", () => {
    vi.stubGlobal('localStorage', memoryStorage());
    shareLastActivity(5_000);
    expect(lastActivityAcrossTabs(2_000)).toBe(5_000);
    expect(lastActivityAcrossTabs(9_000)).toBe(9_000);
  });

  it("falls back to this tab's own activity when nothing usable is stored", () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    expect(lastActivityAcrossTabs(3_000)).toBe(3_000);
    storage.setItem(LAST_ACTIVITY_STORAGE_KEY, 'not a number');
    expect(lastActivityAcrossTabs(3_000)).toBe(3_000);
  });

  it('keeps working when storage throws or does not exist', () => {
    vi.stubGlobal('localStorage', throwingStorage());
    expect(() => shareLastActivity(4_000)).not.toThrow();
    expect(lastActivityAcrossTabs(4_000)).toBe(4_000);
    vi.stubGlobal('localStorage', undefined);
    expect(() => shareLastActivity(4_000)).not.toThrow();
    expect(lastActivityAcrossTabs(4_000)).toBe(4_000);
  });
});
