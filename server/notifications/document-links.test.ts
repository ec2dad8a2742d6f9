/**
 * The signed links of `links` mode (issue 20, decision 017) as a unit: only this server's key, this
 * document and an unexpired time pass; the token is redacted from request logs like a reset token.
 */
import { describe, expect, it } from 'vitest';
import { safeLogPath } from '../logger.ts';
import { createDocumentLinks } from './document-links.ts';

const secret = 'a'.repeat(40);
const links = createDocumentLinks({ secret, appUrl: 'https://portal.example.org' });
const documentId = '0b6f7c1e-3c1a-4a51-9b8e-2a0c6f1d9e11';
const otherId = '7d2b5a90-1f4e-4c3b-8a77-5e6d4c3b2a19';
const now = Date.parse('2026-11-23T12:00:00Z');
const expires = now / 1000 + 3600;

function tokenOf(url: string): string {
  return new URL(url).pathname.split('/').pop()!;
}

describe('createDocumentLinks', () => {
  it('mints an absolute URL on the public base URL that verifies for its document until it expires', () => {
    const url = links.mint(documentId, expires);
    expect(url).toMatch(
      new RegExp(
        `^https://portal\\.example\\.org/api/notification-documents/${documentId}/${expires}\\.[A-Za-z0-9_-]{43}$`,
      ),
    );
    expect(links.verify(documentId, tokenOf(url), now)).toEqual({
      ok: true,
      expiresAt: new Date(expires * 1000),
    });
    expect(links.verify(documentId, tokenOf(url), expires * 1000 - 1)).toMatchObject({ ok: true });
    expect(links.verify(documentId, tokenOf(url), expires * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another document, an altered MAC or expiry, another key and malformed tokens', () => {
    const token = tokenOf(links.mint(documentId, expires));
    const [time, mac] = token.split('.') as [string, string];
    expect(links.verify(otherId, token, now)).toEqual({ ok: false, reason: 'altered' });
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'x' ? 'y' : 'x'}${mac.slice(11)}`;
    expect(links.verify(documentId, `${time}.${flipped}`, now)).toEqual({ ok: false, reason: 'altered' });
    expect(links.verify(documentId, `${Number(time) + 1}.${mac}`, now)).toEqual({
      ok: false,
      reason: 'altered',
    });
    const otherServer = createDocumentLinks({ secret: 'b'.repeat(40), appUrl: 'https://portal.example.org' });
    expect(otherServer.verify(documentId, token, now)).toEqual({ ok: false, reason: 'altered' });
    for (const bad of [
      '',
      token.slice(0, -1),
      `${token}A`,
      mac,
      `-1.${mac}`,
      `${time}.${mac.replace(/./, '+')}`,
    ]) {
      expect(links.verify(documentId, bad, now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('puts a token in the path that the request log redacts', () => {
    const path = new URL(links.mint(documentId, expires)).pathname;
    expect(safeLogPath(path)).toBe(`/api/notification-documents/${documentId}/:redacted`);
    expect(safeLogPath(`${path}?x=1`)).not.toContain(path.split('/').pop()!);
  });
});
