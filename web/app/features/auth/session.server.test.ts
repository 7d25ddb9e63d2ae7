import { describe, expect, it } from "vitest";
import { EXPIRED_AUTH_SESSION_MESSAGE, NO_STRATEGY_MESSAGE, STRATEGY_NOT_SUPPORTED_MESSAGE } from "./constants";
import { ExpiredAuthSessionError } from "./errors";
import { ADA, createFakeGoApi, json, pageRequest, silentLog } from "./fake-go-api.test-support";
import { authConfigFromEnv, createAuthSession, type AuthConfig } from "./session.server";
import { TOKEN_COOKIES } from "./strategies.server";

const API = "http://go.test";
const config = (over: Partial<AuthConfig> = {}): AuthConfig => ({
  strategy: "cookie",
  userProperty: false,
  apiUrl: API,
  secureCookies: false,
  ...over,
});

function setup(over: Partial<AuthConfig> = {}, headers: Record<string, string> = {}, now?: () => number) {
  const api = createFakeGoApi();
  const log = silentLog();
  const make = (h: Record<string, string> = headers) =>
    createAuthSession(pageRequest("/news", h), { config: config(over), fetch: api.fetch, log, now });
  return { api, log, make };
}

describe("strategy selection", () => {
  it("defaults to the cookie strategy when none is configured", () => {
    expect(authConfigFromEnv({}).strategy).toBe("cookie");
    expect(authConfigFromEnv({ LINEAGE_AUTH_STRATEGY: "token" }).strategy).toBe("token");
    expect(authConfigFromEnv({ LINEAGE_API_URL: "http://127.0.0.1:9/" }).apiUrl).toBe("http://127.0.0.1:9");
    expect(authConfigFromEnv({ LINEAGE_PUBLIC_URL: "https://x.org" }).secureCookies).toBe(true);
  });

  it("raises 'No strategy is set!' when the strategy is empty", () => {
    expect(() => setup({ strategy: "" }).make()).toThrow(NO_STRATEGY_MESSAGE);
    expect(() => setup({ strategy: undefined }).make()).toThrow(NO_STRATEGY_MESSAGE);
  });

  it("raises 'Strategy not supported' for an unknown strategy", () => {
    expect(() => setup({ strategy: "oauth2" }).make()).toThrow(STRATEGY_NOT_SUPPORTED_MESSAGE);
  });
});

describe("cookie strategy", () => {
  it("is signed out without asking the API when there is no session cookie", async () => {
    const { api, make } = setup();
    const auth = make();
    const state = await auth.resolve();
    expect(state).toEqual({ loggedIn: false, user: null, busy: false, strategy: "cookie" });
    expect(api.calls).toHaveLength(0);
  });

  it("reads the user with the visitor's cookies and address, and relays Go's cookies", async () => {
    const { api, make } = setup();
    const { cookie, csrf } = api.signedInCookie();
    const auth = make({ cookie, "x-forwarded-for": "203.0.113.9" });
    const state = await auth.resolve();
    expect(state.loggedIn).toBe(true);
    expect(state.user).toEqual(ADA);
    const call = api.calls[0]!;
    expect(call.path).toBe("/api/user");
    expect(call.headers.get("cookie")).toBe(cookie);
    expect(call.headers.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(call.headers.get("x-requested-with")).toBe("XMLHttpRequest");
    expect(call.headers.get("accept")).toBe("application/json");
    expect(auth.formToken()).toBe(csrf);
    const response = auth.finish(new Response("page"));
    expect(response.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["lineage_session", "XSRF-TOKEN"]);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("treats an unknown session as signed out", async () => {
    const { make } = setup({}, { cookie: "lineage_session=stale; XSRF-TOKEN=x" });
    expect((await make().resolve()).loggedIn).toBe(false);
  });

  it("raises (and logs, signed out) when the user answer lacks the configured field", async () => {
    const { api, log, make } = setup({ userProperty: "data" });
    const { cookie } = api.signedInCookie();
    const state = await make({ cookie }).resolve();
    expect(state.loggedIn).toBe(false);
    expect(log.lines).toEqual(["[auth] UserFieldMissingError: User Data response does not contain field data"]);
  });

  it("reads the user from the configured field", async () => {
    const { api, make } = setup({ userProperty: "data" });
    api.override((c) => (c.path === "/api/user" ? json(200, { data: ADA }) : undefined));
    const state = await make({ cookie: "lineage_session=s" }).resolve();
    expect(state.user).toEqual(ADA);
  });

  it("logs other failures and never throws them", async () => {
    const { api, log, make } = setup();
    api.override(() => json(500, { message: "Server Error" }));
    const state = await make({ cookie: "lineage_session=s" }).resolve();
    expect(state.loggedIn).toBe(false);
    expect(log.lines[0]).toMatch(/^\[auth\] ApiError: GET \/api\/user answered 500: Server Error$/);
  });

  it("signs in: CSRF cookie, login with its token, then the user", async () => {
    const { api, make } = setup();
    const auth = make();
    const result = await auth.login({ email: ADA.email, password: "correct horse", remember: true });
    expect(result).toEqual({ ok: true, user: ADA });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /sanctum/csrf-cookie", "POST /login", "GET /api/user"]);
    const login = api.calls[1]!;
    expect(login.body).toEqual({ email: ADA.email, password: "correct horse", remember: true });
    expect(login.headers.get("x-xsrf-token")).toMatch(/^csrf/);
    expect(login.headers.get("cookie")).toContain("lineage_session=");
    expect(auth.state.loggedIn).toBe(true);
    // The new session id reaches the browser.
    const cookies = auth.finish(new Response(null)).headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith("lineage_session="))!;
    expect(session).not.toContain(api.calls[0]!.headers.get("cookie") ?? "none");
  });

  it("returns the API's field errors when the credentials are wrong", async () => {
    const { make } = setup();
    const result = await make().login({ email: ADA.email, password: "wrong", remember: false });
    expect(result).toEqual({
      ok: false,
      status: 422,
      message: "These credentials do not match our records.",
      errors: { email: ["These credentials do not match our records."] },
    });
  });

  it("fetches the CSRF cookie again and retries once after a 419", async () => {
    const { api, make } = setup();
    let refused = false;
    api.override((c) => {
      if (c.path === "/login" && !refused) {
        refused = true;
        return json(419, { message: "CSRF token mismatch." });
      }
      return undefined;
    });
    const result = await make().login({ email: ADA.email, password: "correct horse", remember: false });
    expect(result.ok).toBe(true);
    expect(api.calls.filter((c) => c.path === "/sanctum/csrf-cookie")).toHaveLength(2);
  });

  it("signs out with the form's CSRF token", async () => {
    const { api, make } = setup();
    const { cookie, csrf } = api.signedInCookie();
    const auth = make({ cookie });
    await auth.resolve();
    await auth.logout(csrf);
    expect(auth.state.loggedIn).toBe(false);
    const logout = api.calls.find((c) => c.path === "/logout")!;
    expect(logout.headers.get("x-xsrf-token")).toBe(csrf);
    const cookies = auth.finish(new Response(null)).headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("XSRF-TOKEN=csrf") && !c.includes(csrf + ";"))).toBe(true);
  });

  it("ignores a failed sign-out and clears the local state", async () => {
    const { api, make } = setup();
    const { cookie } = api.signedInCookie();
    const auth = make({ cookie });
    await auth.logout("wrong-token");
    expect(auth.state.loggedIn).toBe(false);
    const cookies = auth.finish(new Response(null)).headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("lineage_session=;"))).toMatch(/Max-Age=0/);
    expect(cookies.find((c) => c.startsWith("XSRF-TOKEN=;"))).toMatch(/Max-Age=0/);
  });

  it("ignores a sign-out the API cannot be reached for", async () => {
    const { api, make } = setup();
    api.override((c) => {
      if (c.path === "/logout") throw new TypeError("fetch failed");
      return undefined;
    });
    const auth = make({ cookie: "lineage_session=s" });
    await expect(auth.logout("t")).resolves.toBeUndefined();
    expect(auth.finish(new Response(null)).headers.getSetCookie()).toHaveLength(2);
  });
});

describe("token strategy", () => {
  const NOW = Date.parse("2026-11-21T09:00:00Z");
  const clock = () => NOW;
  const tokenCookies = (tokenExp: number, refreshExp: number | null, token = "lat_good") =>
    [
      `${TOKEN_COOKIES.token}=${token}`,
      `${TOKEN_COOKIES.tokenExpiration}=${tokenExp}`,
      `${TOKEN_COOKIES.refreshToken}=lrt_1`,
      refreshExp === null ? "" : `${TOKEN_COOKIES.refreshTokenExpiration}=${refreshExp}`,
    ]
      .filter(Boolean)
      .join("; ");

  it("signs in with POST /api/tokens and keeps the tokens in the web app's cookies", async () => {
    const { api, make } = setup({ strategy: "token" }, {}, clock);
    api.override((c) =>
      c.path === "/api/tokens"
        ? json(201, { token_type: "Bearer", access_token: "lat_good", token: "lat_good", refresh_token: "lrt_1", refresh_expires_in: 2592000 })
        : undefined,
    );
    const auth = make();
    const result = await auth.login({ email: ADA.email, password: "correct horse", remember: false });
    expect(result.ok).toBe(true);
    expect(api.calls[0]!.body).toEqual({ email: ADA.email, password: "correct horse", name: "web" });
    const cookies = auth.finish(new Response(null)).headers.getSetCookie();
    const byName = Object.fromEntries(cookies.map((c) => [c.split("=")[0], c]));
    expect(byName[TOKEN_COOKIES.token]).toMatch(/^auth\._token\.token=lat_good; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/);
    // No expiry in the answer: the default lifetime of 1800 s.
    expect(byName[TOKEN_COOKIES.tokenExpiration]).toContain(`=${NOW + 1800 * 1000};`);
    expect(byName[TOKEN_COOKIES.refreshTokenExpiration]).toContain(`=${NOW + 2592000 * 1000};`);
    // Cookie expiry is computed in days.
    expect(byName[TOKEN_COOKIES.token]).toContain(`Expires=${new Date(NOW + 30 * 864e5).toUTCString()}`);
    // The user is read with the bearer token and without the visitor's cookies.
    const user = api.calls[1]!;
    expect(user.headers.get("authorization")).toBe("Bearer lat_good");
    expect(user.headers.get("cookie")).toBeNull();
  });

  it("uses a valid token as it is", async () => {
    const { api, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 60_000, NOW + 86_400_000) }, clock);
    const state = await make().resolve();
    expect(state).toMatchObject({ loggedIn: true, strategy: "token" });
    expect(api.calls.map((c) => c.path)).toEqual(["/api/user"]);
  });

  it("refreshes a token within 500 ms of its expiry", async () => {
    const { api, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 400, NOW + 86_400_000, "lat_old") }, clock);
    api.override((c) =>
      c.path === "/api/tokens/refresh" ? json(200, { access_token: "lat_good", expires_in: 1800, refresh_token: "lrt_2", refresh_expires_in: 100 }) : undefined,
    );
    const auth = make();
    expect((await auth.resolve()).loggedIn).toBe(true);
    expect(api.calls.map((c) => c.path)).toEqual(["/api/tokens/refresh", "/api/user"]);
    expect(api.calls[0]!.body).toEqual({ refresh_token: "lrt_1" });
    expect(auth.api.relayedCookies().some((c) => c.startsWith(`${TOKEN_COOKIES.refreshToken}=lrt_2;`))).toBe(true);
  });

  it("keeps a token 600 ms before its expiry", async () => {
    const { api, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 600, NOW + 86_400_000) }, clock);
    await make().resolve();
    expect(api.calls.map((c) => c.path)).toEqual(["/api/user"]);
  });

  it("aborts with ExpiredAuthSessionError and resets when both tokens have expired", async () => {
    const { api, log, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW - 1000, NOW - 1000) }, clock);
    const auth = make();
    await expect(auth.request("GET", "/api/bookmarks")).rejects.toThrow(ExpiredAuthSessionError);
    await expect(auth.request("GET", "/api/bookmarks")).resolves.toMatchObject({ status: 404 }); // reset: anonymous now
    const again = make();
    const state = await again.resolve();
    expect(state.loggedIn).toBe(false);
    expect(log.lines).toEqual([`[auth] ExpiredAuthSessionError: ${EXPIRED_AUTH_SESSION_MESSAGE}`]);
    const removed = again.finish(new Response(null)).headers.getSetCookie();
    expect(removed.every((c) => c.includes("Max-Age=0"))).toBe(true);
    expect(removed).toHaveLength(4);
    expect(api.calls.filter((c) => c.path === "/api/user")).toHaveLength(0);
  });

  it("treats the API's expired-refresh answer as ExpiredAuthSessionError", async () => {
    const { api, log, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW - 1000, null) }, clock);
    api.override((c) => (c.path === "/api/tokens/refresh" ? json(401, { message: EXPIRED_AUTH_SESSION_MESSAGE }) : undefined));
    expect((await make().resolve()).loggedIn).toBe(false);
    expect(log.lines[0]).toBe(`[auth] ExpiredAuthSessionError: ${EXPIRED_AUTH_SESSION_MESSAGE}`);
  });

  it("signs out an unknown token", async () => {
    const { log, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 60_000, NOW + 86_400_000, "lat_unknown") }, clock);
    const auth = make();
    expect((await auth.resolve()).loggedIn).toBe(false);
    expect(log.lines).toEqual([]);
    expect(auth.finish(new Response(null)).headers.getSetCookie().every((c) => c.includes("Max-Age=0"))).toBe(true);
  });

  it("signs out with DELETE /api/tokens/current and clears the cookies even when it fails", async () => {
    const { api, make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 60_000, NOW + 86_400_000) }, clock);
    api.override((c) => (c.path === "/api/tokens/current" ? json(500, { message: "Server Error" }) : undefined));
    const auth = make();
    await auth.logout(null);
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /api/tokens/current"]);
    expect(auth.finish(new Response(null)).headers.getSetCookie()).toHaveLength(4);
  });

  it("checks its own form token, since Go checks none for bearer calls", async () => {
    const { make } = setup({ strategy: "token" }, { cookie: tokenCookies(NOW + 60_000, NOW + 86_400_000) }, clock);
    const auth = make();
    const token = auth.formToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{40}$/);
    const next = make({ cookie: `${tokenCookies(NOW + 60_000, NOW + 86_400_000)}; ${TOKEN_COOKIES.csrf}=${token}` });
    expect(next.acceptsFormToken(token)).toBe(true);
    expect(next.acceptsFormToken("forged")).toBe(false);
    expect(next.acceptsFormToken(null)).toBe(false);
  });

  it("gives signed-out visitors no form token (no cookie on anonymous pages)", async () => {
    const { make } = setup({ strategy: "token" }, {}, clock);
    const auth = make();
    expect(auth.formToken()).toBeNull();
    expect(auth.finish(new Response(null)).headers.get("cache-control")).toBeNull();
  });
});
