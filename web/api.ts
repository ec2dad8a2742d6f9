/**
 * The web client's one way to call the API: JSON in and out, cookies included, and every error
 * parsed into an ApiError carrying the server's code, message, field issues and password reasons.
 */
import type { ErrorResponse, FieldIssue } from '../domain/app-error.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorResponse['code'] | 'network';
  readonly issues: FieldIssue[];
  readonly reasons: string[];
  constructor(
    status: number,
    code: ErrorResponse['code'] | 'network',
    message: string,
    issues: FieldIssue[] = [],
    reasons: string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
    this.reasons = reasons;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The fetch options of every API call: cookies included, JSON in and out (`init` added last). */
export function apiRequestInit(method: Method, body?: unknown, init: RequestInit = {}): RequestInit {
  return {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...init,
  };
}

/** The ApiError of a call that never reached the server. */
export function networkError(): ApiError {
  return new ApiError(0, 'network', 'Cannot reach the server. Check your connection and try again.');
}

/**
 * Call `path` (e.g. '/api/applications') and return the parsed JSON body (undefined for 204).
 * @throws ApiError with the server's message, or code 'network' when the server cannot be reached
 */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, apiRequestInit(method, body, init));
  } catch {
    throw networkError();
  }
  return readApiResponse<T>(response);
}

/**
 * The parsed JSON body of an API `response` (undefined when empty).
 * @throws ApiError with the server's code, message, field issues and password reasons when not 2xx
 */
export async function readApiResponse<T>(response: Response): Promise<T> {
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (data ?? {}) as Partial<ErrorResponse> & { message?: string; code?: string };
    if (error.code === 'two_factor_required') twoFactorRequiredListener?.();
    throw new ApiError(
      response.status,
      (error.code as ErrorResponse['code']) ?? 'internal',
      error.message || `The request failed (${response.status}).`,
      error.issues ?? [],
      error.reasons ?? [],
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether `error` is the server's 403 `two_factor_required` (issue 16): an administrator without a
 * second factor called an administrator API. The app sends them to the set-up page instead of a toast.
 */
export function isTwoFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'two_factor_required';
}

type TwoFactorRequiredListener = () => void;
let twoFactorRequiredListener: TwoFactorRequiredListener | undefined;

/**
 * Register what the app does when any call answers `two_factor_required` (main.tsx: mark the session
 * and open the set-up page). One listener; a later call replaces it. @returns a function removing it
 */
export function onTwoFactorRequired(listener: TwoFactorRequiredListener): () => void {
  twoFactorRequiredListener = listener;
  return () => {
    if (twoFactorRequiredListener === listener) twoFactorRequiredListener = undefined;
  };
}

/**
 * Whether `error` is a 404 (issue 17): for an application id, the server answers 404 both for an
 * unknown id and for another person's application (existence is never revealed,
 * server/applications/applications.service.ts `loadApplicationFor`). Other failures are not this.
 */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * Whether `error` is better-auth's 403 `EMAIL_NOT_VERIFIED` on sign-in (issue 17): the password was
 * right but the address is not confirmed yet; the server has just sent a new confirmation email.
 */
export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof ApiError && (error.code as string) === 'EMAIL_NOT_VERIFIED';
}

/**
 * POST `form` (multipart) to `path` with upload progress (fetch cannot report it, hence XHR), and
 * resolve with the parsed JSON of a 2xx answer. Errors are ApiErrors with the server's message;
 * `unauthenticatedMessage` replaces the message of a 401.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
  unauthenticatedMessage?: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.responseText ? safeJson(xhr.responseText) : undefined;
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve(body as T);
        return;
      }
      const error = (body ?? {}) as Partial<ErrorResponse>;
      const message =
        xhr.status === 401 && unauthenticatedMessage
          ? unauthenticatedMessage
          : error.message || `The upload failed (${xhr.status}).`;
      reject(new ApiError(xhr.status, error.code ?? 'internal', message));
    };
    xhr.onerror = () => reject(networkError());
    xhr.send(form);
  });
}
