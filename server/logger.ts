/**
 * pino options shared by the server and CLIs. PHI never reaches logs (HIPAA 164.312(b)):
 * request bodies are not logged, cookies and auth headers are redacted, and any field named like a
 * PHI field is censored wherever it appears.
 */
import type { LoggerOptions } from 'pino';

/** Field names censored in any logged object (spec §3 personal_information and credentials). */
export const redactedPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.ssn',
  '*.dateOfBirth',
  '*.token',
  'password',
  'ssn',
  'token',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      // Only method, path without query (queries could carry identifiers) and request id.
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
    },
  };
}
