import { EXPIRED_AUTH_SESSION_MESSAGE, USER_FIELD_MISSING_PREFIX } from "./constants";

/**
 * Both the access token and the refresh token have expired (seed-spec §4, §8): the
 * request is aborted and the session reset.
 */
export class ExpiredAuthSessionError extends Error {
  constructor() {
    super(EXPIRED_AUTH_SESSION_MESSAGE);
    this.name = "ExpiredAuthSessionError";
  }
}

/** The user endpoint answered without the configured user field. */
export class UserFieldMissingError extends Error {
  constructor(field: string) {
    super(`${USER_FIELD_MISSING_PREFIX} ${field}`);
    this.name = "UserFieldMissingError";
  }
}

/** The Go API answered with a status the caller did not expect. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    const message = body && typeof body === "object" && "message" in body ? String((body as { message: unknown }).message) : "";
    super(`${what} answered ${status}${message ? `: ${message}` : ""}`);
    this.name = "ApiError";
  }
}
