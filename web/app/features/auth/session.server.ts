// The auth side of one page request: the strategy, the visitor's state, and the API
// client loaders and actions use. The root middleware creates it and puts it in the
// router context (./context.ts); routes read it with getAuth(context).
import type { ApiCallOptions, ApiResponse } from "../../lib/api.server";
import { ApiClient, apiBaseUrl } from "./api.server";
import { DEFAULT_STRATEGY, SESSION_COOKIE, type StrategyName } from "./constants";
import { ExpiredAuthSessionError } from "./errors";
import { createStrategy, type Credentials, type LoginResult, type Strategy } from "./strategies.server";
import { loggedOutState, type AuthState } from "./user";

export interface AuthConfig {
  /** LINEAGE_AUTH_STRATEGY; "cookie" when unset. */
  strategy: string | undefined;
  /** LINEAGE_AUTH_USER_PROPERTY: where the user sits in /api/user's answer; empty: the answer itself. */
  userProperty: string | false;
  apiUrl: string;
  secureCookies: boolean;
}

export function authConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  return {
    strategy: env.LINEAGE_AUTH_STRATEGY === undefined ? DEFAULT_STRATEGY : env.LINEAGE_AUTH_STRATEGY,
    userProperty: env.LINEAGE_AUTH_USER_PROPERTY || false,
    apiUrl: apiBaseUrl(env),
    secureCookies: (env.LINEAGE_PUBLIC_URL ?? "").startsWith("https:"),
  };
}

export type Logger = Pick<Console, "error" | "warn">;

export class AuthSession {
  state: AuthState;
  private readonly hadSession: boolean;

  constructor(
    readonly api: ApiClient,
    readonly strategy: Strategy,
    /** Where auth failures are logged (console unless a test says otherwise). */
    readonly log: Logger = console,
  ) {
    this.state = loggedOutState(strategy.name);
    this.hadSession = strategy.hasCredentials() || api.jar.has(SESSION_COOKIE);
  }

  get name(): StrategyName {
    return this.strategy.name;
  }

  /**
   * Reads the visitor's state. Auth failures are logged, never shown: the visitor is
   * then simply signed out (ExpiredAuthSessionError also resets the session).
   */
  async resolve(): Promise<AuthState> {
    try {
      const user = await this.strategy.fetchUser();
      this.state = { ...this.state, loggedIn: Boolean(user), user };
    } catch (error) {
      this.fail(error);
    }
    return this.state;
  }

  private fail(error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.log.error(`[auth] ${text}`);
    if (error instanceof ExpiredAuthSessionError) this.strategy.reset();
    this.state = loggedOutState(this.strategy.name);
  }

  async login(credentials: Credentials): Promise<LoginResult> {
    const result = await this.strategy.login(credentials);
    if (result.ok) this.state = { ...this.state, loggedIn: true, user: result.user };
    return result;
  }

  /** Signs out: the API call's failure is ignored, the local state cleared. */
  async logout(csrf: string | null): Promise<void> {
    try {
      await this.strategy.logout(csrf);
    } catch (error) {
      this.log.warn(`[auth] sign-out: ${error instanceof Error ? error.message : String(error)}`);
      this.strategy.reset();
    }
    this.state = loggedOutState(this.strategy.name);
  }

  /** A call to the Go API as the signed-in visitor. */
  request<T = unknown>(method: string, path: string, options: ApiCallOptions = {}): Promise<ApiResponse<T>> {
    return this.strategy.request<T>(method, path, options);
  }

  /** The CSRF token server-rendered forms carry. */
  formToken(): string | null {
    return this.strategy.formToken();
  }

  acceptsFormToken(token: string | null): boolean {
    return this.strategy.acceptsFormToken(token);
  }

  /**
   * Relays every cookie set during the request to the browser, and keeps pages that
   * depend on the visitor out of shared caches.
   */
  finish(response: Response, { page = true }: { page?: boolean } = {}): Response {
    const cookies = this.api.relayedCookies();
    const personal = this.state.loggedIn || cookies.length > 0 || (page && this.hadSession);
    if (!cookies.length && !personal) return response;
    let out = response;
    try {
      for (const cookie of cookies) out.headers.append("Set-Cookie", cookie);
    } catch {
      // Immutable headers (a fetched Response): copy it.
      out = new Response(response.body, response);
      for (const cookie of cookies) out.headers.append("Set-Cookie", cookie);
    }
    if (personal) out.headers.set("Cache-Control", "private, no-store");
    return out;
  }
}

export interface CreateSessionOptions {
  config?: AuthConfig;
  fetch?: typeof fetch;
  log?: Logger;
  now?: () => number;
}

/** The auth session of a request; throws when the configured strategy is unusable. */
export function createAuthSession(request: Request, options: CreateSessionOptions = {}): AuthSession {
  const config = options.config ?? authConfigFromEnv();
  const api = ApiClient.forRequest(request, { baseUrl: config.apiUrl, fetch: options.fetch });
  const strategy = createStrategy(config.strategy, api, {
    userProperty: config.userProperty,
    secureCookies: config.secureCookies,
    now: options.now,
  });
  return new AuthSession(api, strategy, options.log);
}
