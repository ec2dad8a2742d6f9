/**
 * Shared Fastify types: the zod-typed instance and the per-route access declaration.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FileDuty } from '../domain/review/file-duties.ts';
import type { Auth } from './auth/auth.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { Env } from './env.ts';
import type { Mailer } from './mail/mailer.ts';
import type { FieldCipher } from './security/field-cipher.ts';
import type { RateLimits } from './security/rate-limits.ts';
import type { ObjectStorage } from './storage/object-storage.ts';

/** Who may call a route; every /api route declares one in `config.access` (checked at registration). */
export type RouteAccess = 'public' | 'signed-in' | 'provider' | 'admin';

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Everything a route handler may need, decorated on the Fastify instance as `deps`. */
export interface AppDeps {
  env: Env;
  db: Database;
  database: DatabaseHandle;
  auth: Auth;
  /** Sessions this instance verified in the last SESSION_CACHE_SECONDS (decision 015). */
  sessionCache: SessionCache;
  mailer: Mailer;
  /** Encrypts SSN and other field-level PHI at rest. */
  cipher: FieldCipher;
  /** Document objects (bucket provider-documents, spec §3); built in runtime.ts from env. */
  storage: ObjectStorage;
  /** Attempt limits shared through the database (sign-in, mail requests, uploads; decision 010). */
  rateLimits: RateLimits;
}

/**
 * What a staff route does to which credentialing file (issue 50 item 1): the duty (domain/review/
 * file-duties.ts) and where the file is named: the `applicationId` param, a screening finding's `id`
 * param, an agenda item's `itemId` param, or the body's `applicationId` (adding to an agenda).
 */
export interface RouteFileDuty {
  duty: FileDuty;
  file: 'application' | 'screening_finding' | 'agenda_item' | 'body_application';
}

/** One registered API route (collected at registration; the authorization matrix test reads it). */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** The file duty the route declares, when it acts on a file (issue 50 item 1). */
  fileDuty?: RouteFileDuty;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every /api route with its declared access, in registration order. */
    routeTable: RegisteredRoute[];
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Set on staff routes that act on a file: server/review/file-duty-guard.ts refuses its provider. */
    fileDuty?: RouteFileDuty;
    /**
     * A GET of a file a committee member may read too (issue 50 item 6): its feature's first check
     * lets `read:meeting:member` through, and the handler checks the file (review/file-readers.ts).
     */
    committeeReads?: boolean;
  }
}
