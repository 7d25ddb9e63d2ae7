import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { authContext } from "../features/auth/context";
import { createFakeGoApi, json, pageRequest, silentLog, type RecordedCall } from "../features/auth/fake-go-api.test-support";
import { createAuthSession } from "../features/auth/session.server";
import { loader } from "./veryconnect-auth";

async function run(query: string, answer: (c: RecordedCall) => Response | undefined) {
  const api = createFakeGoApi();
  api.override(answer);
  const request = pageRequest(`/veryconnect-auth${query}`, { cookie: "lineage_session=guest; XSRF-TOKEN=tok" });
  const auth = createAuthSession(request, {
    config: { strategy: "cookie", userProperty: false, apiUrl: "http://go.test", secureCookies: false },
    fetch: api.fetch,
    log: silentLog(),
  });
  const context = new RouterContextProvider();
  context.set(authContext, auth);
  const args = { request, context, url: new URL(request.url), params: {}, pattern: "/veryconnect-auth" } as never;
  try {
    return { result: await loader(args), calls: api.calls };
  } catch (thrown) {
    return { thrown: thrown as Response, calls: api.calls };
  }
}

const body = (r: unknown) => (r as { data: { message: string } }).data;

describe("/veryconnect-auth", () => {
  it("hands code and state to the API with the session and its CSRF token, then follows the redirect", async () => {
    const { thrown, calls } = await run("?code=C&state=S", (c) =>
      c.path === "/api/oidc/callback" ? json(200, { redirect: "/user-account", user: {} }) : undefined,
    );
    expect(thrown?.status).toBe(302);
    expect(thrown?.headers.get("location")).toBe("/user-account");
    expect(calls[0]!.body).toEqual({ state: "S", code: "C" });
    expect(calls[0]!.headers.get("x-xsrf-token")).toBe("tok");
    expect(calls[0]!.headers.get("cookie")).toContain("lineage_session=guest");
  });

  it("goes home when the API's redirect is not a valid local path", async () => {
    const { thrown } = await run("?code=C&state=S", () => json(200, { redirect: "//evil.example" }));
    expect(thrown?.headers.get("location")).toBe("/");
  });

  it("passes the provider's refusal on", async () => {
    const { result, calls } = await run("?error=access_denied&error_description=no&state=S", () =>
      json(422, { message: "x", errors: { code: ["The sign-in was cancelled or refused by VeryConnect."] } }),
    );
    expect(calls[0]!.body).toEqual({ state: "S", error: "access_denied", error_description: "no" });
    expect(body(result).message).toBe("The sign-in was cancelled or refused by VeryConnect.");
  });

  it("says so when the link is incomplete, without calling the API", async () => {
    const { result, calls } = await run("?code=C", () => undefined);
    expect(body(result).message).toMatch(/incomplete/);
    expect(calls).toHaveLength(0);
  });
});
