/**
 * The scopes of API clients (issue 33 item 4): which held scopes grant which, the SMART v2 aliases,
 * and how a token request's `scope` parameter is read.
 */
import { describe, expect, it } from 'vitest';
import {
  apiClientScopes,
  canonicalScope,
  checkPublicJwks,
  fhirResourceTypes,
  grantsScope,
  isApiClientScope,
  jwksKeyIds,
  orderScopes,
  type PublicJwk,
  requestedScopes,
} from './api-clients.ts';

describe('grantsScope', () => {
  it('grants a resource scope only to its own scope or system/*.read', () => {
    expect(grantsScope(['system/Practitioner.read'], 'system/Practitioner.read')).toBe(true);
    expect(grantsScope(['system/Practitioner.read'], 'system/Location.read')).toBe(false);
    expect(grantsScope(['system/Practitioner.read'], 'system/PractitionerRole.read')).toBe(false);
    for (const type of fhirResourceTypes) {
      expect(grantsScope(['system/*.read'], `system/${type}.read`), type).toBe(true);
    }
    // A type the API may serve later is covered by the wildcard, never by another type's scope.
    expect(grantsScope(['system/*.read'], 'system/Endpoint.read')).toBe(true);
    expect(grantsScope(['system/Location.read'], 'system/Endpoint.read')).toBe(false);
  });

  it('never lets system/*.read reach the rosters, nor roster.read reach FHIR', () => {
    expect(grantsScope(['system/*.read'], 'roster.read')).toBe(false);
    expect(grantsScope(['roster.read'], 'roster.read')).toBe(true);
    expect(grantsScope(['roster.read'], 'system/Practitioner.read')).toBe(false);
    expect(grantsScope(['roster.read'], 'system/*.read')).toBe(false);
  });

  it('grants system/*.read only to the wildcard held by name, never to every type scope', () => {
    expect(grantsScope(['system/*.read'], 'system/*.read')).toBe(true);
    expect(grantsScope(['system/*.rs'], 'system/*.read')).toBe(true);
    const allButOne = fhirResourceTypes.slice(1).map((type) => `system/${type}.read`);
    expect(grantsScope(allButOne, 'system/*.read')).toBe(false);
    // Issue 52 item 3: all five types do not add up to the wildcard, which also covers later types.
    const all = fhirResourceTypes.map((type) => `system/${type}.read`);
    expect(grantsScope(all, 'system/*.read')).toBe(false);
    expect(requestedScopes(all, 'system/*.read')).toEqual({ ok: false, refused: ['system/*.read'] });
  });

  it('reads the SMART v2 .rs spelling on either side, and refuses anything else', () => {
    expect(grantsScope(['system/Practitioner.rs'], 'system/Practitioner.read')).toBe(true);
    expect(grantsScope(['system/Practitioner.read'], 'system/Practitioner.rs')).toBe(true);
    expect(grantsScope(['system/*.rs'], 'system/Location.read')).toBe(true);
    expect(grantsScope(['system/*.read'], 'system/Practitioner.write')).toBe(false);
    expect(grantsScope(['system/*.read'], 'system/Practitioner.cruds')).toBe(false);
    expect(grantsScope(['system/*.read'], 'user/Practitioner.read')).toBe(false);
    expect(grantsScope(['system/*.read'], 'patient/*.read')).toBe(false);
    expect(grantsScope(['system/*.read'], 'system/practitioner.read')).toBe(false);
    expect(grantsScope(['system/*.read'], '')).toBe(false);
    expect(grantsScope([], 'system/Practitioner.read')).toBe(false);
  });
});

describe('scope spellings', () => {
  it('stores the .read spelling and knows exactly the scopes of issue 33', () => {
    expect(canonicalScope('system/Location.rs')).toBe('system/Location.read');
    expect(canonicalScope('system/*.rs')).toBe('system/*.read');
    expect(canonicalScope('roster.read')).toBe('roster.read');
    expect(canonicalScope('roster.rs')).toBe('roster.rs');
    for (const scope of apiClientScopes) expect(isApiClientScope(scope), scope).toBe(true);
    expect(isApiClientScope('system/Practitioner.rs')).toBe(true);
    expect(isApiClientScope('system/Endpoint.read')).toBe(false);
    expect(isApiClientScope('system/Practitioner.write')).toBe(false);
    expect(isApiClientScope('openid')).toBe(false);
  });

  it('orders and de-duplicates known scopes, dropping unknown ones', () => {
    expect(orderScopes(['roster.read', 'system/*.read', 'roster.read', 'nonsense'])).toEqual([
      'system/*.read',
      'roster.read',
    ]);
  });
});

describe('requestedScopes (RFC 6749 §3.3)', () => {
  const held = ['system/*.read', 'roster.read'];

  it('grants everything held when no scope is asked for', () => {
    expect(requestedScopes(held, undefined)).toEqual({ ok: true, scopes: ['system/*.read', 'roster.read'] });
    expect(requestedScopes(['system/Location.rs'], '   ')).toEqual({
      ok: true,
      scopes: ['system/Location.read'],
    });
  });

  it('grants a narrower subset, canonical and de-duplicated', () => {
    expect(requestedScopes(held, 'system/Practitioner.rs  system/Practitioner.read roster.read')).toEqual({
      ok: true,
      scopes: ['system/Practitioner.read', 'roster.read'],
    });
  });

  it('refuses a scope not held or not known, naming each once', () => {
    expect(requestedScopes(['system/Practitioner.read'], 'system/Practitioner.read roster.read')).toEqual({
      ok: false,
      refused: ['roster.read'],
    });
    expect(requestedScopes(held, 'openid openid system/Endpoint.read')).toEqual({
      ok: false,
      refused: ['openid', 'system/Endpoint.read'],
    });
  });
});

describe('checkPublicJwks', () => {
  // Synthetic public members of the right sizes: a 2048-bit modulus (top bit set) and P-384 coordinates.
  const n = `w${'A'.repeat(341)}`;
  const rsaKey = { kty: 'RSA', kid: 'r1', n, e: 'AQAB' };
  const ecKey = { kty: 'EC', kid: 'e1', crv: 'P-384', x: 'B'.repeat(64), y: 'C'.repeat(64) };

  it('keeps the public members of RS384 and ES384 keys only', () => {
    expect(
      checkPublicJwks({
        keys: [
          { ...rsaKey, alg: 'RS384', x5c: ['...'], ext: true },
          { ...ecKey, use: 'sig' },
        ],
      }),
    ).toEqual({
      ok: true,
      jwks: {
        keys: [
          { kty: 'RSA', kid: 'r1', alg: 'RS384', n, e: 'AQAB' },
          { ...ecKey, use: 'sig' },
        ],
      },
    });
    expect(jwksKeyIds({ keys: [rsaKey as PublicJwk, ecKey as PublicJwk] })).toEqual(['r1', 'e1']);
    expect(jwksKeyIds(null)).toEqual([]);
  });

  it('refuses private or symmetric material, other key kinds, small or large moduli, and unbounded sets', () => {
    const refused = (value: unknown) => {
      const result = checkPublicJwks(value);
      return result.ok ? 'accepted' : result.message;
    };
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']) {
      expect(refused({ keys: [{ ...rsaKey, [member]: 'AAAA' }] }), member).toMatch(/private key material/);
    }
    expect(refused({ keys: [{ kty: 'oct', kid: 'h', k: 'AAAA' }] })).toMatch(/private key material \(k\)/);
    expect(refused({ keys: [{ kty: 'OKP', kid: 'o', crv: 'Ed25519', x: 'AAAA' }] })).toMatch(
      /kty must be RSA/,
    );
    // 2047 bits: the top bit of the first octet clear; a leading zero octet; 8200 bits.
    expect(refused({ keys: [{ ...rsaKey, n: `f${'A'.repeat(341)}` }] })).toMatch(/2048 to 8192 bits/);
    expect(refused({ keys: [{ ...rsaKey, n: `AA${'w'.repeat(342)}` }] })).toMatch(/2048 to 8192 bits/);
    expect(refused({ keys: [{ ...rsaKey, n: `w${'A'.repeat(1367)}` }] })).toMatch(/2048 to 8192 bits/);
    expect(refused({ keys: [{ ...ecKey, x: 'B'.repeat(43) }] })).toMatch(/48 bytes each/);
    expect(refused({ keys: [{ ...ecKey, alg: 'ES256' }] })).toMatch(/alg must be ES384/);
    expect(refused({ keys: [{ ...rsaKey, key_ops: ['verify', 'sign'] }] })).toMatch(
      /key_ops must be \["verify"\]/,
    );
    expect(refused({ keys: [{ ...rsaKey, kid: 'x'.repeat(201) }] })).toMatch(/kid of 1 to 200/);
    expect(refused({ keys: Array.from({ length: 11 }, (_, i) => ({ ...ecKey, kid: `k${i}` })) })).toMatch(
      /1 to 10 keys/,
    );
    expect(refused({ keys: [{ ...rsaKey, padding: 'x'.repeat(40_000) }] })).toMatch(
      /at most 32768 characters/,
    );
    expect(refused([rsaKey])).toMatch(/\{ "keys": \[ \.\.\. \] \}/);
    expect(refused(null)).toMatch(/\{ "keys": \[ \.\.\. \] \}/);
  });
});
