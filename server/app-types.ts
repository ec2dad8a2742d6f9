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

/** One registered API route (collected at registration; the authorization matrix test reads it). */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every /api route with its declared access, in registration order. */
    routeTable: RegisteredRoute[];
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
