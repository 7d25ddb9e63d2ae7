// Scans: the image explorer and the Universal Viewer against the real
// `serve --demo` (Go's IIIF image server, manifests and demo scans, docs/iiif.md) in
// Chromium: the viewer opens a demo item, zooms (more detailed tiles are fetched), pages
// through a multi-page item, falls back to the first page image without JavaScript, and
// members-only scans are refused to visitors (401 from Go, a join explanation on the
// page) but shown to a signed-in member. axe runs on every page, again once the viewer
// has drawn, and no page may report a Content-Security-Policy violation.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import AxeBuilder from "@axe-core/playwright";
import { addUser, consoleNotes, setup, signIn } from "./harness.mjs";

const ctx = setup({ name: "images" });

// The demo items (docs/iiif.md, "Demo scans").
const REGISTER = "demo-register-1851"; // 3 pages, public
const CARD = "demo-memorial-card-1"; // 2 pages, public
const BRIEF = "demo-birth-brief-1"; // 1 page, members only

/** The item as a visitor gets it from the images API. */
async function apiItem(slug, { cookie } = {}) {
  const res = await fetch(ctx.server.at(`/api/images/${slug}`), { headers: { Accept: "application/json", ...(cookie ? { Cookie: cookie } : {}) } });
  assert.equal(res.status, 200, `GET /api/images/${slug}`);
  return res.json();
}

/** Waits for UV to have drawn the item: our component says "ready" and OpenSeadragon has a canvas. */
async function waitForViewer(page) {
  await page.locator('.uv[data-phase="ready"]').waitFor({ state: "visible", timeout: 30_000 });
  await page.locator(".uv .openseadragon-canvas canvas").first().waitFor({ state: "attached", timeout: 30_000 });
}

/**
 * Tile requests of an image, as scale factors: region width ÷ returned width (1 is full
 * resolution). OpenSeadragon asks for `x,y,w,h/w,/0/default.jpg` or `.../w,h/...`.
 */
function recordTiles(page, imageId) {
  const scales = [];
  const pattern = new RegExp(`/iiif/3/${imageId}/(\\d+),(\\d+),(\\d+),(\\d+)/(\\d+),(\\d*)/0/default\\.jpg$`);
  page.on("requestfinished", async (req) => {
    const m = new URL(req.url()).pathname.match(pattern);
    if (!m) return;
    const res = await req.response();
    if (res?.status() === 200) scales.push(Number(m[3]) / Number(m[5]));
  });
  return scales;
}

/** No CSP report on the page at any time so far (visit() only checks at load). */
function assertNoCspViolations(page) {
  const blocked = consoleNotes(page).filter((n) => /Content Security Policy/i.test(n));
  assert.deepEqual(blocked, [], "no Content-Security-Policy violations");
}

/**
 * axe on the page once the viewer has drawn. UV's own DOM is checked too; should it
 * ever report something inside `.uv` that we cannot fix, exclude only that container
 * here, with the reason.
 */
async function checkA11yWithViewer(page, name) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"], iframes: false }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(", ")}`),
    [],
    `axe on ${name} with the viewer drawn`,
  );
}

/** A verified member made with `lineage user add`, signed in through the sign-in page. */
async function signInMember(page, wanted) {
  await signIn(ctx, page, { email: addUser(ctx, "member", "Ada Member") }, wanted);
}

describe("the image explorer", () => {
  test("lists the demo items, members-only ones marked, each linking to its viewer page", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/image-viewer");
    await assert.doesNotReject(page.getByRole("heading", { level: 1, name: "Image explorer" }).waitFor());
    for (const slug of [REGISTER, CARD, BRIEF]) {
      const item = await apiItem(slug);
      const link = page.getByRole("link", { name: item.label, exact: true });
      assert.equal(await link.getAttribute("href"), `/image-viewer/${slug}`, `card of ${slug}`);
    }
    const brief = await apiItem(BRIEF);
    const card = page.locator("li.card", { has: page.getByRole("link", { name: brief.label, exact: true }) });
    assert.match(await card.innerText(), /Members only/);
    // Public items have thumbnails (same-origin IIIF derivatives); the members-only one has none.
    const thumbs = await page.locator("li.card img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src")));
    assert.ok(thumbs.length >= 3, `public items have thumbnails: ${thumbs.join(", ")}`);
    for (const src of thumbs) {
      const res = await fetch(ctx.server.at(src));
      assert.equal(res.status, 200, `thumbnail ${src}`);
      assert.match(res.headers.get("content-type") ?? "", /^image\/jpeg/);
    }
    assert.equal(await card.locator("img").count(), 0, "no thumbnail of members-only scans for a visitor");
    // A collection's scans only, from the item page's "Collection" link.
    await ctx.visit(page, `/image-viewer?collection=${brief.collection.slug}`);
    await assert.doesNotReject(page.getByRole("heading", { level: 1, name: `Scans: ${brief.collection.title}` }).waitFor());
    assert.equal(await page.locator("li.card").count(), 1);
  });

  test("an unknown or malformed slug, collection or cursor is the not-found page", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/image-viewer/no-such-item", { status: 404 });
    await ctx.visit(page, "/image-viewer/Not_A_Slug", { status: 404 });
    // A cursor the images API refuses (stale or made up).
    await ctx.visit(page, "/image-viewer?after=not-a-cursor", { status: 404 });
    await ctx.visit(page, "/image-viewer?collection=no-such-collection", { status: 404 });
  });
});

describe("the viewer", () => {
  test("opens a demo item with its title and metadata, and zooms by mouse and keyboard into more detailed tiles", async () => {
    const item = await apiItem(REGISTER);
    const first = item.images[0].id;
    const page = await ctx.newPage({ viewport: { width: 1280, height: 900 } });
    const scales = recordTiles(page, first);
    await ctx.visit(page, `/image-viewer/${REGISTER}`);
    await assert.doesNotReject(page.getByRole("heading", { level: 1, name: item.label }).waitFor());
    assert.equal(await page.locator('head link[rel="stylesheet"][href="/uv/uv.css"]').count(), 1, "uv.css linked once");
    await waitForViewer(page);
    assert.ok(await page.getByRole("region", { name: `Image viewer: ${item.label}` }).isVisible());
    assert.equal(await page.getByRole("heading", { level: 1 }).count(), 1, "UV shows no second <h1> (its title is off)");
    // Our configuration reached UV: no share, embed or feedback buttons; download and full screen stay.
    const footer = await page.locator(".uv .footerPanel button").filter({ visible: true }).evaluateAll((bs) => bs.map((b) => b.title));
    assert.deepEqual(footer.sort(), ["Download", "Full Screen"], `UV's footer buttons: ${footer.join(", ")}`);
    assert.equal(await page.locator(".uv").getAttribute("data-canvas-index"), "0");
    await assert.doesNotReject(page.getByRole("status").filter({ hasText: "page 1 of 3" }).waitFor());
    // "About this item" lists the collection and the manifest's metadata.
    const facts = await page.locator("dl").innerText();
    assert.match(facts, new RegExp(item.collection.title));

    await waitFor(() => scales.length > 0, "first tiles");
    const before = Math.min(...scales);
    assert.ok(before > 2, `the whole page is first shown reduced (scale ${before})`);
    // By mouse: UV's zoom-in button.
    const zoomIn = page.locator(".uv button.zoomIn").first();
    await zoomIn.click();
    await waitFor(() => Math.min(...scales) < before, `tiles more detailed than scale ${before} after clicking Zoom In (saw ${[...new Set(scales)].join(", ")})`);
    // By keyboard: the same control focused and pressed with Enter. (OpenSeadragon's own
    // held "+" key zooms 1 % per animation frame, and this machine draws about one
    // frame a second in software, so that path cannot be tested here in useful time.)
    const afterClick = Math.min(...scales);
    await zoomIn.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Zoom In");
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press("Enter");
      await page.waitForTimeout(250);
    }
    await waitFor(() => Math.min(...scales) < afterClick, `tiles more detailed than scale ${afterClick} after Enter on Zoom In (saw ${[...new Set(scales)].join(", ")})`);
    await checkA11yWithViewer(page, `/image-viewer/${REGISTER}`);
    assertNoCspViolations(page);
  });

  test("pages through a multi-page item with the next-page control, and is disposed on leaving", async () => {
    const item = await apiItem(REGISTER);
    assert.equal(item.pages, 3);
    const page = await ctx.newPage({ viewport: { width: 1280, height: 900 } });
    const second = recordTiles(page, item.images[1].id);
    await ctx.visit(page, `/image-viewer/${REGISTER}`);
    await waitForViewer(page);
    const viewer = page.locator(".uv");
    const next = page.locator(".uv button.paging.next, .uv button.next").filter({ visible: true }).first();
    await next.click();
    await waitFor(async () => (await viewer.getAttribute("data-canvas-index")) === "1", "canvas index 1 after Next");
    const label2 = item.images[1].label || "Page 2";
    await assert.doesNotReject(page.getByRole("status").filter({ hasText: `Showing ${label2}: page 2 of 3.` }).waitFor());
    await waitFor(() => second.length > 0, "tiles of the second page");
    // UV's own page box agrees.
    assert.equal(await page.locator(".uv input.autocompleteText").filter({ visible: true }).first().inputValue(), "2");
    await next.click();
    await waitFor(async () => (await viewer.getAttribute("data-canvas-index")) === "2", "canvas index 2 after Next again");
    assert.equal(await page.locator(".uv input.autocompleteText").filter({ visible: true }).first().inputValue(), "3");
    assertNoCspViolations(page);

    // Leaving the page (a client-side navigation) disposes the viewer; UV's leftover
    // window listeners must not throw afterwards.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Image explorer" }).click();
    await page.getByRole("heading", { level: 1, name: "Image explorer" }).waitFor();
    await page.setViewportSize({ width: 800, height: 700 });
    await page.waitForTimeout(500);
    assert.equal(await page.locator(".uv").count(), 0);
    const errors = consoleNotes(page).filter((n) => n.startsWith("[pageerror]"));
    assert.deepEqual(errors, [], "no page errors after paging and after the viewer was disposed");
  });

  test("when UV.js cannot be loaded, the first page image stays with an explanation", async () => {
    const page = await ctx.newPage();
    await page.route("**/uv/umd/UV.js", (route) => route.abort("failed"));
    const why = "the test makes UV.js fail to load";
    ctx.expectProblem(page, { url: ctx.server.at("/uv/umd/UV.js"), failed: true }, why);
    ctx.expectProblem(page, { console: /^\[console\.error\] \[images\] the viewer could not start: / }, why);
    await ctx.visit(page, `/image-viewer/${CARD}`);
    await page.locator('.uv[data-phase="failed"]').waitFor({ state: "attached", timeout: 15_000 });
    await assert.doesNotReject(page.getByText("The viewer could not be started, so the first page is shown.").waitFor());
    const img = page.getByRole("region", { name: /^Image viewer: / }).getByRole("img");
    await img.waitFor();
    assert.ok(await page.locator(".uv").isHidden());
  });

  test("without JavaScript shows the first page image, linked to the full image", async () => {
    const item = await apiItem(REGISTER);
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `/image-viewer/${REGISTER}`);
    const img = page.locator("figure img");
    assert.equal(await img.count(), 1);
    const alt = await img.getAttribute("alt");
    assert.ok(alt.startsWith(item.label), `alt text names the item: ${alt}`);
    assert.match(alt, /first of 3 pages/);
    assert.equal(await img.getAttribute("src"), `${item.images[0].service}/full/!1200,1200/0/default.jpg`);
    await page.waitForFunction((el) => el.complete, await img.elementHandle());
    assert.ok(await img.evaluate((el) => el.naturalWidth > 0 && el.naturalWidth <= 1200), "the preview image loaded, at most 1200 px wide");
    const full = page.getByRole("link", { name: "Open the full image of the first page" });
    const href = await full.getAttribute("href");
    const res = await fetch(ctx.server.at(href));
    assert.equal(res.status, 200, `GET ${href}`);
    assert.match(res.headers.get("content-type") ?? "", /^image\/jpeg/);
    assert.ok(await page.locator(".uv").isHidden(), "the viewer's element stays hidden");
  });
});

describe("members-only scans", () => {
  test("a visitor gets the join explanation, and Go refuses the manifest and images", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, `/image-viewer/${BRIEF}`);
    const item = await apiItem(BRIEF);
    assert.equal(item.allowed, false);
    await assert.doesNotReject(page.getByRole("heading", { level: 2, name: "These scans are for members" }).waitFor());
    assert.equal(await page.locator(".uv").count(), 0, "no viewer is mounted");
    assert.equal(
      await page.getByRole("link", { name: "Join or renew", exact: true }).getAttribute("href"),
      `/subscribe?return_to=${encodeURIComponent(`/image-viewer/${BRIEF}`)}`,
    );
    assert.equal(await page.getByRole("link", { name: "Create an account", exact: true }).getAttribute("href"), "/register");
    assert.equal(
      await page.getByRole("link", { name: "Sign in as a member" }).getAttribute("href"),
      `/sign-in?redirect=${encodeURIComponent(`/image-viewer/${BRIEF}`)}`,
    );
    const manifest = await fetch(ctx.server.at(item.manifest_path));
    assert.equal(manifest.status, 401, "the manifest answers 401 to a visitor");
    assertNoCspViolations(page);
  });

  test("a signed-in member sees the viewer; the visitor still gets 401 for info.json and tiles", async () => {
    const page = await ctx.newPage({ viewport: { width: 1280, height: 900 } });
    await signInMember(page, `/image-viewer/${BRIEF}`);
    await waitForViewer(page);
    assert.equal(await page.getByRole("heading", { name: "These scans are for members" }).count(), 0);
    const res = await page.request.get(`/api/images/${BRIEF}`);
    const item = await res.json();
    assert.equal(item.allowed, true);
    const service = item.images[0].service;
    assert.equal((await page.request.get(`${service}/info.json`)).status(), 200, "info.json for the member");
    // The same URLs without the member's cookies.
    assert.equal((await fetch(ctx.server.at(`${service}/info.json`))).status, 401, "info.json for a visitor");
    assert.equal((await fetch(ctx.server.at(`${service}/0,0,512,512/512,/0/default.jpg`))).status, 401, "a tile for a visitor");
    assert.equal((await fetch(ctx.server.at(item.manifest_path))).status, 401, "the manifest for a visitor");
    await checkA11yWithViewer(page, `/image-viewer/${BRIEF} (member)`);
    assertNoCspViolations(page);
  });
});

/** Polls a condition (sync or async) until it holds, or fails with the message. */
async function waitFor(cond, message, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${message}`);
}

describe("the viewer for keyboard and zoom users (WCAG 2.2 AA)", () => {
  /** The focused element: tag, classes and its outline as drawn. */
  const focused = (page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      const s = getComputedStyle(el);
      return {
        tag: el.tagName.toLowerCase(),
        className: typeof el.className === "string" ? el.className : "",
        inViewer: !!el.closest(".uv"),
        outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
        value: el.value ?? null,
      };
    });
  const assertIndicator = (f, what) => {
    assert.match(f.outline, /^solid 3px rgb\(255, 191, 71\)$/, `${what} shows the site's 3 px focus ring (saw ${f.outline} on ${f.tag}.${f.className})`);
  };

  test("Next image on the second-to-last page keeps focus in the viewer; buttons, page box and thumbnails show a focus ring", async () => {
    const page = await ctx.newPage({ viewport: { width: 1280, height: 900 } });
    await ctx.visit(page, `/image-viewer/${REGISTER}`);
    await waitForViewer(page);
    const viewer = page.locator(".uv");
    const next = page.locator(".uv .headerPanel button.next");
    await next.focus();
    assertIndicator(await focused(page), "Next image");
    await page.keyboard.press("Enter");
    await waitFor(async () => (await viewer.getAttribute("data-canvas-index")) === "1", "canvas index 1");
    // On the second-to-last page: Next takes the reader to the last page, where UV
    // disables Next (and Last). Focus must not fall to <body> (2.4.3).
    await page.keyboard.press("Enter");
    await waitFor(async () => (await viewer.getAttribute("data-canvas-index")) === "2", "canvas index 2");
    await waitFor(async () => (await focused(page)).tag !== "body", "focus moved off the disabled button");
    const after = await focused(page);
    assert.ok(after.inViewer, `focus stays in the viewer (on ${after.tag}.${after.className})`);
    assert.equal(after.className, "autocompleteText", "focus is on the page box");
    assert.equal(after.value, "3", "which says the last page");
    assertIndicator(after, "the page box");
    // Tab backwards to the toolbar's buttons, then to a thumbnail: each shows the ring (2.4.7).
    await page.keyboard.press("Shift+Tab");
    const prev = await focused(page);
    assert.ok(prev.inViewer && prev.tag === "button", `Shift+Tab reaches a toolbar button (${prev.tag}.${prev.className})`);
    assertIndicator(prev, "a toolbar button");
    const thumb = await page.evaluate(() => {
      const el = document.querySelector(".uv .thumb");
      el.focus({ focusVisible: true });
      const s = getComputedStyle(el);
      return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`;
    });
    assert.match(thumb, /^solid 3px rgb\(255, 191, 71\)$/, `a thumbnail shows the focus ring (saw ${thumb})`);
  });

  test("at 200 % zoom (1366 × 768 window) the page controls show, the side panels fit in the box and no attribution box covers the scan", async () => {
    const page = await ctx.newPage({ viewport: { width: 683, height: 384 }, deviceScaleFactor: 2 });
    await ctx.visit(page, `/image-viewer/${REGISTER}`);
    await waitForViewer(page);
    await page.locator(".uv").evaluate((e) => e.scrollIntoView({ block: "start" }));
    const box = await page.locator(".uv").boundingBox();
    assert.ok(box.height <= 384, `the viewer fits the window's height (${box.height} px)`);
    // Each control's centre lies in the box (UV's footer bar itself runs 8 px past its
    // box at every size, its buttons do not).
    for (const sel of [".headerPanel button.prev", ".headerPanel input.autocompleteText", ".headerPanel button.next", ".footerPanel button.fullScreen"]) {
      const r = await page.locator(`.uv ${sel}`).boundingBox();
      assert.ok(r && r.width > 0 && r.height > 0, `${sel} is shown`);
      const cx = r.x + r.width / 2;
      const cy = r.y + r.height / 2;
      assert.ok(cx > box.x && cx < box.x + box.width && cy > box.y && cy < box.y + box.height, `${sel} is inside the viewer's box`);
    }
    for (const sel of [".leftPanel", ".rightPanel"]) {
      const r = await page.locator(`.uv ${sel}`).boundingBox();
      assert.ok(r.x >= box.x - 1 && r.x + r.width <= box.x + box.width + 1, `${sel} lies inside the viewer's box (x ${r.x}, width ${r.width}; box x ${box.x}, width ${box.width})`);
    }
    const centre = await page.locator(".uv .centerPanel").boundingBox();
    assert.ok(centre.width >= box.width * 0.75, `the scan keeps most of the width (${centre.width} of ${box.width} px)`);
    assert.equal(await page.locator(".uv .attribution").filter({ visible: true }).count(), 0, "no attribution box over the scan");
    // The page's own "About this item" carries the attribution instead.
    assert.match(await page.locator("dl").innerText(), /Attribution/);
    // The page controls work from the keyboard at this size too.
    await page.locator(".uv .headerPanel button.next").focus();
    await page.keyboard.press("Enter");
    await waitFor(async () => (await page.locator(".uv").getAttribute("data-canvas-index")) === "1", "canvas index 1 after Next at 200 %");
  });
});
