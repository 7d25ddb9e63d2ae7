// In the browser, with JavaScript: hydration and client-side navigation, hash scroll
// with retry, the loading bar on a slow navigation, and the offline notice
// (seed-spec §2 "Navigation behaviour", §9 constants).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, waitForHydration } from "./harness.mjs";
import { newsNewestFirst, titleOf } from "./demo.mjs";

const ctx = setup({ name: "navigation" });
const [first, second] = newsNewestFirst();

/** Counts full-document requests made by the page from now on. */
function countDocumentRequests(page) {
  const seen = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document" && r.frame() === page.mainFrame()) seen.push(r.url());
  });
  return seen;
}

describe("hydration", () => {
  test("a link click navigates in the browser without reloading the page", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    await page.evaluate(() => {
      window.__marker = "still here";
    });
    const documents = countDocumentRequests(page);
    const dataRequests = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith(".data")) dataRequests.push(r.url());
    });

    await page.locator(`main a[href="/news/${first.uid}"]`).first().click();
    await page.waitForURL(`**/news/${first.uid}`);
    await page.locator("h1", { hasText: titleOf(first) }).waitFor();

    assert.equal(await page.evaluate(() => window.__marker), "still here", "window state survives: no full reload");
    assert.deepEqual(documents, [], "no document request after the click");
    assert.ok(dataRequests.length > 0, "the route's data came from a .data request");
    assert.match(await page.title(), new RegExp(escapeRegExp(titleOf(first))), "the <title> follows the navigation");
    const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
    assert.equal(canonical, ctx.server.at(`/news/${first.uid}`), "the canonical link follows the navigation");
    await checkA11y(page, `/news/${first.uid} (after client navigation)`);

    // Back goes back in the browser too.
    await page.goBack();
    await page.waitForURL("**/news");
    await page.locator("h1", { hasText: "News" }).waitFor();
    assert.equal(await page.evaluate(() => window.__marker), "still here", "back navigation without reload");
  });

  test("without a hash a navigation scrolls to the top and focuses <main>", async () => {
    const page = await ctx.newPage({ viewport: { width: 800, height: 500 } });
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    const link = page.locator(`main a[href="/news/${second.uid}"]`).first();
    await link.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    assert.ok((await page.evaluate(() => window.scrollY)) > 0, "scrolled down before the click");
    await link.click();
    await page.waitForURL(`**/news/${second.uid}`);
    await page.locator("h1", { hasText: titleOf(second) }).waitFor();
    await page.waitForFunction(() => window.scrollY === 0, null, { timeout: 3_000 });
    const focused = await page.evaluate(() => document.activeElement?.id);
    assert.equal(focused, "main-content", "focus moves to <main> for screen readers");
    await checkA11y(page, `/news/${second.uid}`);
  });
});

describe("hash scroll", () => {
  test("a hash target that appears late is scrolled to by the retry (every 1000 ms)", async () => {
    const page = await ctx.newPage({ viewport: { width: 800, height: 500 } });
    await ctx.visit(page, `/news/${first.uid}#late-target`);
    await waitForHydration(page);
    // Give the page a long tail so the target is far below the fold, then add the
    // target 1.5 s later, after the first try and one retry have found nothing.
    const insertedAt = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const spacer = document.createElement("div");
          spacer.style.height = "4000px";
          document.body.append(spacer);
          setTimeout(() => {
            const target = document.createElement("h2");
            target.id = "late-target";
            target.textContent = "Arrived late";
            document.body.append(target);
            const after = document.createElement("div");
            after.style.height = "4000px";
            document.body.append(after);
            resolve(performance.now());
          }, 1_500);
        }),
    );
    assert.ok(
      (await page.evaluate(() => document.getElementById("late-target").getBoundingClientRect().top)) > 500,
      "the target starts below the fold",
    );
    await page.waitForFunction(
      () => {
        const r = document.getElementById("late-target").getBoundingClientRect();
        return r.top >= -1 && r.top < window.innerHeight;
      },
      null,
      { timeout: 3_000 },
    );
    const elapsed = (await page.evaluate(() => performance.now())) - insertedAt;
    assert.ok(elapsed <= 3_000, `scrolled within 3 s of the target appearing (${Math.round(elapsed)} ms)`);
    await checkA11y(page, `/news/${first.uid}#late-target`);
  });

  test("a hash target that exists is scrolled to at once", async () => {
    const page = await ctx.newPage({ viewport: { width: 800, height: 500 } });
    await ctx.visit(page, "/block-showcase#main-content");
    await waitForHydration(page);
    const top = await page.evaluate(() => document.getElementById("main-content").getBoundingClientRect().top);
    assert.ok(Math.abs(top) <= 2, `#main-content at the top of the viewport (top=${top})`);
  });
});

/**
 * Records, in the page's own clock, when a click happened, when the loading bar showed
 * and hid, and when an <h1> with `heading` appeared: timings measured in the page do
 * not depend on how quickly this process talks to the browser.
 */
async function watchLoading(page, heading) {
  await page.evaluate((heading) => {
    const t = (window.__timing = { clicks: [], shown: [], hidden: [], done: null });
    document.addEventListener("click", () => t.clicks.push(performance.now()), true);
    const bar = document.querySelector(".loading-bar");
    let visible = !bar.hidden;
    new MutationObserver(() => {
      if (bar.hidden === !visible) return;
      visible = !bar.hidden;
      (visible ? t.shown : t.hidden).push(performance.now());
    }).observe(bar, { attributes: true });
    new MutationObserver(() => {
      if (t.done === null && [...document.querySelectorAll("h1")].some((h) => h.textContent.includes(heading))) {
        t.done = performance.now();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, heading);
  return () => page.evaluate(() => window.__timing);
}

describe("loading bar", () => {
  test("shows after 200 ms on a slow navigation and hides when it is done", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    const delayMs = 1_500;
    await page.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        await new Promise((r) => setTimeout(r, delayMs));
        await route.continue().catch(() => {});
      },
    );
    const bar = page.locator(".loading-bar");
    assert.equal(await bar.isHidden(), true, "no bar before navigating");
    const timing = await watchLoading(page, titleOf(first));

    await page.locator(`main a[href="/news/${first.uid}"]`).first().click();
    await bar.waitFor({ state: "visible", timeout: delayMs + 1_000 });
    assert.equal(await page.locator("main").getAttribute("aria-busy"), "true", "<main aria-busy> while loading");
    await page.locator("[role=status]", { hasText: "Loading page…" }).waitFor({ timeout: 1_000 });

    await page.waitForURL(`**/news/${first.uid}`);
    await page.locator("h1", { hasText: titleOf(first) }).waitFor();
    await bar.waitFor({ state: "hidden", timeout: 3_000 });
    assert.equal(await page.locator("main").getAttribute("aria-busy"), null, "<main> no longer busy");

    const t = await timing();
    const click = t.clicks[0];
    assert.equal(t.shown.length, 1, "the bar showed once");
    const shownAfter = t.shown[0] - click;
    assert.ok(shownAfter >= 200, `not before the 200 ms throttle (shown ${Math.round(shownAfter)} ms after the click)`);
    assert.ok(t.shown[0] < t.done, "shown while the page was loading");
    const hiddenAfterDone = t.hidden.at(-1) - t.done;
    assert.ok(
      hiddenAfterDone >= 0 && hiddenAfterDone <= 2_000,
      `hidden after loading ends, within the 500 ms hide delay plus slack (${Math.round(hiddenAfterDone)} ms)`,
    );
    await checkA11y(page, `/news/${first.uid} (after a slow navigation)`);
  });

  test("never shows before 200 ms (and not at all on a fast navigation)", async (t) => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    // Serve the data request from a copy fetched beforehand, so the navigation waits
    // for nothing but the browser.
    const dataUrl = ctx.server.at(`/news/${second.uid}.data`);
    const res = await fetch(dataUrl);
    assert.equal(res.status, 200, `GET ${dataUrl}`);
    const body = Buffer.from(await res.arrayBuffer());
    const headers = Object.fromEntries(res.headers);
    delete headers["content-encoding"];
    delete headers["content-length"];
    await page.route(
      (url) => url.pathname.endsWith(".data"),
      (route) => route.fulfill({ status: 200, headers, body }),
    );
    const timing = await watchLoading(page, titleOf(second));
    await page.locator(`main a[href="/news/${second.uid}"]`).first().click();
    await page.locator("h1", { hasText: titleOf(second) }).waitFor();
    await page.waitForTimeout(300);
    const tm = await timing();
    const took = tm.done - tm.clicks[0];
    for (const shown of tm.shown) {
      assert.ok(shown - tm.clicks[0] >= 200, `the bar showed ${Math.round(shown - tm.clicks[0])} ms after the click, inside the 200 ms throttle`);
    }
    if (took < 180) {
      assert.deepEqual(tm.shown, [], `no bar for a ${Math.round(took)} ms navigation`);
    } else {
      t.diagnostic(`the navigation took ${Math.round(took)} ms on this busy machine, so the no-bar case was not exercised`);
    }
    await checkA11y(page, `/news/${second.uid}`);
  });
});

describe("chunk load failure", () => {
  test("a route module that fails to load reloads the page, without a reload loop", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    // React Router discovers routes lazily (the links on the page are looked up through
    // /__manifest after hydration), so wait for the news item's route to arrive.
    const module = await page
      .waitForFunction(
        () => {
          const routes = window.__reactRouterManifest?.routes ?? {};
          return Object.values(routes).find((r) => r.id?.includes("news-item"))?.module ?? null;
        },
        null,
        { timeout: 10_000 },
      )
      .then((handle) => handle.jsonValue())
      .catch(() => null);
    assert.ok(module, "the news item's route module is in React Router's manifest");
    // The release "changed": the chunk is gone from the server.
    await page.route(
      (url) => url.pathname === module,
      (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "gone" }),
    );
    const gone = ctx.server.at(module);
    const why = "the test removes the route's chunk to provoke the reload";
    ctx.expectProblem(page, { url: gone, status: 404 }, why);
    ctx.expectProblem(page, { console: /Error loading route module|Failed to fetch dynamically imported module/ }, why);
    const documents = countDocumentRequests(page);
    await page.locator(`main a[href="/news/${first.uid}"]`).first().click();
    // React Router reloads the page it is on (the new release's HTML names the new
    // chunks, so the next click works); the app's own handler reloads at most once a
    // minute for chunk errors no route sees.
    for (const deadline = Date.now() + 10_000; documents.length === 0 && Date.now() < deadline; ) {
      await page.waitForTimeout(100);
    }
    assert.ok(documents.length >= 1, "the page reloaded");
    // Then nothing more for a while: no reload loop.
    const waitQuiet = async () => {
      let count = -1;
      while (count !== documents.length) {
        count = documents.length;
        await page.waitForTimeout(1_500);
      }
    };
    await waitQuiet();
    assert.ok(documents.length <= 2, `no reload loop (${documents.length} document loads: ${documents.join(", ")})`);
    const paths = documents.map((u) => new URL(u).pathname);
    assert.ok(paths.every((p) => p === "/news" || p === `/news/${first.uid}`), `reloads of the page or its target: ${paths.join(", ")}`);
    // Whatever was reloaded is server-rendered and readable.
    assert.equal(await page.locator("h1").count(), 1, "the reloaded page shows its heading");
    if (documents.length === 2) {
      const at = await page.evaluate(() => sessionStorage.getItem("lineage:chunk-reload-at"));
      assert.ok(at && Math.abs(Date.now() - Number(at)) < 60_000, "the throttle timestamp is remembered");
    }
    await checkA11y(page, `${new URL(page.url()).pathname} (after a chunk failure)`);
  });
});

describe("online status", () => {
  test("an offline notice appears while the browser is offline", async () => {
    // A page that hydrates (the home page has no scripts: following a link there while
    // offline shows the browser's own offline page).
    const page = await ctx.newPage();
    await ctx.visit(page, "/news");
    await waitForHydration(page);
    // React Router asks for the routes of the page's links just after hydration; going
    // offline in the middle of that would fail it.
    await page.waitForLoadState("networkidle");
    const notice = page.locator(".online-status", { hasText: "You are offline" });
    assert.equal(await notice.count(), 0, "no notice while online");
    await page.context().setOffline(true);
    await notice.waitFor({ state: "visible", timeout: 3_000 });
    assert.equal(await page.locator(".online-status").getAttribute("role"), "status", "announced as a status");
    await checkA11y(page, "/news (offline)");
    await page.context().setOffline(false);
    await notice.waitFor({ state: "detached", timeout: 3_000 });
  });
});

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
