// Server-to-server calls from the SSR server to the Go API (docs/auth.md, "Checklist
// for the web app"). One client per page request: it forwards the visitor's cookies
// and address, keeps the cookies Go sets during the request (so a sign-in that first
// fetches the CSRF cookie then posts with it), and collects every Set-Cookie for the
// root middleware to relay to the browser.
import { CSRF_HEADER, TOKEN_HEADER, TOKEN_TYPE } from "./constants";
import { formatCookieHeader, parseCookieHeader, parseSetCookie } from "./cookies";
import type { ApiCallOptions, ApiResponse } from "../../lib/api.server";

export const DEFAULT_API_URL = "http://127.0.0.1:8080";
export const API_TIMEOUT_MS = 10_000;

export function apiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.LINEAGE_API_URL || DEFAULT_API_URL).replace(/\/+$/, "");
}

export interface ApiClientOptions {
  baseUrl?: string;
  /** The visitor's Cookie header. */
  cookieHeader?: string | null;
  /** The X-Forwarded-For the front door put on the visitor's request. */
  forwardedFor?: string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class ApiClient {
  readonly baseUrl: string;
  /** The visitor's cookies as Go last set them during this request. */
  readonly jar: Map<string, string>;
  private readonly forwardedFor: string | null;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  /** Cookie name → the last Set-Cookie for it, to relay to the browser. */
  private readonly relay = new Map<string, string>();

  constructor(options: ApiClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? apiBaseUrl()).replace(/\/+$/, "");
    this.jar = parseCookieHeader(options.cookieHeader);
    this.forwardedFor = options.forwardedFor?.trim() || null;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? API_TIMEOUT_MS;
  }

  /** A client for this page request. */
  static forRequest(request: Request, options: Omit<ApiClientOptions, "cookieHeader" | "forwardedFor"> = {}): ApiClient {
    return new ApiClient({
      ...options,
      cookieHeader: request.headers.get("cookie"),
      forwardedFor: request.headers.get("x-forwarded-for"),
    });
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Sets a cookie of the web app's own: kept in the jar and relayed to the browser. */
  setCookie(name: string, value: string | null, header: string): void {
    if (value === null) this.jar.delete(name);
    else this.jar.set(name, value);
    this.relay.set(name, header);
  }

  /** Every Set-Cookie to send to the browser, one per cookie name. */
  relayedCookies(): string[] {
    return [...this.relay.values()];
  }

  async request<T = unknown>(method: string, path: string, options: ApiCallOptions = {}): Promise<ApiResponse<T>> {
    // Identity: Go would gzip the answer over loopback only for this process to inflate it.
    const headers = new Headers({ Accept: "application/json", "Accept-Encoding": "identity", "X-Requested-With": "XMLHttpRequest" });
    if (this.forwardedFor) headers.set("X-Forwarded-For", this.forwardedFor);
    if (options.session !== false && this.jar.size) headers.set("Cookie", formatCookieHeader(this.jar));
    if (options.csrf) headers.set(CSRF_HEADER, options.csrf);
    if (options.bearer) headers.set(TOKEN_HEADER, `${TOKEN_TYPE} ${options.bearer}`);
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      body = options.form;
    } else if (options.text !== undefined) {
      headers.set("Content-Type", options.text.contentType);
      body = options.text.body;
    }
    const response = await this.fetchImpl(this.baseUrl + path, {
      method,
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Cookies only matter for calls that carry the session; a stateless call's
    // answer carries none anyway.
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      if (!cookie) continue;
      if (cookie.removed) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
      this.relay.set(cookie.name, header);
    }
    let parsed: T | null = null;
    if (/json/i.test(response.headers.get("content-type") ?? "")) {
      const text = await response.text();
      try {
        parsed = text ? (JSON.parse(text) as T) : null;
      } catch {
        parsed = null;
      }
    } else {
      await response.body?.cancel();
    }
    return { status: response.status, ok: response.ok, body: parsed, headers: response.headers };
  }
}
