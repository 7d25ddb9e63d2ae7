import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { authContext, GONE_MESSAGE, createAuthSession } from "../auth/index.server";
import { FORM_EXPIRED_MESSAGE, SERVICE_FAILED_MESSAGE } from "../auth";
import { createFakeGoApi, json, pageRequest, silentLog, type RecordedCall } from "../auth/fake-go-api.test-support";
import { ACCOUNT_INTENTS, READING_LIST_INTENTS, runAccountAction } from "./account-actions.server";
import { toggleBookmark } from "./bookmark-actions.server";

const LIST = {
  id: 7,
  name: "Winter",
  item_count: 3,
  created_at: "2026-11-21T08:00:00Z",
  updated_at: "2026-11-21T08:00:00Z",
  items: [
    { id: 11, url: "/news/a", title: "A", position: 0, created_at: "2026-11-21T08:00:00Z" },
    { id: 12, url: "/news/b", title: "B", position: 1, created_at: "2026-11-21T08:00:00Z" },
    { id: 13, url: "/news/c", title: "", position: 2, created_at: "2026-11-21T08:00:00Z" },
  ],
};

async function setup(answer: (call: RecordedCall) => Response | undefined) {
  const api = createFakeGoApi();
  api.override(answer);
  const { cookie, csrf } = api.signedInCookie();
  const log = silentLog();
  const auth = createAuthSession(pageRequest("/user-account", { cookie }), {
    config: { strategy: "cookie", userProperty: false, apiUrl: "http://go.test", secureCookies: false },
    fetch: api.fetch,
    log,
  });
  await auth.resolve();
  const context = new RouterContextProvider();
  context.set(authContext, auth);
  const form = (fields: Record<string, string>, token: string | null = csrf) => {
    const data = new FormData();
    if (token) data.set("_token", token);
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return data;
  };
  const mutations = () => api.calls.filter((c) => c.method !== "GET");
  return { api, context, form, csrf, log, mutations };
}

describe("account actions", () => {
  it("moves an item up by sending the whole new order, and says where it went", async () => {
    const t = await setup((c) => {
      if (c.path === "/api/reading-lists/7" && c.method === "GET") return json(200, LIST);
      if (c.path === "/api/reading-lists/7/order") return json(200, LIST);
      return undefined;
    });
    const result = await runAccountAction(t.context, t.form({ intent: "item-move", list: "7", id: "13", direction: "up" }), READING_LIST_INTENTS);
    expect(result).toMatchObject({ ok: true, intent: "item-move", target: "13", moved: { id: 13, direction: "up", position: 2, count: 3 } });
    expect(result.message).toBe("Moved “/news/c” to position 2 of 3.");
    const put = t.mutations()[0]!;
    expect(put.method).toBe("PUT");
    expect(put.body).toEqual({ item_ids: [11, 13, 12] });
    expect(put.headers.get("x-xsrf-token")).toBe(t.csrf);
  });

  it("does not move the first item further up", async () => {
    const t = await setup((c) => (c.path === "/api/reading-lists/7" ? json(200, LIST) : undefined));
    const result = await runAccountAction(t.context, t.form({ intent: "item-move", list: "7", id: "11", direction: "up" }), READING_LIST_INTENTS);
    expect(result).toMatchObject({ ok: true, message: "“A” is already first." });
    expect(t.mutations()).toHaveLength(0);
  });

  it("passes the API's field errors through", async () => {
    const t = await setup((c) =>
      c.path === "/api/reading-lists" && c.method === "POST"
        ? json(422, { message: "The name field is required.", errors: { name: ["The name field is required."] } })
        : undefined,
    );
    const result = await runAccountAction(t.context, t.form({ intent: "list-create", name: "" }), ACCOUNT_INTENTS);
    expect(result).toEqual({
      ok: false,
      intent: "list-create",
      errors: { name: ["The name field is required."] },
      message: "The name field is required.",
      values: { name: "" },
    });
  });

  it("says the form expired when the CSRF token is refused", async () => {
    const t = await setup(() => undefined);
    const result = await runAccountAction(t.context, t.form({ intent: "history-clear" }, "stale"), ACCOUNT_INTENTS);
    expect(result).toEqual({ ok: false, intent: "history-clear", message: FORM_EXPIRED_MESSAGE });
  });

  it("treats another member's item like a missing one", async () => {
    const t = await setup((c) => (c.path === "/api/saved-searches/99" ? json(404, { message: "Not Found" }) : undefined));
    const result = await runAccountAction(t.context, t.form({ intent: "saved-rename", id: "99", name: "x" }), ACCOUNT_INTENTS);
    expect(result).toMatchObject({ ok: false, target: "99", message: GONE_MESSAGE });
  });

  it("logs a server failure and shows a plain sentence", async () => {
    const t = await setup((c) => (c.method === "PATCH" ? json(500, { message: "Server Error" }) : undefined));
    const result = await runAccountAction(t.context, t.form({ intent: "profile", name: "Ada" }), ACCOUNT_INTENTS);
    expect(result).toMatchObject({ ok: false, message: SERVICE_FAILED_MESSAGE });
    expect(t.log.lines).toEqual(["[members] PATCH /api/user answered 500: Server Error"]);
  });

  it("refuses intents the page does not offer", async () => {
    const t = await setup(() => undefined);
    const result = await runAccountAction(t.context, t.form({ intent: "list-delete", id: "7" }), ACCOUNT_INTENTS);
    expect(result.ok).toBe(false);
    expect(t.mutations()).toHaveLength(0);
  });

  const deletes: { intent: string; intents: readonly string[]; path: string; name: Record<string, string>; message: string }[] = [
    { intent: "bookmark-remove", intents: ACCOUNT_INTENTS, path: "/api/bookmarks", name: { title: "X" }, message: "Removed “X” from your bookmarks." },
    { intent: "list-delete", intents: READING_LIST_INTENTS, path: "/api/reading-lists", name: { name: "Winter" }, message: "Deleted the reading list “Winter”." },
    { intent: "saved-delete", intents: ACCOUNT_INTENTS, path: "/api/saved-searches", name: { name: "Smiths" }, message: "Deleted the saved search “Smiths”." },
    { intent: "history-delete", intents: ACCOUNT_INTENTS, path: "/api/search-history", name: {}, message: "Removed the search from your history." },
  ];

  it.each(deletes)("$intent deletes the numbered one and says so; one already gone (404) is done too", async ({ intent, intents, path, name, message }) => {
    const t = await setup((c) => (c.method === "DELETE" && c.path === `${path}/5` ? new Response(null, { status: 204 }) : undefined));
    expect(await runAccountAction(t.context, t.form({ intent, id: "5", ...name }), intents)).toEqual({ ok: true, intent, target: "5", message });
    expect(t.mutations().map((c) => `${c.method} ${c.path}`)).toEqual([`DELETE ${path}/5`]);
    expect(await runAccountAction(t.context, t.form({ intent, id: "6", ...name }), intents)).toEqual({ ok: true, intent, target: "6", message });
    expect(t.mutations().map((c) => `${c.method} ${c.path}`)).toEqual([`DELETE ${path}/5`, `DELETE ${path}/6`]);
  });

  it.each(deletes)("$intent without a number sends nothing", async ({ intent, intents, name }) => {
    const t = await setup(() => undefined);
    const result = await runAccountAction(t.context, t.form({ intent, id: "5/../../user", ...name }), intents);
    expect(result).toMatchObject({ ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." });
    expect(t.mutations()).toHaveLength(0);
  });

  it.each(deletes)("$intent shows the API's failure at the one it was for", async ({ intent, intents, path, name }) => {
    const t = await setup((c) => (c.path === `${path}/5` ? json(500, { message: "Server Error" }) : undefined));
    const result = await runAccountAction(t.context, t.form({ intent, id: "5", ...name }), intents);
    expect(result).toMatchObject({ ok: false, intent, target: "5", message: SERVICE_FAILED_MESSAGE });
  });

  it("adds one of the member's bookmarks to a list", async () => {
    const t = await setup((c) => {
      if (c.path === "/api/bookmarks") return json(200, { data: [{ id: 5, url: "/news/x", title: "X", created_at: "" }] });
      if (c.path === "/api/reading-lists/7/items") return json(201, { id: 1 });
      return undefined;
    });
    const result = await runAccountAction(t.context, t.form({ intent: "list-add", list: "7", bookmark: "5", target: "b5" }), ACCOUNT_INTENTS);
    expect(result).toMatchObject({ ok: true, target: "b5", message: "Added “X” to the list." });
    expect(t.mutations()[0]!.body).toEqual({ url: "/news/x", title: "X" });
  });
});

describe("bookmark toggle", () => {
  it("adds a bookmark with the page's path and title", async () => {
    const t = await setup((c) => (c.path === "/api/bookmarks" && c.method === "POST" ? json(201, { id: 9, url: "/news/x", title: "X" }) : undefined));
    const result = await toggleBookmark(t.context, t.form({ intent: "add", url: "/news/x", title: " X " }));
    expect(result).toEqual({ ok: true, intent: "add", id: 9, message: "Added to your bookmarks." });
    expect(t.mutations()[0]!.body).toEqual({ url: "/news/x", title: "X" });
  });

  it("removes by id, or finds the id by the page's path", async () => {
    const t = await setup((c) => {
      if (c.path === "/api/bookmarks?url=%2Fnews%2Fx") return json(200, { data: [{ id: 9, url: "/news/x", title: "X", created_at: "" }] });
      if (c.path === "/api/bookmarks/9") return new Response(null, { status: 204 });
      return undefined;
    });
    expect(await toggleBookmark(t.context, t.form({ intent: "remove", url: "/news/x" }))).toMatchObject({ ok: true, id: null });
    expect(t.mutations().map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /api/bookmarks/9"]);
  });
});
