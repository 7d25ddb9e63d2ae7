// How a call to the Go API ended, as every feature reads it (lib/api.server.ts makes
// the calls). Results travel to the browser in loader data, so this file is not
// server-only.
import type { FieldErrors } from "./form-result";

export interface ApiSuccess<T> {
  ok: true;
  status: number;
  body: T;
}

export interface ApiFailure {
  ok: false;
  /** The API's status; 0 when the API could not be reached or did not answer in time. */
  status: number;
  /** The API's own message, when it sent one. */
  message?: string;
  /** The API's field errors (422, and 413/429 which name their limit the same way); {} otherwise. */
  errors: FieldErrors;
  /** Why there was no answer (status 0), for the log; never shown. */
  cause?: string;
}

/** How a call to the Go API ended. */
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;
