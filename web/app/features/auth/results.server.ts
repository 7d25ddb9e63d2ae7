// Turning Go API answers into what forms show. The API's messages are written to be
// shown as they are (docs/auth.md, Errors), but only those of 422 answers: anything
// else becomes one of a few plain sentences, and the details go to the log.
import { data } from "react-router";
import type { ApiFailure, ApiResult } from "../../lib/api-result";
import { callApi, type ApiCallOptions } from "../../lib/api.server";
import type { FormResult } from "../../lib/form-result";
import { CSRF_FIELD, FORM_EXPIRED_MESSAGE, SERVICE_FAILED_MESSAGE } from "./constants";
import type { AuthSession } from "./session.server";

export const SESSION_ENDED_MESSAGE = "You have been signed out. Please sign in again.";
export const GONE_MESSAGE = "That item no longer exists. It may have been removed already.";

type Logger = Pick<Console, "error">;

/** What a form shows for a call that failed. */
export function formFailure(failure: ApiFailure): FormResult {
  switch (failure.status) {
    case 413: // a body over its limit: the API names the limit as for 422
    case 422:
    case 429:
      return { ok: false, errors: failure.errors, message: failure.message };
    case 419:
      return { ok: false, message: FORM_EXPIRED_MESSAGE };
    case 401:
      return { ok: false, message: SESSION_ENDED_MESSAGE };
    case 404:
      return { ok: false, message: GONE_MESSAGE };
    default:
      return { ok: false, message: SERVICE_FAILED_MESSAGE };
  }
}

/** Logs the failures no form message explains: the API unreachable, down or broken. */
function logFailure(failure: ApiFailure, what: string, area: string, log: Logger): void {
  if (failure.status === 0) log.error(`[${area}] ${what} failed: ${failure.cause ?? ""}`);
  else if (formFailure(failure).message === SERVICE_FAILED_MESSAGE) log.error(`[${area}] ${what} answered ${failure.status}: ${failure.message ?? ""}`);
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

/**
 * A state-changing call as the signed-in member, from a form: sends the form's CSRF
 * token (the Go API checks it for the session; for the token strategy the web app
 * checks its own), and logs the failures formFailure cannot explain.
 */
export async function memberCall<T = unknown>(
  auth: AuthSession,
  form: FormData,
  call: MemberCall,
  log: Logger = auth.log,
): Promise<ApiResult<T | null>> {
  const token = form.get(CSRF_FIELD);
  const csrf = typeof token === "string" && token ? token : null;
  if (!auth.acceptsFormToken(csrf)) return { ok: false, status: 419, errors: {} };
  const done = await callApi<T>(auth, call.method, call.path, { json: call.json, form: call.body, text: call.text, csrf, expect: call.expect });
  if (!done.ok) logFailure(done, `${call.method} ${call.path.replace(/\d+/g, "{id}")}`, "members", log);
  return done;
}

/** A read as the signed-in member; null (logged) when it fails. */
export async function memberRead<T>(auth: AuthSession, path: string, log: Logger = auth.log): Promise<T | null> {
  const done = await callApi<T>(auth, "GET", path, { expect: [200] });
  if (done.ok) return done.body;
  if (done.status === 0) log.error(`[members] GET ${path} failed: ${done.cause ?? ""}`);
  else if (done.status !== 404) log.error(`[members] GET ${path.replace(/\d+/g, "{id}")} answered ${done.status}`);
  return null;
}

/**
 * A call from a form of the signed-out pages (register, forgot or reset a password,
 * verify an address): stateless unless `options.session` says otherwise, a success
 * only with the `expect`ed status.
 */
export async function guestCall<T>(
  auth: AuthSession,
  method: string,
  path: string,
  expect: number,
  options: ApiCallOptions = {},
): Promise<ApiResult<T | null>> {
  const done = await callApi<T>(auth.api, method, path, { session: false, ...options, expect: [expect] });
  if (!done.ok) logFailure(done, `${method} ${path}`, "members", console);
  return done;
}

/**
 * An action's answer for a failed form call: what the form shows (with `extra`, such as
 * the values to put back), under the API's status, or 502 when the API did not answer.
 */
export function formRefusal<E extends Partial<FormResult>>(failure: ApiFailure, extra?: E) {
  return data({ ...formFailure(failure), ...extra } as FormResult & E, { status: failure.status || 502 });
}

/** A text field of a form ("" when absent). */
export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
