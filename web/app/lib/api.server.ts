// Calls from the SSR server to the Go API, read one way by every feature: as an
// ApiResult (api-result.ts). The Go API answers errors in one shape (internal/httpx:
// `message`, and for 422 the field `errors`; docs/auth.md, Errors). Who makes the call
// (the visitor's auth session, features/auth) and what a page does with a failure (a
// 404 page, a 503 page, messages at a form's fields) stay with the callers.
import type { ApiFailure, ApiResult } from "./api-result";
import type { FieldErrors } from "./form-result";

/** What the Go API answered, before it is read as an ApiResult. */
export interface ApiResponse<T = unknown> {
  status: number;
  ok: boolean;
  /** The parsed JSON body, or null (204, or not JSON). */
  body: T | null;
  headers: Headers;
}

export interface ApiCallOptions {
  /** A JSON request body. */
  json?: unknown;
  /** A multipart request body (file uploads); fetch sets its Content-Type. */
  form?: FormData;
  /** A text body of its own type (a CSV import). */
  text?: { body: string; contentType: string };
  /** The CSRF token to send as X-XSRF-TOKEN (stateful state-changing calls). */
  csrf?: string | null;
  /** Forward the visitor's cookies (default true). False makes the call stateless. */
  session?: boolean;
  /** An access token to send as `Authorization: Bearer …`. */
  bearer?: string | null;
}

/** Anything that calls the Go API: the auth session of a request, or its client. */
export interface ApiCaller {
  request<T = unknown>(method: string, path: string, options?: ApiCallOptions): Promise<ApiResponse<T>>;
}

/** The text of a thrown error, for logs. */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The failure of an answer: the API's message and field errors, when it sent them. */
export function failureOf(response: Pick<ApiResponse, "status" | "body">): ApiFailure {
  const body = (response.body ?? {}) as { message?: unknown; errors?: unknown };
  return {
    ok: false,
    status: response.status,
    message: typeof body.message === "string" ? body.message : undefined,
    errors: body.errors && typeof body.errors === "object" ? (body.errors as FieldErrors) : {},
  };
}

/**
 * Any call: a success when the status is one of `expect` (default: any 2xx); the
 * body may then be null (204, or an answer that is not JSON). Never throws.
 */
export async function callApi<T = unknown>(
  caller: ApiCaller,
  method: string,
  path: string,
  options: ApiCallOptions & { expect?: readonly number[] } = {},
): Promise<ApiResult<T | null>> {
  const { expect, ...call } = options;
  try {
    const response = await caller.request<T>(method, path, call);
    const good = expect ? expect.includes(response.status) : response.ok;
    return good ? { ok: true, status: response.status, body: response.body } : failureOf(response);
  } catch (error) {
    return { ok: false, status: 0, errors: {}, cause: errorText(error) };
  }
}

/** A read: a success only for a 200 with a JSON body (a 200 without one is a failure). Never throws. */
export async function getApi<T>(caller: ApiCaller, path: string, options: ApiCallOptions = {}): Promise<ApiResult<T>> {
  const result = await callApi<T>(caller, "GET", path, { ...options, expect: [200] });
  if (result.ok && result.body === null) return { ok: false, status: result.status, errors: {} };
  return result as ApiResult<T>;
}

/** A log line for a failure: "GET /api/x answered 500" or "GET /api/x failed: TypeError: …". */
export function failureText(what: string, failure: ApiFailure): string {
  return failure.status === 0 ? `${what} failed: ${failure.cause ?? ""}` : `${what} answered ${failure.status}`;
}
