// Turning Go API answers into what forms show. The API's messages are written to be
// shown as they are (docs/auth.md, Errors), but only those of 422 answers: anything
// else becomes one of a few plain sentences, and the details go to the log.
import type { FieldErrors, FormResult } from "../../lib/form-result";
import type { ApiResponse } from "./api.server";
import { CSRF_FIELD, FORM_EXPIRED_MESSAGE, SERVICE_FAILED_MESSAGE } from "./constants";
import type { AuthSession } from "./session.server";

export const SESSION_ENDED_MESSAGE = "You have been signed out. Please sign in again.";
export const GONE_MESSAGE = "That item no longer exists. It may have been removed already.";

type Logger = Pick<Console, "error">;

/** A FormResult for an API answer that was not the expected success. */
export function failure(response: ApiResponse, what: string, log: Logger = console): FormResult {
  const body = (response.body ?? {}) as { message?: unknown; errors?: unknown };
  switch (response.status) {
    case 413: // a body over its limit: the API names the limit as for 422
    case 422:
    case 429: {
      const errors = body.errors && typeof body.errors === "object" ? (body.errors as FieldErrors) : {};
      return { ok: false, errors, message: typeof body.message === "string" ? body.message : undefined };
    }
    case 419:
      return { ok: false, message: FORM_EXPIRED_MESSAGE };
    case 401:
      return { ok: false, message: SESSION_ENDED_MESSAGE };
    case 404:
      return { ok: false, message: GONE_MESSAGE };
    default:
      log.error(`[members] ${what} answered ${response.status}: ${typeof body.message === "string" ? body.message : ""}`);
      return { ok: false, message: SERVICE_FAILED_MESSAGE };
  }
}

/** A FormResult for a call that threw (the API could not be reached, say). */
export function thrown(error: unknown, what: string, log: Logger = console): FormResult {
  log.error(`[members] ${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  return { ok: false, message: SERVICE_FAILED_MESSAGE };
}

export interface MemberCall {
  method: string;
  path: string;
  json?: unknown;
  /** A multipart body instead of JSON (file uploads). */
  body?: FormData;
  /** A text body of its own type instead of JSON (a CSV import). */
  text?: { body: string; contentType: string };
  /** Statuses that mean success (default: any 2xx). */
  expect?: number[];
}

export type MemberCallResult<T> = { ok: true; body: T | null; response: ApiResponse<T> } | { ok: false; result: FormResult };

/**
 * A state-changing call as the signed-in member, from a form: sends the form's CSRF
 * token (the Go API checks it for the session; for the token strategy the web app
 * checks its own), and maps failures to what the form shows.
 */
export async function memberCall<T = unknown>(
  auth: AuthSession,
  form: FormData,
  call: MemberCall,
  log: Logger = auth.log,
): Promise<MemberCallResult<T>> {
  const token = form.get(CSRF_FIELD);
  const csrf = typeof token === "string" && token ? token : null;
  if (!auth.acceptsFormToken(csrf)) return { ok: false, result: { ok: false, message: FORM_EXPIRED_MESSAGE } };
  const what = `${call.method} ${call.path.replace(/\d+/g, "{id}")}`;
  try {
    const response = await auth.request<T>(call.method, call.path, { json: call.json, form: call.body, text: call.text, csrf });
    const good = call.expect ? call.expect.includes(response.status) : response.ok;
    if (!good) return { ok: false, result: failure(response, what, log) };
    return { ok: true, body: response.body, response };
  } catch (error) {
    return { ok: false, result: thrown(error, what, log) };
  }
}

/** A read as the signed-in member; null (logged) when it fails. */
export async function memberRead<T>(auth: AuthSession, path: string, log: Logger = auth.log): Promise<T | null> {
  try {
    const response = await auth.request<T>("GET", path);
    if (response.status === 200) return response.body;
    if (response.status !== 404) log.error(`[members] GET ${path.replace(/\d+/g, "{id}")} answered ${response.status}`);
    return null;
  } catch (error) {
    thrown(error, `GET ${path}`, log);
    return null;
  }
}

/** A text field of a form ("" when absent). */
export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
