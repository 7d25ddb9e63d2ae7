// Error pages (seed-spec §2, §8): 404 "This page could not be found" for unmatched
// routes, paths deeper than six segments, unknown documents and documents asked for at
// a path that is not theirs; and, with the content service down, lists that still
// render (empty state, 200) and single documents that get the generic error page.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, freePort, setup } from "./harness.mjs";
import { newsNewestFirst } from "./demo.mjs";

const ctx = setup({ name: "errors" });
const NOT_FOUND = "This page could not be found";
const GO_HOME = "Go back to home";

async function assertErrorPage(page, path, heading) {
  const h1 = (await page.locator("h1").allTextContents()).map((t) => t.trim());
  assert.deepEqual(h1, [heading], `h1 of ${path}`);
  const home = page.locator("main a", { hasText: GO_HOME });
  assert.equal(await home.count(), 1, `"${GO_HOME}" link on ${path}`);
  assert.equal(await home.getAttribute("href"), "/", `"${GO_HOME}" goes to /`);
  assert.equal(await page.getAttribute("html", "lang"), "en");
}

describe("not found", () => {
  const cases = [
    ["an unknown one-segment route", "/fhwuifhe-no-such-page"],
    ["an unknown nested route", "/about/organisation/no-such-page"],
    ["a path of seven segments", "/a/b/c/d/e/f/g"],
    ["an unknown news uid", "/news/no-such-news-item"],
    ["an unknown featured uid", "/education/learning-hub/featured/no-such-item"],
    ["an unknown fhwuifhe uid", "/fhwuifhe/no-such-notice"],
    ["an unknown cwbhvwt uid", "/cwbhvwt/no-such-volunteer-role"],
    // A real page asked for at a path the link resolver does not give it.
    ["a page outside its resolved path", "/surname-searching"],
    ["a guide under the wrong parent", "/learn/hints-tips/how-to-start-your-family-tree"],
    ["a news uid as a content page", `/${newsNewestFirst()[0].uid}`],
    ["a news list page that does not exist", "/news?page=999"],
    ["a malformed news list page", "/news?page=abc"],
  ];
  for (const [what, path] of cases) {
    test(`${what} (${path}) is 404 "${NOT_FOUND}"`, async () => {
      const page = await ctx.newPage({ javaScriptEnabled: false });
      await ctx.visit(page, path, { status: 404 });
      await assertErrorPage(page, path, NOT_FOUND);
    });
  }

  test("a 404 page hydrates and its home link navigates in the browser", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/a/b/c/d/e/f/g", { status: 404 });
    await assertErrorPage(page, "/a/b/c/d/e/f/g", NOT_FOUND);
    await page.waitForFunction(() => {
      const a = [...document.querySelectorAll("main a")].find((e) => e.textContent.includes("Go back to home"));
      return a && Object.keys(a).some((k) => k.startsWith("__reactFiber"));
    });
    await page.evaluate(() => {
      window.__marker = 1;
    });
    await page.locator("main a", { hasText: GO_HOME }).click();
    await page.waitForURL(ctx.server.at("/"));
    await page.locator("main h1").waitFor();
    assert.equal(await page.evaluate(() => window.__marker), 1, "no full reload");
    await checkA11y(page, "/ (after client navigation from a 404)");
  });

  test("Go-owned prefixes are not pages", async () => {
    for (const path of ["/content/no-such-thing", "/media/no-such-file.svg", "/assets/no-such-file.js"]) {
      const res = await fetch(ctx.server.at(path));
      assert.equal(res.status, 404, path);
    }
  });
});

describe("content service down", () => {
  let down;
  before(
    async () => {
      // Nothing listens on this port: every content request is refused at once.
      const closed = await freePort();
      down = await ctx.startServer({
        name: "content-down",
        env: { LINEAGE_CONTENT_API: `http://127.0.0.1:${closed}/content/api/v2` },
      });
    },
    { timeout: 120_000 },
  );

  const lists = ["/", "/news", "/education", "/education/learning-hub/featured", "/fhwuifhe", "/cwbhvwt", "/dheyenbvu"];
  for (const path of lists) {
    test(`${path} renders its empty state with a notice, not a 500`, async () => {
      const page = await ctx.newPage({ javaScriptEnabled: false, baseURL: down.url });
      await ctx.visit(page, path, { status: 200 });
      const notice = page.locator("main [role=status]", { hasText: "could not be loaded" });
      assert.equal(await notice.count(), 1, `an unavailable notice on ${path}`);
      assert.equal(await page.locator("h1").count(), 1, `${path} still has its heading`);
      // Not kept, nor its data for a client-side navigation: the next visitor gets the
      // page again, whole once the service answers.
      for (const p of [path, path === "/" ? "/_.data" : `${path}.data`]) {
        for (let i = 0; i < 2; i++) {
          const res = await fetch(down.at(p));
          assert.equal(res.status, 200, p);
          assert.equal(res.headers.get("cache-control"), "no-store", `${p}: a degraded page is not for any cache`);
          assert.notEqual(res.headers.get("x-lineage-cache"), "hit", `${p}: not served from the page cache`);
        }
      }
    });
  }

  // Single documents, section pages with a page document of their own included.
  const singles = [
    `/news/${newsNewestFirst()[0].uid}`,
    "/learn/guides/how-to-start-your-family-tree",
    "/learn/guides",
    "/fhwuifhe/handling-original-documents",
  ];
  for (const path of singles) {
    test(`${path} shows the generic error page (503) with "${GO_HOME}"`, async () => {
      const page = await ctx.newPage({ javaScriptEnabled: false, baseURL: down.url });
      await ctx.visit(page, path, { status: 503 });
      await assertErrorPage(page, path, "This page is temporarily unavailable");
      const text = await page.locator("main").textContent();
      assert.doesNotMatch(text, /ECONNREFUSED|fetch failed|at .*\.js:\d+/, "no internals leak into the page");
    });
  }

  test("feeds and the sitemap stay valid and empty", async () => {
    const rss = await fetch(`${down.url}/feeds/news.xml`);
    assert.equal(rss.status, 200, "/feeds/news.xml");
    const body = await rss.text();
    assert.match(body, /<rss[\s>]/);
    assert.doesNotMatch(body, /<item>/);
    const sitemap = await fetch(`${down.url}/sitemap.xml`);
    assert.equal(sitemap.status, 200, "/sitemap.xml");
    assert.match(await sitemap.text(), /<urlset/);
  });
});
