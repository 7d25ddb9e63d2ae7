import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { authContext } from "./context";
import { ADA, createFakeGoApi, pageRequest, silentLog } from "./fake-go-api.test-support";
import { createAuthMiddleware } from "./middleware.server";
import type { AccessLevel } from "./access";

function run(path: string, level: AccessLevel, headers: Record<string, string> = {}, resource = false) {
  const api = createFakeGoApi();
  const log = silentLog();
  const middleware = createAuthMiddleware({
    routeAccess: async () => ({ level, resource }),
    config: { strategy: "cookie", userProperty: false, apiUrl: "http://go.test", secureCookies: false },
    fetch: api.fetch,
    log,
  });
  const context = new RouterContextProvider();
  let nextCalled = false;
  const go = async (cookie?: string) => {
    const request = pageRequest(path, cookie ? { ...headers, cookie } : headers);
    const url = new URL(request.url);
    const response = (await middleware({ request, url, context, params: {}, pattern: "" }, async () => {
      nextCalled = true;
      return new Response("page");
    })) as Response;
    return { response, nextCalled, auth: context.get(authContext)! };
  };
  return { api, log, go };
}

describe("auth middleware", () => {
  it("redirects signed-out visitors of protected pages to sign-in with the wanted path", async () => {
    const { go } = run("/user-account?tab=lists", "required");
    const { response, nextCalled } = await go();
    expect(nextCalled).toBe(false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/sign-in?redirect=%2Fuser-account%3Ftab%3Dlists");
  });

  it("lets signed-in users through and puts their state in the context", async () => {
    const { api, go } = run("/user-account", "required");
    const { response, nextCalled, auth } = await go(api.signedInCookie().cookie);
    expect(nextCalled).toBe(true);
    expect(await response.text()).toBe("page");
    expect(auth.state).toEqual({ loggedIn: true, user: ADA, busy: false, strategy: "cookie" });
    expect(response.headers.getSetCookie()).toHaveLength(2);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("sends signed-in users on guest pages home", async () => {
    const { api, go } = run("/sign-in", "guest");
    const { response } = await go(api.signedInCookie().cookie);
    expect(response.headers.get("location")).toBe("/");
    // The renewed cookies travel with the redirect.
    expect(response.headers.getSetCookie()).toHaveLength(2);
  });

  it("treats an expired session on a protected page as signed out", async () => {
    const { go } = run("/user-account", "required");
    const { response } = await go("lineage_session=gone; XSRF-TOKEN=old");
    expect(response.headers.get("location")).toBe("/sign-in?redirect=%2Fuser-account");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("leaves public resource routes alone", async () => {
    const { api, go } = run("/sitemap.xml", "public", {}, true);
    const { response, nextCalled } = await go(api.signedInCookie().cookie);
    expect(nextCalled).toBe(true);
    expect(api.calls).toHaveLength(0);
    expect(response.headers.get("cache-control")).toBeNull();
  });

  it("shows public pages to everyone", async () => {
    const { api, go } = run("/news", "public");
    expect((await go()).nextCalled).toBe(true);
    expect(api.calls).toHaveLength(0);
  });
});
