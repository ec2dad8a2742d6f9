/**
 * The one error type of the product (style.md habit 7). Codes map to HTTP statuses in one place;
 * the server answers `{ code, message, details? }` and the web client parses it back into a toast.
 */
import { z } from 'zod';

export const appErrorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'two_factor_required',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'weak_password',
  'rate_limited',
  'internal',
  'insufficient_storage',
  'bad_gateway',
  'service_unavailable',
] as const;
export type AppErrorCode = (typeof appErrorCodes)[number];

/** HTTP status of each code. */
export const httpStatusOf: Record<AppErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  two_factor_required: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  weak_password: 400,
  rate_limited: 429,
  internal: 500,
  insufficient_storage: 507,
  /** An outside service answered, but not with something usable (issue 30 item 6: NPPES). */
  bad_gateway: 502,
  service_unavailable: 503,
};

/** One problem with one field, e.g. `{ path: ['rows', 1, 'issueDate'], message: 'Enter a valid date' }`. */
export const fieldIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** Body of every error response. `issues` for validation errors, `reasons` for weak passwords. */
export const errorResponseSchema = z.object({
  code: z.enum(appErrorCodes),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
  reasons: z.array(z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The error answers a JSON route documents in OpenAPI (400, 401, 403, 404, 409), one shape each. */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
} as const;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly issues?: FieldIssue[];
  readonly reasons?: string[];

  constructor(
    code: AppErrorCode,
    message: string,
    extra: { issues?: FieldIssue[]; reasons?: string[] } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.issues = extra.issues;
    this.reasons = extra.reasons;
  }

  get status(): number {
    return httpStatusOf[this.code];
  }

  toResponse(): ErrorResponse {
    return { code: this.code, message: this.message, issues: this.issues, reasons: this.reasons };
  }
}

/** Convert zod issues to FieldIssues (paths keep array indexes so a form can name the card). */
export function toFieldIssues(error: z.core.$ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
    message: i.message,
  }));
}
