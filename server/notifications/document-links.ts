/**
 * Signed download links of `links` mode (issue 20 item 1; docs/decisions/017-notification-documents-links.md).
 *
 * With NOTIFY_DOCUMENTS=links each document of the completion notification carries
 * `downloadUrl = <APP_URL>/api/notification-documents/<documentId>/<expires>.<mac>`, where
 *
 * - `expires` is Unix seconds (the attempt's `webhook-timestamp` + NOTIFY_LINK_TTL_MINUTES), and
 * - `mac` = base64url(HMAC-SHA256(linkKey, "<documentId>.<expires>")), 43 characters;
 * - `linkKey` = HKDF-SHA256(AUTH_SECRET, info "credentialing/notification-document-link/v1"), a key
 *   used for nothing else and known only to this server (not to the receiver, which holds the
 *   webhook secret: it must not be able to mint links to other documents).
 *
 * The link works without a session, for that document only, until `expires`; the route
 * (notification-documents.routes.ts) streams the bytes through this server and audits every fetch.
 * The token always holds digits and a dot, so the request log's `safeLogPath` redacts it.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The route that serves a link (GET; public: the token is the capability). */
export const NOTIFICATION_DOCUMENT_ROUTE = '/api/notification-documents/:documentId/:token';

const KEY_INFO = 'credentialing/notification-document-link/v1';
const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Why a link was refused (logged; the caller only ever sees 403). */
export type LinkRefusal = 'malformed' | 'altered' | 'expired';

export type LinkCheck = { ok: true; expiresAt: Date } | { ok: false; reason: LinkRefusal };

export interface DocumentLinks {
  /**
   * The absolute download URL of `documentId`, valid until `expiresAt` (Unix seconds).
   * @example mint('0b6f…', 1764000000) // 'https://portal.example/api/notification-documents/0b6f…/1764000000.Xk…'
   */
  mint(documentId: string, expiresAt: number): string;
  /**
   * Check the token of a request for `documentId`: signed by this server for this document, and
   * `now` (ms since the epoch) before its expiry. Constant-time comparison of the MAC.
   */
  verify(documentId: string, token: string, now: number): LinkCheck;
}

export interface DocumentLinkOptions {
  /** AUTH_SECRET (or the random one kept in DATA_DIR): the link key is derived from it with HKDF. */
  secret: string;
  /** The public origin (env.appUrl, as reset-password links use). */
  appUrl: string;
}

/** Signs and checks `links` mode download links (see the module comment for the format). */
export function createDocumentLinks({ secret, appUrl }: DocumentLinkOptions): DocumentLinks {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32));
  const mac = (documentId: string, expiresAt: number) =>
    createHmac('sha256', key).update(`${documentId}.${expiresAt}`).digest('base64url');
  return {
    mint(documentId, expiresAt) {
      const token = `${expiresAt}.${mac(documentId, expiresAt)}`;
      return new URL(`/api/notification-documents/${encodeURIComponent(documentId)}/${token}`, appUrl).href;
    },
    verify(documentId, token, now) {
      const match = TOKEN.exec(token);
      if (!match) return { ok: false, reason: 'malformed' };
      const expiresAt = Number(match[1]);
      const expected = Buffer.from(mac(documentId, expiresAt));
      const given = Buffer.from(match[2]!);
      if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'altered' };
      if (now >= expiresAt * 1000) return { ok: false, reason: 'expired' };
      return { ok: true, expiresAt: new Date(expiresAt * 1000) };
    },
  };
}
