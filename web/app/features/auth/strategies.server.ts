// The two auth strategies (seed-spec §4, §9; docs/auth.md):
//
// - cookie (the default): the Go API's Sanctum session. The visitor's cookies are
//   forwarded; sign-in is "fetch the CSRF cookie, post the login, fetch the user".
// - token: bearer tokens from POST /api/tokens, kept by the web app in its own
//   HttpOnly cookies ("auth." prefix). An access token counts as expired 500 ms
//   before its expiry; an expired one is refreshed; when both have expired the
//   request is aborted with ExpiredAuthSessionError and the session reset.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiFailure } from "../../lib/api-result";
import { failureOf, type ApiCallOptions, type ApiResponse } from "../../lib/api.server";
import type { ApiClient } from "./api.server";
import {
  AUTH_COOKIE_EXPIRES_DAYS,
  AUTH_COOKIE_PATH,
  AUTH_STORAGE_PREFIX,
  CSRF_COOKIE,
  NO_STRATEGY_MESSAGE,
  SESSION_COOKIE,
  STRATEGIES,
  STRATEGY_NOT_SUPPORTED_MESSAGE,
  TOKEN_DEFAULT_MAX_AGE_S,
  type StrategyName,
} from "./constants";
import { decodeCookieValue, expiredCookie, serializeCookie } from "./cookies";
import { ApiError, ExpiredAuthSessionError, UserFieldMissingError } from "./errors";
import { tokenStatus } from "./token-status";
import type { User } from "./user";

export interface StrategyOptions {
  /** Where the user object sits in the user endpoint's answer; false: the answer itself. */
  userProperty: string | false;
  /** Write the web app's cookies with Secure (the public URL is https). */
  secureCookies: boolean;
  now?: () => number;
}

export interface Credentials {
  email: string;
  password: string;
  remember: boolean;
}

/** A sign-in: the user, or the API's refusal (422 field errors, 429…). */
export type LoginResult = { ok: true; user: User } | ApiFailure;

export interface Strategy {
  readonly name: StrategyName;
  /** Whether the visitor carries anything this strategy could be signed in by. */
  hasCredentials(): boolean;
  /** The signed-in user, or null; an unknown token or session is simply signed out. */
  fetchUser(): Promise<User | null>;
  login(credentials: Credentials): Promise<LoginResult>;
  /** Signs out at the API (failure ignored) and clears the local state. */
  logout(csrf: string | null): Promise<void>;
  /** Clears the local state. */
  reset(): void;
  /** An authenticated API call. */
  request<T>(method: string, path: string, options: ApiCallOptions): Promise<ApiResponse<T>>;
  /** The token server-rendered forms carry (null when there is none yet). */
  formToken(): string | null;
  /** Whether a submitted form token is acceptable before calling the API. */
  acceptsFormToken(token: string | null): boolean;
}

/**
 * Picks the strategy. seed-spec §8: an unset strategy raises "No strategy is set!",
 * an unknown one "Strategy not supported".
 */
export function createStrategy(name: string | undefined | null, api: ApiClient, options: StrategyOptions): Strategy {
  if (!name) throw new Error(NO_STRATEGY_MESSAGE);
  if (!(STRATEGIES as readonly string[]).includes(name)) throw new Error(STRATEGY_NOT_SUPPORTED_MESSAGE);
  return name === "token" ? new TokenStrategy(api, options) : new CookieStrategy(api, options);
}

/** Reads the user out of the user endpoint's answer (seed-spec §8 on a missing field). */
export function extractUser(body: unknown, property: string | false): User {
  let value: unknown = body;
  if (property) {
    for (const key of property.split(".")) {
      value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value) || !("id" in value)) {
    throw new UserFieldMissingError(property || "user");
  }
  return value as User;
}

function validation(response: ApiResponse): LoginResult {
  const refused = failureOf(response);
  return { ...refused, message: refused.message ?? "" };
}

function expectStatus(response: ApiResponse, what: string, ...statuses: number[]): void {
  if (!statuses.includes(response.status)) throw new ApiError(response.status, response.body, what);
}

/** The Sanctum session of the Go API. */
class CookieStrategy implements Strategy {
  readonly name = "cookie" as const;

  constructor(
    private readonly api: ApiClient,
    private readonly options: StrategyOptions,
  ) {}

  hasCredentials(): boolean {
    return this.api.jar.has(SESSION_COOKIE);
  }

  async fetchUser(): Promise<User | null> {
    if (!this.hasCredentials()) return null;
    const response = await this.api.request("GET", "/api/user");
    if (response.status === 401) return null;
    expectStatus(response, "GET /api/user", 200);
    return extractUser(response.body, this.options.userProperty);
  }

  async login(credentials: Credentials): Promise<LoginResult> {
    // The spec's sequence: the CSRF cookie, the login, the user. A stale cookie on the
    // POST gives 419: fetch the CSRF cookie again and retry once.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) this.api.jar.delete(SESSION_COOKIE);
      const csrf = await this.api.request("GET", "/sanctum/csrf-cookie");
      expectStatus(csrf, "GET /sanctum/csrf-cookie", 204, 200);
      const response = await this.api.request("POST", "/login", {
        json: credentials,
        csrf: this.api.cookie(CSRF_COOKIE) ?? null,
      });
      if (response.status === 419 && attempt === 0) continue;
      if (response.status === 422 || response.status === 429) return validation(response);
      // 302: already signed in by this session.
      expectStatus(response, "POST /login", 204, 200, 302);
      const user = await this.fetchUser();
      if (!user) throw new ApiError(401, null, "GET /api/user after sign-in");
      return { ok: true, user };
    }
    throw new ApiError(419, null, "POST /login");
  }

  async logout(csrf: string | null): Promise<void> {
    try {
      const response = await this.api.request("POST", "/logout", { csrf });
      if (response.status === 204) return; // Go started a new guest session
    } catch {
      // Failure is ignored (seed-spec §4); the local state is cleared below.
    }
    this.reset();
  }

  reset(): void {
    const secure = this.options.secureCookies;
    for (const name of [SESSION_COOKIE, CSRF_COOKIE]) {
      this.api.setCookie(name, null, expiredCookie(name, { path: AUTH_COOKIE_PATH, secure, httpOnly: name === SESSION_COOKIE }));
    }
  }

  request<T>(method: string, path: string, options: ApiCallOptions): Promise<ApiResponse<T>> {
    return this.api.request<T>(method, path, { ...options, session: true });
  }

  formToken(): string | null {
    return this.api.cookie(CSRF_COOKIE) ?? null;
  }

  acceptsFormToken(): boolean {
    return true; // the Go API checks it
  }
}

interface TokenAnswer {
  access_token?: string;
  token?: string;
  expires_in?: number;
  expires_at?: string;
  refresh_token?: string;
  refresh_expires_in?: number;
  refresh_expires_at?: string;
}

/** Names of the token strategy's cookies: "auth." + key + "." + strategy. */
export const TOKEN_COOKIES = {
  token: `${AUTH_STORAGE_PREFIX}_token.token`,
  tokenExpiration: `${AUTH_STORAGE_PREFIX}_token_expiration.token`,
  refreshToken: `${AUTH_STORAGE_PREFIX}_refresh_token.token`,
  refreshTokenExpiration: `${AUTH_STORAGE_PREFIX}_refresh_token_expiration.token`,
  csrf: `${AUTH_STORAGE_PREFIX}_csrf.token`,
} as const;

/** Bearer tokens, kept in the web app's own cookies. */
class TokenStrategy implements Strategy {
  readonly name = "token" as const;
  private readonly now: () => number;

  constructor(
    private readonly api: ApiClient,
    private readonly options: StrategyOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  private read(name: string): string | undefined {
    return decodeCookieValue(this.api.cookie(name)) || undefined;
  }

  private write(name: string, value: string | null): void {
    const options = { path: AUTH_COOKIE_PATH, secure: this.options.secureCookies };
    if (value === null) this.api.setCookie(name, null, expiredCookie(name, options));
    else this.api.setCookie(name, encodeURIComponent(value), serializeCookie(name, value, { ...options, expiresDays: AUTH_COOKIE_EXPIRES_DAYS }, this.now()));
  }

  hasCredentials(): boolean {
    return Boolean(this.read(TOKEN_COOKIES.token));
  }

  private store(answer: TokenAnswer): void {
    const token = answer.access_token || answer.token;
    if (!token) throw new ApiError(200, answer, "token answer without a token");
    const now = this.now();
    const expiresAt = Date.parse(answer.expires_at ?? "") || now + (answer.expires_in || TOKEN_DEFAULT_MAX_AGE_S) * 1000;
    this.write(TOKEN_COOKIES.token, token);
    this.write(TOKEN_COOKIES.tokenExpiration, String(expiresAt));
    if (answer.refresh_token) {
      const refreshAt =
        Date.parse(answer.refresh_expires_at ?? "") ||
        (answer.refresh_expires_in ? now + answer.refresh_expires_in * 1000 : 0);
      this.write(TOKEN_COOKIES.refreshToken, answer.refresh_token);
      this.write(TOKEN_COOKIES.refreshTokenExpiration, refreshAt ? String(refreshAt) : null);
    }
  }

  /** A usable access token: refreshed when it has expired; null when there is none. */
  private async accessToken(): Promise<string | null> {
    const token = this.read(TOKEN_COOKIES.token);
    if (!token) return null;
    const now = this.now();
    if (tokenStatus(Number(this.read(TOKEN_COOKIES.tokenExpiration)), now) !== "expired") return token;
    const refresh = this.read(TOKEN_COOKIES.refreshToken);
    if (!refresh) {
      this.reset();
      return null;
    }
    if (tokenStatus(Number(this.read(TOKEN_COOKIES.refreshTokenExpiration)), now) === "expired") {
      this.reset();
      throw new ExpiredAuthSessionError();
    }
    return this.refresh(refresh);
  }

  private async refresh(refreshToken: string): Promise<string | null> {
    const response = await this.api.request<TokenAnswer & { message?: string }>("POST", "/api/tokens/refresh", {
      json: { refresh_token: refreshToken },
      session: false,
    });
    if (response.status === 401) {
      this.reset();
      if (response.body?.message === new ExpiredAuthSessionError().message) throw new ExpiredAuthSessionError();
      return null; // unknown or already used: signed out
    }
    expectStatus(response, "POST /api/tokens/refresh", 200);
    this.store(response.body ?? {});
    return this.read(TOKEN_COOKIES.token) ?? null;
  }

  async fetchUser(): Promise<User | null> {
    const token = await this.accessToken();
    if (!token) return null;
    const response = await this.api.request("GET", "/api/user", { session: false, bearer: token });
    if (response.status === 401) {
      this.reset(); // an unknown or revoked token: signed out
      return null;
    }
    expectStatus(response, "GET /api/user", 200);
    return extractUser(response.body, this.options.userProperty);
  }

  async login(credentials: Credentials): Promise<LoginResult> {
    const response = await this.api.request<TokenAnswer>("POST", "/api/tokens", {
      json: { email: credentials.email, password: credentials.password, name: "web" },
      session: false,
    });
    if (response.status === 422 || response.status === 429) return validation(response);
    expectStatus(response, "POST /api/tokens", 201, 200);
    this.store(response.body ?? {});
    const user = await this.fetchUser();
    if (!user) throw new ApiError(401, null, "GET /api/user after sign-in");
    return { ok: true, user };
  }

  async logout(): Promise<void> {
    const token = this.read(TOKEN_COOKIES.token);
    if (token) {
      try {
        await this.api.request("DELETE", "/api/tokens/current", { session: false, bearer: token });
      } catch {
        // ignored (seed-spec §4)
      }
    }
    this.reset();
  }

  reset(): void {
    for (const name of [TOKEN_COOKIES.token, TOKEN_COOKIES.tokenExpiration, TOKEN_COOKIES.refreshToken, TOKEN_COOKIES.refreshTokenExpiration]) {
      if (this.api.jar.has(name)) this.write(name, null);
    }
  }

  async request<T>(method: string, path: string, options: ApiCallOptions): Promise<ApiResponse<T>> {
    const token = await this.accessToken();
    const call = { ...options, session: false, csrf: null, bearer: token };
    const response = await this.api.request<T>(method, path, call);
    // The access token expired between our check and the API's: refresh and retry once.
    const refresh = this.read(TOKEN_COOKIES.refreshToken);
    if (response.status === 401 && token && refresh && /expired/i.test(response.headers.get("www-authenticate") ?? "")) {
      const fresh = await this.refresh(refresh);
      if (fresh) return this.api.request<T>(method, path, { ...call, bearer: fresh });
    }
    return response;
  }

  /** The web app's own CSRF token for forms (the bearer token is never sent by a browser, so Go checks none). */
  formToken(): string | null {
    let token = this.read(TOKEN_COOKIES.csrf);
    // Only signed-in visitors get one: writing a cookie on every anonymous page view
    // would make every page private.
    if (!token && this.hasCredentials()) {
      token = randomBytes(30).toString("base64url");
      this.api.setCookie(
        TOKEN_COOKIES.csrf,
        token,
        serializeCookie(TOKEN_COOKIES.csrf, token, { path: AUTH_COOKIE_PATH, secure: this.options.secureCookies }),
      );
    }
    return token ?? null;
  }

  acceptsFormToken(token: string | null): boolean {
    const expected = this.read(TOKEN_COOKIES.csrf);
    if (!token || !expected) return false;
    const a = Buffer.from(token);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
