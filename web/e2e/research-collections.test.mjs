// The research hub's collection pages: the overview with every
// collection and its count, a collection's page (catalogue paging, 404 for an
// unknown slug), memorial cards filtered with the multi-select by keyboard (its
// maximum, its empty-search text, its 300px list), a record set's search with
// paging, indexes, birth briefs with the paywall's invitation, the header link,
// and the filter form without JavaScript — in Chromium against the real binary
// with `serve --demo`'s research demo set, axe on every page visited.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { addUser, checkA11y, getJSON, runLineage, setup, signIn } from "./harness.mjs";
import { resultsText } from "./research.mjs";

const ctx = setup({ name: "research-collections" });
const HUB = "/research-hub/our-collections";
const MAX_TEXT = "Maximum of 3 options selected. First remove a selected option to select another.";
const NO_RESULTS = "No elements found. Consider changing the search query.";

const api = (p) => getJSON(ctx, p);

/** Three more memorial-card collections (two cards each), so the collection filter can reach its maximum of 3. */
const EXTRA = [
  ["cards-kent", "Memorial cards: Kent"],
  ["cards-surrey", "Memorial cards: Surrey"],
  ["cards-yorkshire", "Memorial cards: Yorkshire"],
];

let prepared = null;
/** Waits for the demo set and adds the extra collections, once (before every test's first step). */
const ready = () => (prepared ??= prepare());
async function prepare() {
  {
    // serve --demo loads the research demo set once the server is up.
    for (let i = 0; ; i++) {
      const { data } = await api("/api/research/collections");
      if (data.some((c) => c.slug === "birth-briefs" && c.count > 0) && data.some((c) => c.slug === "society-archive" && c.count > 0)) break;
      assert.ok(i < 120, "the research demo set loads");
      await new Promise((r) => setTimeout(r, 500));
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-cards-"));
    try {
      for (const [slug, title] of EXTRA) {
        const file = path.join(dir, `${slug}.csv`);
        writeFileSync(
          file,
          "record_id,record_type,date,place,role,surname,given_names\n" +
            `${slug}-1,memorial card,12 Mar 1871,"Guildford, Surrey",principal,Ashworth,Mary\n` +
            `${slug}-2,memorial card,1893,"Leeds, Yorkshire",principal,Smith,John\n`,
        );
        runLineage(["import", "records", "--data", ctx.server.dataDir, "--quiet", "--collection", slug, "--kind", "memorial_cards", "--title", title, file], {
          env: { LINEAGE_DATABASE_URL: "" },
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The dropdown has replaced its no-JavaScript fallback (after hydration). */
const enhanced = (page, name) => page.waitForSelector(`[data-multiselect="${name}"][data-enhanced]`, { timeout: 15_000 });

/**
 * Opens a dropdown's list with `how` (a key press or a click on its box) once the page
 * marks it ready: the first press must work (no retries; see the test "the first ↓
 * opens the list …" for the race that once made it fail now and then).
 */
async function openList(page, name, how = "ArrowDown") {
  await enhanced(page, name);
  const box = page.locator(`[data-multiselect="${name}"][data-enhanced] [role="combobox"]`);
  if (how === "click") await box.click();
  else {
    await box.focus();
    await page.keyboard.press(how);
  }
  await page.getByRole("listbox").waitFor({ timeout: 5_000 });
  return box;
}

test("the header links to the research hub, whose overview lists every collection by kind with its count", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, "/");
  const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Research hub" });
  assert.equal(await link.getAttribute("href"), HUB);
  await link.click();
  await page.waitForURL((u) => u.pathname === HUB);
  await ctx.visit(page, HUB);
  assert.equal(await page.locator("h1").innerText(), "Our collections");
  const { data } = await api("/api/research/collections");
  assert.ok(data.length >= 10, "the demo's collections and the extra card collections");
  for (const c of data) {
    const card = page.locator(`section#kind-${c.kind} li`, { has: page.getByRole("link", { name: c.title, exact: true }) });
    assert.equal(await card.count(), 1, `${c.title} is listed once`);
    const count = c.count.toLocaleString("en-GB");
    const words = c.kind === "library" || c.kind === "archive" ? `catalogue ${c.count === 1 ? "entry" : "entries"}` : c.count === 1 ? "record" : "records";
    assert.match(await card.innerText(), new RegExp(`${count} ${words}`), `${c.title}'s count`);
  }
  const headings = await page.locator("main h2").allInnerTexts();
  for (const h of ["Record sets", "Indexes", "Memorial cards", "Birth briefs", "Library", "Archive"]) assert.ok(headings.includes(h), `group ${h}`);
  // Each kind's collections sit under its heading.
  const baptisms = page.locator("section#kind-record_set").getByRole("link", { name: "Parish baptisms" });
  assert.equal(await baptisms.getAttribute("href"), `${HUB}/record-sets/parish-baptisms`);
  const wills = page.locator("section#kind-index").getByRole("link", { name: "Index of wills" });
  assert.equal(await wills.getAttribute("href"), `${HUB}/indexes/wills-index`);
  // The header link is the current section.
  assert.equal(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Research hub" }).getAttribute("aria-current"), "page");
});

test("a catalogue collection's page pages through its entries; unknown and reserved slugs are 404", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/society-library`);
  assert.equal(await page.locator("h1").innerText(), "The society's library");
  const detail = await api("/api/research/collections/society-library");
  const facts = await page.locator("main dl").innerText();
  assert.match(facts, new RegExp(`${detail.collection.count} catalogue entries`));
  const rows = page.locator("main table tbody tr");
  assert.equal(await rows.count(), detail.items.length);
  assert.equal(await rows.first().locator("th").innerText(), detail.items[0].title);
  assert.ok(detail.next !== null, "the demo library has more than one page");
  await page.getByRole("link", { name: "Next page" }).click();
  await page.waitForURL((u) => u.searchParams.get("after") === String(detail.next));
  const second = await api(`/api/research/collections/society-library?after=${detail.next}`);
  await page.waitForFunction((t) => document.querySelector("main table tbody tr th")?.textContent === t, second.items[0].title);
  await checkA11y(page);
  assert.equal(await page.getByRole("link", { name: "First page" }).getAttribute("href"), `${HUB}/society-library`);

  await ctx.visit(page, `${HUB}/society-archive`);
  assert.deepEqual(await page.locator("main table thead th").allInnerTexts(), ["Reference", "Title", "Date", "Level", "Part of"]);

  // A record collection at the generic address: its facts and search (canonical: its kind's page).
  await ctx.visit(page, `${HUB}/parish-marriages`);
  assert.equal(await page.locator("h1").innerText(), "Parish marriages");
  assert.equal(await page.locator('link[rel="canonical"]').getAttribute("href"), `${ctx.server.url}${HUB}/record-sets/parish-marriages`);
  assert.equal(await page.getByLabel("Spouse's name").count(), 1, "marriages ask for the spouse");

  // The demo's memorial-card collection, whose slug is also its kind's segment.
  await ctx.visit(page, `${HUB}/memorial-cards/memorial-cards`);
  assert.equal(await page.locator("h1").innerText(), "Memorial cards");
  assert.match(await page.locator("main dl").innerText(), /Memorial cards/);

  await ctx.visit(page, `${HUB}/no-such-collection`, { status: 404 });
  assert.match(await page.locator("main").innerText(), /This page could not be found/);
  await ctx.visit(page, `${HUB}/records`, { status: 404 });
  await ctx.visit(page, `${HUB}/record-sets/society-library`, { status: 404 });
  await ctx.visit(page, `${HUB}/memorial-cards/parish-baptisms`, { status: 404 });
});

test("memorial cards: the collection filter by keyboard — its maximum, its empty search, a 300px list — and repeated parameters", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/memorial-cards`);
  const box = await openList(page, "collection");
  assert.equal(await page.locator('[data-multiselect="collection"] label').innerText(), "Collections");
  const list = page.getByRole("listbox");
  const options = list.getByRole("option");
  assert.equal(await options.count(), 4, "four memorial-card collections");
  assert.equal(await list.evaluate((el) => getComputedStyle(el).maxHeight), "300px");

  // Type to narrow the list: "york" leaves one.
  await page.keyboard.type("york");
  await page.waitForFunction(() => document.querySelectorAll('[role="listbox"] [role="option"]').length === 1);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll('input[type="hidden"][name="collection"]').length === 1);
  assert.equal(await box.inputValue(), "", "a choice clears the search text");

  // Two more by arrow keys (the list is whole again); the chosen one is marked.
  await page.waitForFunction(() => document.querySelectorAll('[role="listbox"] [role="option"]').length === 4);
  const chosen = async () => page.locator('input[type="hidden"][name="collection"]').evaluateAll((els) => els.map((e) => e.value));
  const unchosen = await options.evaluateAll((els) => els.filter((e) => e.getAttribute("aria-selected") !== "true").map((e) => e.textContent));
  assert.equal(unchosen.length, 3);
  for (let i = 0; i < 2; i++) {
    const before = (await chosen()).length;
    // Move to the first option not yet chosen and choose it.
    for (let step = 0; step < 8; step++) {
      await page.keyboard.press("ArrowDown");
      const focused = await page.evaluate(() => {
        const id = document.activeElement?.getAttribute("aria-activedescendant");
        const el = id ? document.getElementById(id) : null;
        return el ? el.getAttribute("aria-selected") : null;
      });
      if (focused === "false") break;
    }
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => document.querySelectorAll('input[type="hidden"][name="collection"]').length === n, before + 1);
  }
  assert.equal((await chosen()).length, 3);
  // The maximum: the spec's text, the other option disabled.
  await page.getByText(MAX_TEXT).first().waitFor();
  const disabled = await options.evaluateAll((els) => els.filter((e) => e.getAttribute("aria-disabled") === "true").length);
  assert.equal(disabled, 1, "the fourth collection cannot be chosen");
  assert.equal(await page.locator('[aria-live="polite"]', { hasText: MAX_TEXT }).count(), 1, "announced");
  // (axe runs once the list is closed: while it is open React Aria hides the rest of
  // the page from assistive technology, which axe's aria-hidden-focus rule reports.)
  const tags = await page.locator('[data-multiselect="collection"] .multiselect__tag').count();
  assert.equal(tags, 3);

  // A search that finds nothing says so.
  await page.keyboard.type("zzz");
  await page.getByText(NO_RESULTS).waitFor();
  for (let i = 0; i < 3; i++) await page.keyboard.press("Backspace");
  // Backspace in the empty box removes the last choice; the maximum message goes.
  await page.keyboard.press("Backspace");
  await page.waitForFunction(() => document.querySelectorAll('input[type="hidden"][name="collection"]').length === 2);
  assert.equal(await page.getByText(MAX_TEXT).count(), 0);
  await page.keyboard.press("Escape");
  await list.waitFor({ state: "detached" });
  const picked = await chosen();
  assert.ok(picked.includes("cards-yorkshire"));
  await checkA11y(page, "memorial cards, two collections chosen");

  // A tag's remove button.
  const removable = page.locator('[data-multiselect="collection"] .multiselect__tag-icon').last();
  const removedName = (await removable.getAttribute("aria-label")).replace(/^Remove /, "");
  await removable.click();
  await page.waitForFunction(() => document.querySelectorAll('input[type="hidden"][name="collection"]').length === 1);
  const tagNames = await page.locator('[data-multiselect="collection"] .multiselect__tag').evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
  assert.deepEqual(tagNames, ["Memorial cards: Yorkshire"], `${removedName} removed`);
  const remaining = await chosen();
  assert.deepEqual(remaining, ["cards-yorkshire"], "the first choice stays");

  // Surname and submit: the collection travels as a repeated parameter.
  await page.getByLabel("Surname").fill("Ashworth");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("surname") === "Ashworth");
  const url = new URL(page.url());
  assert.deepEqual(url.searchParams.getAll("collection"), remaining);
  const answer = await api(`/api/research/search?surname=Ashworth&collection=${remaining.join("&collection=")}&limit=20`);
  await page.getByRole("heading", { name: resultsText(answer.total, answer.total_exact) }).waitFor();
  assert.ok(answer.total >= 1);
  const first = page.locator("main table tbody tr").first().getByRole("link");
  assert.equal(await first.getAttribute("href"), `${HUB}/records/${answer.results[0].id}`);
  await checkA11y(page, "memorial cards, results");
  // The filter comes back with the chosen collection after the navigation.
  await enhanced(page, "collection");
  assert.deepEqual(await chosen(), remaining);
});

test("the first ↓ or click opens the list even when the focus that scrolled the box into view has not been reported yet", async () => {
  // Focusing a box off screen scrolls the page at once, but the scroll event comes with
  // the next frame, and React Aria closes an open list when the page scrolls. Focus and
  // ↓ (or a click) in one task, as a quick keyboard, a busy page or a test's scroll
  // then click does, used to open the list and have that late scroll shut it again;
  // the list must still be open frames later.
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/memorial-cards`);
  await enhanced(page, "collection");
  const box = page.locator('[data-multiselect="collection"][data-enhanced] [role="combobox"]');
  for (const how of ["ArrowDown", "click", "ArrowDown", "click"]) {
    await box.evaluate((el, how) => {
      window.scrollTo(0, 0);
      el.focus();
      if (how === "click") el.click();
      else el.dispatchEvent(new KeyboardEvent("keydown", { key: how, code: how, bubbles: true, cancelable: true }));
    }, how);
    const afterFrames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));
    await page.evaluate(afterFrames);
    await page.getByRole("listbox").waitFor({ timeout: 2_000 });
    await page.evaluate(afterFrames);
    assert.equal(await box.getAttribute("aria-expanded"), "true", `the list stays open (${how})`);
    assert.ok(await page.evaluate(() => window.scrollY > 0), "focusing the box scrolled the page");
    await page.keyboard.press("Escape");
    await box.evaluate((el) => el.blur());
  }
  await checkA11y(page, "memorial cards, after the list closed");
});

test("memorial cards without JavaScript: the filter is checkboxes and submits repeated parameters", async () => {
  await ready();
  const page = await ctx.newPage({ javaScriptEnabled: false });
  await ctx.visit(page, `${HUB}/memorial-cards`);
  const boxes = page.locator('fieldset[data-multiselect="collection"] input[type="checkbox"][name="collection"]');
  assert.equal(await boxes.count(), 4);
  await page.getByLabel(/Memorial cards: Kent/).check();
  await page.getByLabel(/Memorial cards: Surrey/).check();
  await page.getByLabel("Surname").fill("Smith");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("surname") === "Smith");
  assert.deepEqual(new URL(page.url()).searchParams.getAll("collection"), ["cards-kent", "cards-surrey"]);
  const answer = await api("/api/research/search?surname=Smith&collection=cards-kent&collection=cards-surrey");
  assert.equal(answer.total, 2);
  assert.equal(await page.locator("main table tbody tr").count(), 2);
  await checkA11y(page, "memorial cards without JavaScript, results");
  // More than the maximum (possible without JavaScript) keeps the first three.
  await ctx.visit(page, `${HUB}/memorial-cards?collection=cards-kent&collection=cards-surrey&collection=cards-yorkshire&collection=memorial-cards`);
  assert.equal(await page.locator('input[type="checkbox"][name="collection"]:checked').count(), 3);
});

test("a record set's search offers its own fields and pages with `after`", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/record-sets`);
  assert.equal(await page.locator("h1").innerText(), "Record sets");
  await page.locator("main").getByRole("link", { name: "Parish baptisms" }).click();
  await page.waitForURL((u) => u.pathname === `${HUB}/record-sets/parish-baptisms`);
  await ctx.visit(page, `${HUB}/record-sets/parish-baptisms`);
  const detail = await api("/api/research/collections/parish-baptisms");
  assert.match(await page.locator("main dl").innerText(), new RegExp(`${detail.collection.count.toLocaleString("en-GB")} records`));
  // Baptisms: the parent's name and the role filter; one record type, so no type filter.
  assert.equal(await page.getByLabel("Parent's name").count(), 1);
  assert.equal(await page.locator('[data-multiselect="role"]').count(), 1);
  assert.equal(await page.locator('[data-multiselect="record_type"]').count(), 0);

  // Browsing: the collection's records by date, 20 a page.
  const browse = await api("/api/research/search?collection=parish-baptisms&sort=date&limit=20");
  await page.getByRole("heading", { name: resultsText(browse.total, browse.total_exact) }).waitFor();

  await page.getByLabel("Year", { exact: true }).fill("1800");
  await page.getByLabel("Year, give or take").selectOption("40");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("year") === "1800");
  const answer = await api("/api/research/search?year=1800&year_pm=40&collection=parish-baptisms&sort=relevance&limit=20");
  assert.ok(answer.next, "more than one page");
  await page.getByRole("heading", { name: resultsText(answer.total, answer.total_exact) }).waitFor();
  const firstIds = await page.locator("main table tbody tr a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual(firstIds, answer.results.map((r) => `${HUB}/records/${r.id}`));
  await page.getByRole("link", { name: "Next page" }).click();
  await page.waitForURL((u) => u.searchParams.has("after"));
  const second = await api(`/api/research/search?year=1800&year_pm=40&collection=parish-baptisms&sort=relevance&limit=20&after=${encodeURIComponent(answer.next)}`);
  await page.waitForFunction((href) => document.querySelector("main table tbody tr a")?.getAttribute("href") === href, `${HUB}/records/${second.results[0].id}`);
  await checkA11y(page, "record set, second page");
  await page.getByRole("link", { name: "First page" }).click();
  await page.waitForURL((u) => !u.searchParams.has("after") && u.searchParams.get("year") === "1800");

  // A single-choice filter (county) by keyboard: type, ↓, Enter; Tab leaves it closed.
  await ctx.visit(page, `${HUB}/record-sets/parish-burials`);
  await enhanced(page, "county");
  const county = page.getByRole("combobox", { name: "County" });
  await county.focus();
  assert.equal(await county.getAttribute("aria-expanded"), "false", "focus alone does not open the list");
  await openList(page, "county");
  await page.keyboard.type("surr");
  await page.getByRole("option", { name: /^Surrey/ }).waitFor();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('input[type="hidden"][name="county"]')?.value);
  assert.equal(await county.inputValue(), "Surrey");
  const surrey = await page.locator('input[type="hidden"][name="county"]').inputValue();
  await page.keyboard.press("Tab");
  assert.equal(await page.getByRole("listbox").count(), 0);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("county") === surrey);
  const burials = await api(`/api/research/search?place=${surrey}&collection=parish-burials&sort=relevance&limit=20`);
  await page.getByRole("heading", { name: resultsText(burials.total, burials.total_exact) }).waitFor();
  await enhanced(page, "county");
  assert.equal(await page.getByRole("combobox", { name: "County" }).inputValue(), "Surrey", "the choice comes back");
  // A click opens the list too.
  await openList(page, "decade", "click");
  await page.keyboard.press("Escape");

  // The API's 422 appears at its field.
  await ctx.visit(page, `${HUB}/record-sets/parish-baptisms?year=abc`);
  assert.equal(await page.getByLabel("Year", { exact: true }).getAttribute("aria-invalid"), "true");
  assert.equal(await page.getByRole("alert").count(), 1);
});

test("indexes: the list and an index's search; a members-only index shows visitors teasers and the invitation to join", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/indexes`);
  const names = await page.locator("main ul li h3").allInnerTexts();
  assert.deepEqual(names.sort(), ["Apprentices index", "Index of wills"]);
  await ctx.visit(page, `${HUB}/indexes/apprentices-index`);
  assert.equal(await page.locator("h1").innerText(), "Apprentices index");
  await page.getByLabel("Surname", { exact: true }).fill("Smith");
  await page.getByLabel("Surname matching").selectOption("soundex");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("surname_mode") === "soundex");
  const answer = await api("/api/research/search?surname=Smith&surname_mode=soundex&collection=apprentices-index&limit=20");
  await page.getByRole("heading", { name: answer.total === 0 ? "No records found" : resultsText(answer.total, answer.total_exact) }).waitFor();
  await checkA11y(page, "index search");

  await ctx.visit(page, `${HUB}/indexes/wills-index`);
  assert.match(await page.locator("main dl").innerText(), /Members only/);
  assert.ok((await page.locator("main table tbody tr", { hasText: "Members only" }).count()) > 0, "teasers marked");
  const invitation = page.getByRole("complementary", { name: "Members see the whole record" });
  assert.equal(
    await invitation.getByRole("link", { name: "Join or renew" }).getAttribute("href"),
    `/subscribe?return_to=${encodeURIComponent(`${HUB}/indexes/wills-index`)}`,
  );
  // Teasers have no date or place: the API withholds them.
  const cells = await page.locator("main table tbody tr").first().locator("td").allInnerTexts();
  assert.equal(cells[2], "", "no place for a visitor");
});

test("birth briefs: the collection, its search and members-only teasers", async () => {
  await ready();
  const page = await ctx.newPage();
  await ctx.visit(page, `${HUB}/birth-briefs`);
  assert.equal(await page.locator("h1").innerText(), "Birth briefs");
  const answer = await api("/api/research/search?collection=birth-briefs&sort=date&limit=20");
  await page.getByRole("heading", { name: resultsText(answer.total, answer.total_exact) }).waitFor();
  assert.equal(await page.locator("main table tbody tr").count(), answer.results.length);
  assert.ok(answer.results.every((r) => r.teaser), "a visitor sees teasers");
  assert.equal(await page.getByRole("complementary", { name: "Members see the whole record" }).count(), 1);
  // A brief's grandparents can be the person found.
  await openList(page, "role");
  await page.keyboard.type("grand");
  await page.waitForFunction(() => document.querySelectorAll('[role="listbox"] [role="option"]').length === 4);
  await page.keyboard.press("Escape");
  // The overview's link to a birth-brief collection filters this page.
  await ctx.visit(page, `${HUB}/birth-briefs?collection=birth-briefs`);
  await page.getByRole("heading", { name: resultsText(answer.total, answer.total_exact) }).waitFor();
});

test("a member sees members-only records in full, and the search goes into their history", { timeout: 120_000 }, async () => {
  await ready();
  const email = addUser(ctx, "member", "Cora Member");
  const page = await ctx.newPage();
  const wanted = `${HUB}/indexes/wills-index?surname=Smith`;
  await signIn(ctx, page, { email }, wanted);
  await ctx.visit(page, wanted);
  const rows = page.locator("main table tbody tr");
  assert.ok((await rows.count()) > 0, "wills of Smiths");
  assert.equal(await page.locator("main table").getByText("Members only").count(), 0, "no teasers for a member");
  assert.equal(await page.getByRole("complementary", { name: "Members see the whole record" }).count(), 0);
  const places = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll("td")[2]?.textContent ?? ""));
  assert.ok(places.some((p) => p !== ""), "places shown");
  assert.equal(await page.getByLabel("Save this search as").count(), 1);
  await ctx.visit(page, "/user-account");
  await page.locator("#search-history").getByText(/^Smith: \d+ results?$/).waitFor();
});
