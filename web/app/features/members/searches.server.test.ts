import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { authContext, createAuthSession } from "../auth/index.server";
import { createFakeGoApi, json, pageRequest, silentLog } from "../auth/fake-go-api.test-support";
import { runAccountAction, SAVED_SEARCH_INTENTS } from "./account-actions.server";
import { recordSearch } from "./search-history.server";
import { searchFromUrl } from "./searches";

describe("searchFromUrl", () => {
  it("keeps repeated parameters as lists and drops paging and empty values", () => {
    expect(searchFromUrl("/research-hub/our-collections/searchexplore?surname=Smith&county=Kent&county=Sussex&page=3&given=")).toEqual({
      path: "/research-hub/our-collections/searchexplore",
      params: { surname: "Smith", county: ["Kent", "Sussex"] },
    });
  });
  it("refuses what is not a local path", () => {
    expect(searchFromUrl("https://evil.example/x?a=1")).toBeNull();
    expect(searchFromUrl("//evil.example/x")).toBeNull();
  });
});

async function signedIn(loggedIn = true) {
  const api = createFakeGoApi();
  api.override((c) => {
    if (c.path === "/api/search-history") return json(201, { id: 1 });
    if (c.path === "/api/saved-searches") return json(201, { id: 2, name: (c.body as { name: string }).name });
    return undefined;
  });
  const { cookie, csrf } = loggedIn ? api.signedInCookie() : { cookie: "", csrf: "" };
  const auth = createAuthSession(pageRequest("/x", cookie ? { cookie } : {}), {
    config: { strategy: "cookie", userProperty: false, apiUrl: "http://go.test", secureCookies: false },
    fetch: api.fetch,
    log: silentLog(),
  });
  await auth.resolve();
  const context = new RouterContextProvider();
  context.set(authContext, auth);
  return { api, context, csrf, posts: () => api.calls.filter((c) => c.method === "POST") };
}

describe("saved searches and history", () => {
  it("saves the search of the page it was posted from", async () => {
    const t = await signedIn();
    const form = new FormData();
    form.set("_token", t.csrf);
    form.set("intent", "saved-create");
    form.set("name", "Smiths in Kent");
    form.set("url", "/search?surname=Smith&county=Kent");
    const result = await runAccountAction(t.context, form, SAVED_SEARCH_INTENTS);
    expect(result.ok).toBe(true);
    expect(t.posts()[0]!.body).toEqual({ name: "Smiths in Kent", path: "/search", params: { surname: "Smith", county: "Kent" } });
  });

  it("records a signed-in member's search with a summary", async () => {
    const t = await signedIn();
    await recordSearch(t.context, "/search?surname=Smith", "Smith, 35 results");
    const post = t.posts()[0]!;
    expect(post.body).toEqual({ path: "/search", params: { surname: "Smith" }, summary: "Smith, 35 results" });
    expect(post.headers.get("x-xsrf-token")).toBe(t.csrf);
  });

  it("records nothing for visitors or searches without parameters", async () => {
    const anonymous = await signedIn(false);
    await recordSearch(anonymous.context, "/search?surname=Smith");
    expect(anonymous.api.calls).toHaveLength(0);
    const member = await signedIn();
    await recordSearch(member.context, "/search?page=2");
    expect(member.posts()).toHaveLength(0);
  });
});
