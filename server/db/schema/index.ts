/** The Drizzle schema: the source of truth for every table (style.md habit 3). */

export * from './attestations.ts';
export * from './audit.ts';
export * from './auth.ts';
export * from './committee.ts';
export * from './core.ts';
export * from './credentials.ts';
export * from './documents.ts';
export * from './exports.ts';
export * from './instances.ts';
export * from './notifications.ts';
export * from './rate-limits.ts';
export * from './reports.ts';
export * from './review.ts';
export * from './screening.ts';
export * from './sections.ts';
