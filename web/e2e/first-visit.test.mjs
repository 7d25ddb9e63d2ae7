// What a newcomer on a phone meets first: the compact header and its menu button
// (with a keyboard, and without JavaScript), the events calendar as an agenda at
// 390 px, event and content pages that show their title and summary once, and the
// custom types' lists headed by content instead of their routes' code names. Every
// page visited at 390 px is checked not to scroll sideways; axe checks every page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, runLineage, setup, waitForHydration } from "./harness.mjs";
import { asText, demoByType, demoDoc, titleOf } from "./demo.mjs";

const ctx = setup({ name: "first-visit" });

const PHONE = { viewport: { width: 390, height: 844 } };
const DESKTOP = { viewport: { width: 1366, height: 900 } };
const MAIN_LINKS = ["Research hub", "News", "Events", "Education", "Guides", "About us"];


/** Fails when the page is wider than the window (it would scroll sideways). */
async function assertNoSidewaysScroll(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what} is ${scroll} px wide in a ${client} px window: it scrolls sideways`);
}

/** The name of the focused element and its tag. */
const focused = (page) =>
  page.evaluate(() => ({ tag: document.activeElement?.tagName.toLowerCase(), text: document.activeElement?.textContent?.trim() }));

describe("the compact header at 390 px", () => {
  // On a page with scripts; the home page is served without them (the next tests).
  test("a menu button folds the navigation away, opens it by keyboard, and Escape closes it and returns focus", async () => {
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, "/sog-events");
    await waitForHydration(page);
    await assertNoSidewaysScroll(page, "/sog-events");

    const toggle = page.locator("header.site-header button", { hasText: "Menu" });
    const nav = page.locator("header nav[aria-label=Main]");
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await toggle.getAttribute("aria-controls"), await nav.getAttribute("id"), "the button names the navigation it shows");
    assert.equal(await nav.isVisible(), false, "closed, the navigation takes no room");
    const header = await page.locator("header.site-header").boundingBox();
    assert.ok(header.height <= 844 * 0.2, `the closed header is ${header.height} px tall (one row, not three)`);

    // Skip link, brand, then the menu button.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "button", text: "Menu" });
    await page.keyboard.press("Enter");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    for (const label of MAIN_LINKS) assert.ok(await nav.getByRole("link", { name: label, exact: true }).isVisible(), `${label} shown`);
    await checkA11y(page, "/sog-events (menu open at 390 px)");
    await assertNoSidewaysScroll(page, "/sog-events with the menu open");

    // The navigation follows the button in the tab order.
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "a", text: MAIN_LINKS[0] });
    await page.keyboard.press("Escape");
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await nav.isVisible(), false, "Escape closes the menu");
    assert.deepEqual(await focused(page), { tag: "button", text: "Menu" }, "and returns focus to its button");

    // Space opens it again; following a link closes it on the next page.
    await page.keyboard.press("Space");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "a", text: "News" });
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/news");
    await page.locator("main h1", { hasText: "News" }).waitFor();
    assert.equal(await toggle.getAttribute("aria-expanded"), "false", "a followed link closes the menu");
    assert.equal(await nav.isVisible(), false);
    await checkA11y(page, "/news (after the menu)");
    await assertNoSidewaysScroll(page, "/news");
  });

  test("on the home page, served without scripts, the Menu link opens the navigation by keyboard", async () => {
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, "/");
    await assertNoSidewaysScroll(page, "/");
    const nav = page.locator("header nav[aria-label=Main]");
    const menu = page.locator("header a.site-menu-toggle");
    assert.equal(await menu.getAttribute("href"), `#${await nav.getAttribute("id")}`, "a link to the navigation, not a button that needs a script");
    assert.equal(await nav.isVisible(), false, "closed, the navigation takes no room");
    // Skip link, brand, then the menu link.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "a", text: "Menu" });
    await page.keyboard.press("Enter");
    for (const label of MAIN_LINKS) assert.ok(await nav.getByRole("link", { name: label, exact: true }).isVisible(), `${label} shown`);
    await checkA11y(page, "/#site-nav (menu open at 390 px)");
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { tag: "a", text: MAIN_LINKS[0] }, "the navigation follows the Menu link in the tab order");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/news");
    await page.locator("main h1", { hasText: "News" }).waitFor();
    assert.equal(await nav.isVisible(), false, "on the next page the navigation is folded away again");
  });

  test("without JavaScript the Menu link opens the navigation", async () => {
    const page = await ctx.newPage({ ...PHONE, javaScriptEnabled: false });
    await ctx.visit(page, "/news");
    const nav = page.locator("header nav[aria-label=Main]");
    const menu = page.locator("header a.site-menu-toggle");
    assert.equal(await menu.getAttribute("href"), `#${await nav.getAttribute("id")}`);
    assert.equal(await nav.isVisible(), false);
    await menu.click();
    for (const label of MAIN_LINKS) assert.ok(await nav.getByRole("link", { name: label, exact: true }).isVisible(), `${label} shown`);
    await checkA11y(page, "/news#site-nav (no JavaScript)");
    await assertNoSidewaysScroll(page, "/news#site-nav without JavaScript");
  });

  test("signed in, the header stays compact and the account menu fits the screen", async () => {
    const email = `phone-${Date.now()}@example.org`;
    const password = "correct horse battery";
    runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", password, "--name", "Ada Lovelace"], {
      env: { LINEAGE_DATABASE_URL: "" },
    });
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, "/sign-in");
    await waitForHydration(page);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const account = page.locator("header summary", { hasText: "Your account" });
    await account.waitFor();
    const header = await page.locator("header.site-header").boundingBox();
    assert.ok(header.height <= 844 * 0.2, `the signed-in header is ${header.height} px tall`);
    await account.click();
    const panel = page.locator("header details[open] > div");
    const box = await panel.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the account menu fits the screen (${box.x}+${box.width})`);
    await checkA11y(page, "/ signed in, account menu open at 390 px");
    await assertNoSidewaysScroll(page, "/ signed in with the account menu open");
  });

  test("at 1366 px the navigation is always shown and there is no menu button", async () => {
    const page = await ctx.newPage(DESKTOP);
    // The home page without scripts, then a page with them.
    for (const p of ["/", "/news"]) {
      await ctx.visit(page, p);
      if (p !== "/") await waitForHydration(page);
      assert.equal(await page.locator("header .site-menu-toggle").isVisible(), false, p);
      const nav = page.locator("header nav[aria-label=Main]");
      for (const label of MAIN_LINKS) assert.ok(await nav.getByRole("link", { name: label, exact: true }).isVisible(), `${p}: ${label} shown`);
    }
  });
});

// The London month of an event's start, as /sog-events?month= takes it.
const LONDON_MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "numeric", weekday: "long" });
function londonParts(ts) {
  const date = new Date(Date.parse(ts.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")));
  return Object.fromEntries(LONDON_MONTH.formatToParts(date).map((p) => [p.type, p.value]));
}

describe("the events calendar at 390 px", () => {
  const event = demoByType("event")[0];
  const p = londonParts(event.data.start);
  const month = `${p.year}-${p.month}`;
  const monthName = new Date(Date.UTC(Number(p.year), Number(p.month) - 1, 1)).toLocaleString("en-GB", { month: "long", timeZone: "UTC" });

  test("shows the month as an agenda of days with events, and the page does not scroll sideways", async () => {
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, `/sog-events?month=${month}`);
    await assertNoSidewaysScroll(page, `/sog-events?month=${month}`);
    const calendar = page.locator("main #calendar");
    assert.equal(await calendar.locator("table").isVisible(), false, "no seven-column table on a phone");
    const agenda = calendar.locator(".event-agenda");
    assert.ok(await agenda.isVisible());
    const day = agenda.locator("li.event-agenda__day", { hasText: `${p.weekday} ${Number(p.day)} ${monthName}` });
    assert.ok(await day.isVisible(), `the agenda names ${p.weekday} ${Number(p.day)} ${monthName}`);
    const link = day.getByRole("link", { name: new RegExp(titleOf(event).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });
    assert.equal(await link.getAttribute("href"), `/sog-events/${event.uid}`);
    const box = await calendar.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the calendar fits the screen (${box.x}+${box.width})`);
  });

  test("at 1366 px it stays a table", async () => {
    const page = await ctx.newPage(DESKTOP);
    await ctx.visit(page, `/sog-events?month=${month}`);
    assert.ok(await page.locator("main #calendar table").isVisible());
    assert.equal(await page.locator("main #calendar .event-agenda").isVisible(), false);
  });
});

/** Documents whose body opens with a hero repeating their title (and summary). */
const repeating = [
  ...demoByType("event").map((d) => ({ doc: d, path: `/sog-events/${d.uid}` })),
  { doc: demoDoc("about", "page"), path: "/about" },
  { doc: demoDoc("how-to-start-your-family-tree", "page"), path: "/learn/guides/how-to-start-your-family-tree" },
].filter(({ doc }) => {
  const hero = doc.data.body?.[0];
  return hero?.slice_type === "hero" && asText(hero.primary.title).trim() === titleOf(doc);
});

describe("title and summary shown once", () => {
  test("the demo has event and content pages whose lead hero repeats their title", () => {
    assert.ok(repeating.some((r) => r.doc.type === "event"), "an event");
    assert.ok(repeating.some((r) => r.doc.type === "page"), "a content page");
  });
  for (const { doc, path } of repeating) {
    test(`${path}: one heading with the title, the summary once, the hero's picture kept`, async () => {
      const page = await ctx.newPage(PHONE);
      await ctx.visit(page, path);
      await assertNoSidewaysScroll(page, path);
      const title = titleOf(doc);
      const headings = (await page.locator("main :is(h1, h2, h3, h4)").allTextContents()).map((t) => t.trim());
      assert.deepEqual(headings.filter((t) => t === title), [title], `"${title}" is one heading, not two: ${JSON.stringify(headings)}`);
      const summary = asText(doc.data.summary).trim();
      if (summary) {
        const paragraphs = (await page.locator("main p").allTextContents()).map((t) => t.trim());
        assert.equal(paragraphs.filter((t) => t === summary).length, 1, `the summary is shown once on ${path}`);
      }
      const hero = doc.data.body[0].primary;
      if (hero.image?.url) assert.ok(await page.locator("main .hero img").first().isVisible(), "the hero keeps its picture");
    });
  }
});

describe("the custom types' lists are headed by content", () => {
  const lists = [
    { path: "/fhwuifhe", listing: demoDoc("research-room-notices", "page"), type: "fhwuifhe" },
    { path: "/cwbhvwt", listing: demoDoc("volunteer-opportunities", "page"), type: "cwbhvwt" },
    { path: "/dheyenbvu", listing: demoDoc("publications", "page"), type: "dheyenbvu" },
  ];
  for (const { path, listing, type } of lists) {
    test(`${path} takes its heading, introduction and title from its page, never the code name`, async () => {
      const page = await ctx.newPage(PHONE);
      await ctx.visit(page, path);
      await assertNoSidewaysScroll(page, path);
      const title = titleOf(listing);
      assert.deepEqual((await page.locator("h1").allTextContents()).map((t) => t.trim()), [title]);
      const docTitle = await page.title();
      assert.ok(docTitle.includes(title), `<title> "${docTitle}" names "${title}"`);
      assert.ok(!docTitle.toLowerCase().includes(type), `<title> "${docTitle}" has no code name`);
      assert.equal(await page.locator('meta[name="description"]').getAttribute("content"), listing.data.description);
      const intro = listing.data.body[0].primary.content[0].text;
      assert.ok(await page.locator("main p", { hasText: intro }).isVisible(), "the introduction is shown");
      const crumbsAndHeadings = await page.locator("main :is(h1, h2, nav)").allTextContents();
      for (const t of crumbsAndHeadings) assert.ok(!t.includes(type), `no code name in "${t}"`);
    });
  }

  test("an item's breadcrumb names its list by the list's title", async () => {
    const item = demoByType("fhwuifhe")[0];
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, `/fhwuifhe/${item.uid}`);
    await assertNoSidewaysScroll(page, `/fhwuifhe/${item.uid}`);
    const crumb = page.locator('main nav[aria-label="Breadcrumb"] a[href="/fhwuifhe"]');
    assert.equal((await crumb.textContent()).trim(), titleOf(demoDoc("research-room-notices", "page")));
  });

  test("the list pages' own documents are not pages at their generic paths", async () => {
    const page = await ctx.newPage(PHONE);
    await ctx.visit(page, "/research-room-notices", { status: 404 });
  });
});
