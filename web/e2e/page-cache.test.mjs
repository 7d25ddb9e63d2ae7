// The front door's page cache and the CSP that survives it
// (docs/decisions/015-page-cache-and-csp.md): anonymous pages are stored and revalidated
// with ETag / Last-Modified, signed-in pages never are, a members-only record's full
// text never reaches an anonymous visitor, a change is seen at once (an editor's
// request) or as soon as the server learns of it (a command in another process), and on
// a cached page the CSP still blocks an inline script the page did not write while the
// page's own scripts run and React hydrates.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { addUser, checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";
import { demoByType, titleOf } from "./demo.mjs";
import { publish } from "./draft.mjs";

const ctx = setup({ name: "page-cache" });
const HUB = "/research-hub/our-collections";
const TREES = `${HUB}/family-trees`;

/** An anonymous GET: status, headers and text. */
async function anon(p, headers = {}) {
  const res = await fetch(ctx.server.at(p), { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Fetches p until the cache answers it. An unchanged page is a hit the second time; a
 * render that could not be stored (a content fetch that timed out under load answers
 * 503) or a purge landing between the two fetches (a change made by another process is
 * seen by polling) gets a few more tries. The answers seen are in the failure message.
 */
async function cached(p) {
  const seen = [];
  for (let i = 0; i < 5; i++) {
    const res = await anon(p);
    const state = res.headers.get("x-lineage-cache");
    if (i > 0 && state === "hit") return res;
    seen.push(`${res.status} ${state}`);
  }
  assert.fail(`${p} is not answered from the cache: ${seen.join(", ")}`);
}

/** The cookie header of a signed-in browser page, for fetches outside the browser. */
async function cookieHeader(page) {
  const cookies = await page.context().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

describe("HTTP caching of anonymous pages", () => {
  test("a stored page carries a strong ETag, Last-Modified and public Cache-Control, and answers 304 to matching validators only", async () => {
    const first = await cached("/news");
    const etag = first.headers.get("etag");
    const modified = first.headers.get("last-modified");
    assert.match(etag ?? "", /^"[A-Za-z0-9_-]+"$/, "a strong ETag");
    assert.ok(modified && !Number.isNaN(Date.parse(modified)), "Last-Modified is a date");
    assert.match(first.headers.get("cache-control"), /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    assert.equal(first.headers.get("vary"), "Accept-Encoding, Cookie");

    const byTag = await anon("/news", { "If-None-Match": etag });
    assert.equal(byTag.status, 304);
    assert.equal(byTag.text, "", "a 304 has no body");
    assert.equal(byTag.headers.get("etag"), etag);
    assert.equal(byTag.headers.get("content-security-policy"), first.headers.get("content-security-policy"), "a 304 keeps the page's CSP");

    assert.equal((await anon("/news", { "If-None-Match": `"other", ${etag}` })).status, 304, "any tag of a list");
    assert.equal((await anon("/news", { "If-None-Match": '"not-this-page"' })).status, 200);
    assert.equal((await anon("/news", { "If-Modified-Since": modified })).status, 304);
    assert.equal((await anon("/news", { "If-Modified-Since": new Date(Date.parse(modified) - 60_000).toUTCString() })).status, 200);
    // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
    assert.equal((await anon("/news", { "If-None-Match": '"not-this-page"', "If-Modified-Since": modified })).status, 200);
    // Another page's tag does not match this one.
    const other = await cached("/sog-events");
    assert.equal((await anon("/sog-events", { "If-None-Match": etag })).status, 200);
    assert.notEqual(other.headers.get("etag"), etag);
  });

  test("the not-found page is stored and answered 404 from the cache", async () => {
    const res = await cached("/no-such-page-for-the-cache");
    assert.equal(res.status, 404);
    assert.match(res.text, /<html lang="en"/);
  });

  test("query strings are normalised: parameter order and tracking parameters share one entry", async () => {
    await anon("/news?page=1&utm_source=newsletter");
    const res = await anon("/news?utm_campaign=spring&page=1");
    assert.equal(res.headers.get("x-lineage-cache"), "hit");
  });
});

describe("signed-in visitors", () => {
  test("get private, no-store pages of their own, never a stored one, and their pages are never served to anyone else", { timeout: 90_000 }, async () => {
    // The anonymous home page is stored first.
    const stored = await cached("/");
    const email = addUser(ctx, "registered", "Priya Private");
    const page = await ctx.newPage();
    await signIn(ctx, page, { email }, "/");
    // The signed-in home page names the visitor; the stored one does not.
    await ctx.visit(page, "/");
    assert.match(await page.content(), /Priya Private/);
    assert.doesNotMatch(stored.text, /Priya Private/);

    const cookie = await cookieHeader(page);
    for (let i = 0; i < 2; i++) {
      const mine = await anon("/", { Cookie: cookie });
      assert.equal(mine.headers.get("cache-control"), "private, no-store");
      assert.equal(mine.headers.get("x-lineage-cache"), "bypass");
      assert.equal(mine.headers.get("etag"), null);
      assert.match(mine.text, /Priya Private/, "the signed-in visitor gets their own page, not the stored one");
    }
    // A visitor with only the CSRF cookie (an expired session) is not anonymous either:
    // the page would carry that token.
    const xsrf = (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN");
    if (xsrf) {
      const res = await anon("/news", { Cookie: `XSRF-TOKEN=${xsrf.value}` });
      assert.equal(res.headers.get("x-lineage-cache"), "bypass");
    }
    // After all that, anonymous visitors still get the anonymous page.
    for (const p of ["/", "/news", "/user-account"]) {
      const res = await anon(p);
      assert.doesNotMatch(res.text, /Priya Private/, `${p} for an anonymous visitor`);
    }
    // Unknown cookies (analytics) do not make a page personal, and are not sent on.
    const withAnalytics = await anon("/", { Cookie: "_ga=GA1.1.123; theme=dark" });
    assert.equal(withAnalytics.headers.get("x-lineage-cache"), "hit");
  });

  test("a members-only record's full text never reaches an anonymous visitor, whoever viewed it first", { timeout: 90_000 }, async () => {
    const search = await (await fetch(ctx.server.at("/api/research/search?collection=wills-index&sort=date&limit=1"))).json();
    const [result] = search.results;
    assert.ok(result?.teaser, "the demo's wills are members-only");
    const record = `${HUB}/records/${result.id}`;

    const editor = await ctx.newPage();
    await signIn(ctx, editor, { email: addUser(ctx, "editor", "Edith Member") }, "/");
    await ctx.visit(editor, record);
    await editor.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();

    for (let i = 0; i < 2; i++) {
      const res = await anon(record);
      assert.equal(res.status, 200);
      assert.doesNotMatch(res.text, /People in this record/, "no full record in the anonymous page");
      assert.match(res.text, /Join to see the whole record/);
    }
    assert.equal((await anon(record)).headers.get("x-lineage-cache"), "hit", "the anonymous (teaser) page is stored");
    // And the stored teaser is not what the member gets.
    await ctx.visit(editor, record);
    await editor.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    const visitor = await ctx.newPage();
    await ctx.visit(visitor, record);
    await visitor.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();
  });
});

describe("purging", () => {
  test("an editor's change through the API is seen by the next anonymous request", { timeout: 90_000 }, async () => {
    const trees = await cached(TREES);
    assert.match(trees.text, /Ashworth/, "the demo tree is listed");
    const editor = await ctx.newPage();
    await signIn(ctx, editor, { email: addUser(ctx, "editor", "Edith Editor") }, "/");
    const call = (action) =>
      editor.evaluate(async (action) => {
        const xsrf = decodeURIComponent(document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="))?.slice(11) ?? "");
        const res = await fetch(`/api/trees/ashworth-family/${action}`, { method: "POST", headers: { Accept: "application/json", "X-XSRF-TOKEN": xsrf } });
        return res.status;
      }, action);
    try {
      assert.equal(await call("unpublish"), 200);
      const after = await anon(TREES);
      assert.notEqual(after.headers.get("x-lineage-cache"), "hit");
      assert.doesNotMatch(after.text, /Ashworth/, "the unpublished tree is gone at once");
    } finally {
      assert.equal(await call("publish"), 200);
    }
    assert.match((await anon(TREES)).text, /Ashworth/, "and back once published");
  });

  test("an admin's change to a membership plan is on /subscribe for the next anonymous visitor", { timeout: 90_000 }, async () => {
    const before = await cached("/subscribe");
    const admin = await ctx.newPage();
    await signIn(ctx, admin, { email: addUser(ctx, "admin", "Ada Admin") }, "/");
    const rename = (name) =>
      admin.evaluate(async (name) => {
        const xsrf = decodeURIComponent(document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="))?.slice(11) ?? "");
        const plan = await (await fetch("/api/membership/plans/individual", { headers: { Accept: "application/json" } })).json();
        const old = plan.name;
        const res = await fetch("/api/admin/membership/plans/individual", {
          method: "PUT",
          headers: { Accept: "application/json", "Content-Type": "application/json", "X-XSRF-TOKEN": xsrf },
          body: JSON.stringify({ ...plan, name: name ?? old }),
        });
        return { status: res.status, old };
      }, name);
    const newName = `Individual ${Date.now()}`;
    const { status, old } = await rename(newName);
    try {
      assert.equal(status, 200);
      assert.doesNotMatch(before.text, new RegExp(newName));
      const after = await anon("/subscribe");
      assert.notEqual(after.headers.get("x-lineage-cache"), "hit");
      assert.match(after.text, new RegExp(newName), "the renamed plan is offered at once");
    } finally {
      await admin.evaluate(async (old) => {
        const xsrf = decodeURIComponent(document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="))?.slice(11) ?? "");
        const plan = await (await fetch("/api/membership/plans/individual", { headers: { Accept: "application/json" } })).json();
        await fetch("/api/admin/membership/plans/individual", {
          method: "PUT",
          headers: { Accept: "application/json", "Content-Type": "application/json", "X-XSRF-TOKEN": xsrf },
          body: JSON.stringify({ ...plan, name: old }),
        });
      }, old);
    }
  });

  test("content published by `lineage content import` in another process replaces the stored page", { timeout: 90_000 }, async () => {
    const [doc] = demoByType("news_item");
    const p = `/news/${doc.uid}`;
    const before = await cached(p);
    assert.ok(before.text.includes(titleOf(doc).replace(/&/g, "&amp;")) || before.text.includes(titleOf(doc)), "the stored page shows the old title");
    const newTitle = `Revised ${Date.now()}`;
    const changed = structuredClone(doc);
    changed.data.title = [{ type: "heading1", text: newTitle, spans: [] }];
    publish(ctx.server.dataDir, changed);
    // The server reads the page generation a few times a second on SQLite.
    let text = "";
    for (let i = 0; i < 100 && !text.includes(newTitle); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = (await anon(p)).text;
    }
    assert.ok(text.includes(newTitle), "the new version is served");
    // Put the demo document back for the other tests.
    publish(ctx.server.dataDir, doc);
    // Wait for that purge to land here too, so it cannot empty the cache in the middle
    // of a later test.
    for (let i = 0; i < 100 && text.includes(newTitle); i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = (await anon(p)).text;
    }
    assert.ok(!text.includes(newTitle), "the demo document is back");
  });
});

describe("the CSP on cached pages", () => {
  test("names the page's inline scripts by hash, blocks an injected inline script, and the page still hydrates", { timeout: 60_000 }, async () => {
    const p = "/news";
    const res = await cached(p);
    const csp = res.headers.get("content-security-policy");
    assert.match(csp, /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/, "inline scripts are admitted by hash");
    assert.doesNotMatch(/script-src[^;]*/.exec(csp)[0], /'unsafe-inline'|'nonce-|'strict-dynamic'/, "no unsafe-inline or nonce for scripts");
    assert.doesNotMatch(res.text, /\bnonce="/, "no nonce left in the stored HTML");

    const page = await ctx.newPage();
    const violations = [];
    await page.exposeFunction("__reportViolation", (v) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => window.__reportViolation(`${e.violatedDirective} ${e.sample}`));
    });
    // The cached answer, as the server sent it (headers and all), with one inline script
    // added, as an HTML injection would.
    ctx.expectProblem(page, { console: /Content Security Policy/ }, "the test injects an inline script for the CSP to block");
    ctx.expectProblem(page, { console: /Minified React error #418\b/ }, "the injected <script> is not in React's tree: hydration reports the mismatch and recovers");
    let servedFrom = "";
    await page.route(ctx.server.at(p), async (route) => {
      let response = await route.fetch();
      // A purge since cached() (another test's publish) is rendered and stored again.
      if (response.headers()["x-lineage-cache"] !== "hit") response = await route.fetch();
      servedFrom = response.headers()["x-lineage-cache"];
      const html = (await response.text()).replace("</main>", "<script>window.__injected = true;</script></main>");
      await route.fulfill({ response, body: html });
    });
    await page.goto(p, { waitUntil: "load" });
    assert.equal(servedFrom, "hit", "the page came from the cache");
    await waitForHydration(page);
    assert.equal(await page.evaluate(() => window.__injected), undefined, "the injected script did not run");
    assert.ok(violations.some((v) => /script-src/.test(v)), `the browser reported the blocked script (${violations.join("; ")})`);
    assert.equal(await page.evaluate(() => typeof window.__reactRouterContext), "object", "the page's own inline scripts ran");

    // Hydrated: a link navigates in the browser, without a document request.
    await page.unroute(ctx.server.at(p));
    const documents = [];
    page.on("request", (r) => r.resourceType() === "document" && r.frame() === page.mainFrame() && documents.push(r.url()));
    await page.evaluate(() => (window.__marker = "still here"));
    const link = page.locator('main a[href^="/news/"]').first();
    const href = await link.getAttribute("href");
    await link.click();
    await page.waitForURL(`**${href}`);
    assert.equal(await page.evaluate(() => window.__marker), "still here");
    assert.deepEqual(documents, []);
    await checkA11y(page, `${href} (after client navigation)`);
  });

  test("a page served from the cache to a fresh browser runs with no CSP violation", async () => {
    // The home page (served without React; its video's play script) and a page that hydrates.
    for (const p of ["/", "/news"]) {
      await cached(p);
      const page = await ctx.newPage();
      await ctx.visit(page, p); // ctx.visit fails on any CSP report
      if (p === "/") await page.locator("section.slice--video a[data-player]").waitFor();
      else await waitForHydration(page);
    }
  });
});
