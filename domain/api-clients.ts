/**
 * The scopes of machine clients (issue 33 item 4): what an 'API Client' may be granted and what a
 * bearer token of `POST /oauth/token` carries. Pure, shared by the server (registration, the token
 * endpoint, the bearer guard) and the web.
 *
 * Scopes follow SMART App Launch's system scopes (HL7 SMART App Launch 2.x, "Scopes for requesting
 * FHIR resources"; SMART Backend Services): `system/<ResourceType>.read` reads and searches one FHIR
 * resource type, `system/*.read` every type. `roster.read` is this product's own scope for the roster
 * downloads (CSV and XLSX), which are not FHIR and are never covered by `system/*.read`.
 *
 * SMART v2 spellings are accepted as aliases: `system/Practitioner.rs` (read + search) means
 * `system/Practitioner.read`, and `system/*.rs` means `system/*.read`. They are stored, granted and
 * answered in the v1 `.read` spelling (`canonicalScope`).
 */

/** The FHIR R4 resource types the directory API serves (issue 33 item 3). */
export const fhirResourceTypes = [
  'Practitioner',
  'PractitionerRole',
  'Location',
  'Organization',
  'VerificationResult',
] as const;
export type FhirResourceType = (typeof fhirResourceTypes)[number];

/** Every scope a client may hold, in the order lists show them. */
export const apiClientScopes = [
  'system/Practitioner.read',
  'system/PractitionerRole.read',
  'system/Location.read',
  'system/Organization.read',
  'system/VerificationResult.read',
  'system/*.read',
  'roster.read',
] as const;
export type ApiClientScope = (typeof apiClientScopes)[number];

/** What each scope lets a client read, for lists and the CLI's help. */
export const apiClientScopeLabel: Record<ApiClientScope, string> = {
  'system/Practitioner.read': 'FHIR Practitioner',
  'system/PractitionerRole.read': 'FHIR PractitionerRole',
  'system/Location.read': 'FHIR Location',
  'system/Organization.read': 'FHIR Organization',
  'system/VerificationResult.read': 'FHIR VerificationResult',
  'system/*.read': 'Every FHIR resource type, and Bulk Data export',
  'roster.read': 'Roster downloads (CSV, XLSX)',
};

/** Longest scope string read, in characters (a `scope` parameter is cut into these). */
export const API_CLIENT_SCOPE_MAX_LENGTH = 100;
/** Most scopes one request or client may name. */
export const API_CLIENT_SCOPES_MAX = 20;
/** Longest client name, in characters. */
export const API_CLIENT_NAME_MAX_LENGTH = 100;

/** `system/<Type>.<read|rs>` with a FHIR-like type name (letters, from a capital), or `*`. */
const SYSTEM_SCOPE = /^system\/(\*|[A-Z][A-Za-z]{0,63})\.(read|rs)$/;

/**
 * The stored spelling of `scope`: the SMART v2 alias `.rs` becomes `.read`; anything that is not a
 * system scope or `roster.read` is returned unchanged (and is then not a known scope).
 * @example canonicalScope('system/Practitioner.rs') // 'system/Practitioner.read'
 */
export function canonicalScope(scope: string): string {
  const match = SYSTEM_SCOPE.exec(scope);
  return match ? `system/${match[1]}.read` : scope;
}

/** Whether `scope` (either spelling) is one a client may be given (`apiClientScopes`). */
export function isApiClientScope(scope: string): boolean {
  return (apiClientScopes as readonly string[]).includes(canonicalScope(scope));
}

/**
 * Whether scopes `held` (a client's or a token's) grant `needed`. Both sides may use either
 * spelling. `system/*.read` grants every `system/<Type>.read` (any type name, so a type added to the
 * API later is covered) but never `roster.read`; `system/*.read` itself is granted only by
 * `system/*.read` held by name (issue 52 item 3): the five type scopes do not add up to the
 * wildcard, which would also cover types added later. An unknown or malformed `needed` is never
 * granted.
 * @example grantsScope(['system/*.read'], 'system/Location.read') // true
 * @example grantsScope(['system/*.read'], 'roster.read') // false
 */
export function grantsScope(held: readonly string[], needed: string): boolean {
  const want = canonicalScope(needed);
  const have = new Set(held.map(canonicalScope));
  if (want === 'roster.read') return have.has('roster.read');
  const match = SYSTEM_SCOPE.exec(want);
  if (!match) return false;
  if (have.has('system/*.read')) return true;
  if (match[1] === '*') return false;
  return have.has(want);
}

/** The outcome of reading a requested scope list: the canonical scopes, or why it is refused. */
export type ScopeRequest = { ok: true; scopes: string[] } | { ok: false; refused: string[] };

/**
 * Read a space-separated OAuth `scope` parameter (RFC 6749 §3.3) against the scopes a client holds:
 * every scope must be known (`isApiClientScope`) and granted by `held` (`grantsScope`, so a client
 * holding `system/*.read` may ask for `system/Location.read` alone). Repeats are dropped; the result
 * is canonical and in `apiClientScopes` order. An empty or blank `scope` asks for everything held.
 */
export function requestedScopes(held: readonly string[], scope: string | undefined): ScopeRequest {
  const asked = (scope ?? '').split(' ').filter((s) => s !== '');
  if (asked.length === 0) return { ok: true, scopes: orderScopes(held.map(canonicalScope)) };
  const refused = asked.filter((s) => !isApiClientScope(s) || !grantsScope(held, s));
  if (refused.length > 0) return { ok: false, refused: [...new Set(refused)] };
  return { ok: true, scopes: orderScopes(asked.map(canonicalScope)) };
}

/** Known scopes of `scopes`, each once, in `apiClientScopes` order. */
export function orderScopes(scopes: readonly string[]): string[] {
  const set = new Set(scopes);
  return apiClientScopes.filter((scope) => set.has(scope));
}

/**
 * Signing algorithms of a client's assertion (`private_key_jwt`): SMART Backend Services requires
 * servers to support RS384 and ES384, and these are the only ones accepted (never HS*, never `none`).
 */
export const assertionSigningAlgorithms = ['RS384', 'ES384'] as const;
export type AssertionSigningAlgorithm = (typeof assertionSigningAlgorithms)[number];

/** Most keys in a client's JSON Web Key Set. */
export const API_CLIENT_JWKS_MAX_KEYS = 10;
/** Longest JSON Web Key Set read (its JSON), in characters. */
export const API_CLIENT_JWKS_MAX_CHARS = 32 * 1024;
/** Longest `kid`, in characters. */
export const API_CLIENT_KEY_ID_MAX_LENGTH = 200;

/**
 * One public key of a client, as stored: only these members are kept (RFC 7517 §4, RFC 7518 §6.2.1
 * and §6.3.1); anything else a registration sends (x5c, ...) is dropped.
 */
export type PublicJwk =
  | { kty: 'RSA'; kid: string; alg?: 'RS384'; use?: 'sig'; key_ops?: ['verify']; n: string; e: string }
  | {
      kty: 'EC';
      kid: string;
      alg?: 'ES384';
      use?: 'sig';
      key_ops?: ['verify'];
      crv: 'P-384';
      x: string;
      y: string;
    };

/** A client's public JSON Web Key Set (RFC 7517 §5). */
export interface PublicJwks {
  keys: PublicJwk[];
}

/** Members of a JWK that carry private or symmetric key material (RFC 7518 §6.2.2, §6.3.2, §6.4.1). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Bytes a base64url string without padding decodes to. */
function base64urlBytes(value: string): number {
  return Math.floor((value.length * 3) / 4);
}

/** Bits of the unsigned big-endian integer a base64url string encodes, or 0 with a leading zero octet. */
function base64urlBits(value: string): number {
  const bytes = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
  const first = bytes.charCodeAt(0);
  if (bytes.length === 0 || first === 0) return 0;
  return (bytes.length - 1) * 8 + Math.floor(Math.log2(first)) + 1;
}

/**
 * Check a JSON Web Key Set sent at registration (structure only; the server also imports each key)
 * and return the copy to store. Refused, with a message a person can act on: anything that is not
 * `{ "keys": [ ... ] }` with 1 to API_CLIENT_JWKS_MAX_KEYS keys or whose JSON is over
 * API_CLIENT_JWKS_MAX_CHARS characters; a key holding private material (`d`, `p`, `q`, `dp`, `dq`,
 * `qi`, `oth`, or a symmetric `k`); a key other than RSA (2048 to 8192 bits, for RS384) or EC on
 * P-384 (for ES384), as SMART Backend Services requires; a missing, long or repeated `kid` (SMART:
 * the kid "SHALL be unique within the client's JWK Set"); an `alg` other than the key type's,
 * a `use` other than `sig`, `key_ops` other than `["verify"]`.
 * @returns `{ ok: true, jwks }` (the public members only) or `{ ok: false, message }`
 */
export function checkPublicJwks(
  value: unknown,
): { ok: true; jwks: PublicJwks } | { ok: false; message: string } {
  const refuse = (message: string) => ({ ok: false as const, message });
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return refuse('The JSON Web Key Set must be a JSON object: { "keys": [ ... ] }.');
  if (json.length > API_CLIENT_JWKS_MAX_CHARS) {
    return refuse(`The JSON Web Key Set may be at most ${API_CLIENT_JWKS_MAX_CHARS} characters of JSON.`);
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(keys)) {
    return refuse('The JSON Web Key Set must be a JSON object: { "keys": [ ... ] } (RFC 7517 §5).');
  }
  if (keys.length === 0 || keys.length > API_CLIENT_JWKS_MAX_KEYS) {
    return refuse(`The JSON Web Key Set must hold 1 to ${API_CLIENT_JWKS_MAX_KEYS} keys.`);
  }
  const stored: PublicJwk[] = [];
  const seen = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const at = `Key ${index + 1}`;
    if (typeof key !== 'object' || key === null || Array.isArray(key))
      return refuse(`${at} is not a JSON object.`);
    const jwk = key as Record<string, unknown>;
    const secret = PRIVATE_MEMBERS.filter((member) => Object.hasOwn(jwk, member));
    if (secret.length > 0) {
      return refuse(
        `${at} holds private key material (${secret.join(', ')}): register the public key only, and keep the private key with the client.`,
      );
    }
    const kid = jwk.kid;
    if (typeof kid !== 'string' || kid.length === 0 || kid.length > API_CLIENT_KEY_ID_MAX_LENGTH) {
      return refuse(
        `${at} needs a kid of 1 to ${API_CLIENT_KEY_ID_MAX_LENGTH} characters: assertions name their key by it.`,
      );
    }
    const named = `${at} (kid ${kid.slice(0, 60)})`;
    if (seen.has(kid)) return refuse(`${named}: each key needs its own kid.`);
    seen.add(kid);
    if (jwk.use !== undefined && jwk.use !== 'sig') return refuse(`${named}: use must be "sig".`);
    if (
      jwk.key_ops !== undefined &&
      !(Array.isArray(jwk.key_ops) && jwk.key_ops.length === 1 && jwk.key_ops[0] === 'verify')
    ) {
      return refuse(`${named}: key_ops must be ["verify"].`);
    }
    const common = {
      kid,
      ...(jwk.use === 'sig' ? { use: 'sig' as const } : {}),
      ...(jwk.key_ops !== undefined ? { key_ops: ['verify'] as ['verify'] } : {}),
    };
    if (jwk.kty === 'RSA') {
      if (jwk.alg !== undefined && jwk.alg !== 'RS384')
        return refuse(`${named}: an RSA key's alg must be RS384.`);
      const { n, e } = jwk;
      if (
        typeof n !== 'string' ||
        !BASE64URL.test(n) ||
        typeof e !== 'string' ||
        !BASE64URL.test(e) ||
        e.length > 8
      ) {
        return refuse(`${named}: an RSA public key needs n and e, base64url-encoded.`);
      }
      const bits = n.length % 4 === 1 || n.length > 1400 ? 0 : base64urlBits(n);
      if (bits < 2048 || bits > 8192) return refuse(`${named}: the RSA modulus must be 2048 to 8192 bits.`);
      stored.push({ kty: 'RSA', ...common, ...(jwk.alg ? { alg: 'RS384' as const } : {}), n, e });
    } else if (jwk.kty === 'EC') {
      if (jwk.alg !== undefined && jwk.alg !== 'ES384')
        return refuse(`${named}: an EC key's alg must be ES384.`);
      if (jwk.crv !== 'P-384') return refuse(`${named}: an EC key must be on the curve P-384 (ES384).`);
      const { x, y } = jwk;
      if (
        typeof x !== 'string' ||
        typeof y !== 'string' ||
        !BASE64URL.test(x) ||
        !BASE64URL.test(y) ||
        base64urlBytes(x) !== 48 ||
        base64urlBytes(y) !== 48
      ) {
        return refuse(`${named}: a P-384 public key needs x and y of 48 bytes each, base64url-encoded.`);
      }
      stored.push({
        kty: 'EC',
        ...common,
        ...(jwk.alg ? { alg: 'ES384' as const } : {}),
        crv: 'P-384',
        x,
        y,
      });
    } else {
      return refuse(
        `${named}: kty must be RSA (for RS384) or EC (P-384, for ES384), as SMART Backend Services requires.`,
      );
    }
  }
  return { ok: true, jwks: { keys: stored } };
}

/** The `kid`s of a stored key set, in its order; none for a client without one. */
export function jwksKeyIds(jwks: PublicJwks | null | undefined): string[] {
  return jwks?.keys.map((key) => key.kid) ?? [];
}
