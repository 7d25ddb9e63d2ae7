// The research hub's search pages: the home page's surname box, search
// and explore (filters through the multi-select, keyset paging, the live "See N
// results", errors at their fields, the plain GET form without JavaScript), the global
// search's four tables, record pages with the paywall's teaser for visitors and the
// whole record for members, bookmarks, saved searches and search history — in
// Chromium against the real binary with `serve --demo`'s research demo set, axe on
// every page visited.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getJSON, PASSWORD, addUser, bookmarkThisPage, checkA11y, setup, waitForHydration } from "./harness.mjs";
import { resultsText, saveSearch } from "./research.mjs";

const ctx = setup({ name: "research-search" });
const SEARCH = "/research-hub/our-collections/searchexplore";
// The search pages are hydrated once the first link or button in <main> carries React's keys.
const HYDRATED = "main a[href], main button";

const api = (p) => getJSON(ctx, p);

/** Opens a multi-select's list by keyboard (focus, down arrow): the first press must work. */
async function openList(page, name) {
  const box = page.getByRole("combobox", { name });
  await box.locator("xpath=ancestor::*[@data-enhanced]").first().waitFor({ timeout: 15_000 });
  await box.focus();
  await page.keyboard.press("ArrowDown");
  await page.getByRole("listbox").waitFor({ timeout: 5_000 });
}

/** The record links of the results table, in order. */
async function resultLinks(page) {
  return page.locator("#results-table tbody tr").evaluateAll((rows) => rows.map((r) => r.querySelector("a")?.getAttribute("href")));
}

/** A members-only record of the demo set and its teaser's name. */
async function membersOnlyRecord() {
  const answer = await api("/api/research/search?collection=wills-index&sort=date&limit=1");
  const [result] = answer.results;
  assert.ok(result?.teaser, "the demo's wills are members-only");
  return result;
}

describe("surname search", () => {
  test("the home page's surname box finds records, with spelling variants", { timeout: 90_000 }, async () => {
    const expected = await api("/api/research/search?surname=Smith&surname_mode=variants&limit=20");
    assert.ok(expected.total > 20, "the demo set has more than a page of Smiths");
    const page = await ctx.newPage();
    // The home page is served without scripts: its box is a plain GET form.
    await ctx.visit(page, "/");
    const box = page.getByRole("search", { name: "Search for an ancestor" });
    await box.getByLabel("Surname").fill("Smith");
    await box.getByRole("button", { name: "Search records" }).click();
    await page.waitForURL((u) => u.pathname === SEARCH && u.searchParams.get("surname") === "Smith");
    await page.getByRole("heading", { level: 1, name: "Search and explore" }).waitFor();
    await page.locator("#results-table").waitFor();
    await ctx.visit(page, page.url().replace(ctx.server.url, ""));
    assert.match(await page.getByRole("status").filter({ hasText: "for Smith" }).textContent(), new RegExp(resultsText(expected.total, expected.total_exact)));
    assert.deepEqual(
      await resultLinks(page),
      expected.results.map((r) => `/research-hub/our-collections/records/${r.id}`),
      "the first page, in the API's order",
    );
  });

  test("without JavaScript: the GET forms, paging and errors at their fields", { timeout: 90_000 }, async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/");
    await page.getByRole("search", { name: "Search for an ancestor" }).getByLabel("Surname").fill("Smith");
    await page.getByRole("search", { name: "Search for an ancestor" }).getByRole("button", { name: "Search records" }).click();
    await page.waitForURL((u) => u.pathname === SEARCH);
    await page.locator("#results-table").waitFor();

    // The advanced form: a surname mode and a year range, sent as a plain GET.
    await ctx.visit(page, SEARCH);
    await page.getByLabel("Surname", { exact: true }).fill("Smith");
    await page.getByLabel("Spellings to find").selectOption("soundex");
    await page.getByLabel("Year", { exact: true }).fill("1850");
    await page.getByLabel("Give or take").selectOption("40");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("surname_mode") === "soundex");
    const expected = await api("/api/research/search?surname=Smith&surname_mode=soundex&year=1850&year_pm=40");
    await page.getByText(resultsText(expected.total, expected.total_exact), { exact: true }).waitFor();
    await ctx.visit(page, page.url().replace(ctx.server.url, ""));
    assert.equal(await page.getByRole("button", { name: `See ${resultsText(expected.total)}` }).count(), 1);

    // A bad year: the API's message at the field, tied to it, and in the summary.
    await ctx.visit(page, `${SEARCH}?surname=Smith&year=18x`);
    const year = page.locator("#search-year");
    assert.equal(await year.getAttribute("aria-invalid"), "true");
    const describedBy = (await year.getAttribute("aria-describedby")) ?? "";
    assert.ok(describedBy.split(" ").includes("search-year-error"));
    assert.match(await page.locator("#search-year-error").textContent(), /The year must be a whole number from 1 to 9999\./);
    await page.getByRole("alert").getByRole("link", { name: /The year must be/ }).waitFor();
  });
});

describe("search and explore", () => {
  test("the live count, a filter through the multi-select, keyset paging and the back button", { timeout: 120_000 }, async () => {
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/api\/research\/count\?.*year=18x/, status: 422 }, "the test types a year the API refuses (18x)");
    await ctx.visit(page, SEARCH);
    await waitForHydration(page, HYDRATED);
    await page.locator("[data-enhanced]").first().waitFor();

    // "See N results" as the visitor types, from /api/research/count.
    const all = await api("/api/research/count?surname=Smith");
    await page.getByLabel("Surname", { exact: true }).fill("Smith");
    await page.getByRole("button", { name: `See ${resultsText(all.total, all.total_exact)}` }).waitFor();
    const chosen = await api("/api/research/count?surname=Smith&collection=parish-baptisms&collection=parish-marriages");
    assert.ok(chosen.total > 20 && chosen.total < all.total, "two collections hold more than a page but not every Smith");

    // Choose a collection in the dropdown: the count follows.
    // (By keyboard: focus, open with the down arrow, type to narrow, choose with Enter.)
    await openList(page, "Collection");
    for (const word of ["baptisms", "marriages"]) {
      await page.keyboard.type(word);
      await page.waitForFunction(() => document.querySelectorAll('[role="listbox"] [role="option"]').length === 1);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
    }
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: `See ${resultsText(chosen.total)}` }).waitFor();
    await checkA11y(page, `${SEARCH} (filled in, dropdown shut)`);

    // A bad year shows the error at the field while typing.
    await page.getByLabel("Year", { exact: true }).fill("18x");
    await page.locator("#search-year-error").waitFor();
    await page.getByLabel("Year", { exact: true }).fill("");
    await page.getByRole("button", { name: `See ${resultsText(chosen.total)}` }).waitFor();
    assert.equal(await page.locator("#search-year-error").count(), 0);

    // Place suggestions from the gazetteer as the visitor types.
    const places = await api("/api/research/places?q=Guildf");
    assert.ok(places.data.length > 0);
    await page.getByLabel("Place", { exact: true }).fill("Guildf");
    await page.waitForFunction((v) => [...document.querySelectorAll("#search-place-options option")].some((o) => o.value === v), places.data[0].path);
    await page.getByLabel("Place", { exact: true }).fill("");
    await page.getByRole("button", { name: `See ${resultsText(chosen.total)}` }).waitFor();

    // Submit: the URL is the search.
    await page.getByRole("button", { name: `See ${resultsText(chosen.total)}` }).click();
    await page.waitForURL((u) => u.searchParams.getAll("collection").length === 2 && u.searchParams.get("surname") === "Smith");
    const url = new URL(page.url());
    assert.equal(url.search, "?surname=Smith&collection=parish-baptisms&collection=parish-marriages", "a tidy URL without empty fields");
    await page.locator("#results-table").waitFor();

    // Keyset paging: the next page is the API's next page.
    const both = "surname=Smith&collection=parish-baptisms&collection=parish-marriages&limit=20";
    const first = await api(`/api/research/search?${both}`);
    assert.ok(first.next, "more than one page");
    const second = await api(`/api/research/search?${both}&after=${encodeURIComponent(first.next)}`);
    const firstLinks = await resultLinks(page);
    assert.deepEqual(firstLinks, first.results.map((r) => `/research-hub/our-collections/records/${r.id}`));
    await page.getByRole("navigation", { name: "Pages of results" }).getByRole("link", { name: "Next page" }).click();
    await page.waitForURL((u) => u.searchParams.has("after"));
    await page.waitForFunction((href) => document.querySelector("#results-table tbody tr a")?.getAttribute("href") === href, `/research-hub/our-collections/records/${second.results[0].id}`);
    assert.deepEqual(await resultLinks(page), second.results.map((r) => `/research-hub/our-collections/records/${r.id}`));
    await page.getByRole("link", { name: "First page", exact: true }).waitFor();
    await ctx.visit(page, page.url().replace(ctx.server.url, ""));

    // Back goes to the first page.
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("after"));
    await page.waitForFunction((href) => document.querySelector("#results-table tbody tr a")?.getAttribute("href") === href, firstLinks[0]);
  });

  test("the global search shows archive, family trees, index and library, with see all", { timeout: 90_000 }, async () => {
    const expected = await api("/api/search?q=John%20Smith");
    const page = await ctx.newPage();
    await ctx.visit(page, SEARCH);
    await waitForHydration(page, HYDRATED);
    await page.getByLabel("Names, places, titles or words").fill("John Smith");
    await page.getByRole("button", { name: "Search everything" }).click();
    await page.waitForURL((u) => u.searchParams.get("q") === "John Smith");
    await page.getByRole("heading", { level: 1, name: "Search results for “John Smith”" }).waitFor();
    for (const name of ["Archive", "Family trees", "Index records", "Library"]) await page.getByRole("heading", { level: 2, name: new RegExp(`^${name}`) }).waitFor();
    // The index and the trees search the text as read: "Smith, John".
    assert.equal(expected.reading.text, "Smith, John");
    await page.getByText("Showing Smith, John in the index records and family trees.").waitFor();
    if (expected.family_trees.total === 0) await page.getByText("No one in the society's family trees matches “Smith, John”.").waitFor();
    await ctx.visit(page, page.url().replace(ctx.server.url, ""));
    assert.ok(expected.index.total > 0);
    const seeAll = page.getByRole("link", { name: `See all ${resultsText(expected.index.total, expected.index.total_exact)} in the indexes` });
    await seeAll.click();
    await page.waitForURL((u) => u.pathname === SEARCH && u.searchParams.get("surname") === "Smith" && u.searchParams.get("given") === "John");
    await page.locator("#results-table").waitFor();

    // A family name of the demo's trees fills the family trees table; "see all" is the pedigree search.
    const trees = await api("/api/search?q=Ashworth");
    assert.ok(trees.family_trees.total > 0, "the demo's family trees hold Ashworths");
    await ctx.visit(page, `${SEARCH}?q=Ashworth`);
    const treeRows = page.locator("#global-family-trees-table tbody tr");
    assert.equal(await treeRows.count(), trees.family_trees.results.length);
    assert.equal(await treeRows.first().getByRole("link").getAttribute("href"), trees.family_trees.results[0].url);
    const seeTrees = page.getByRole("link", { name: `See all ${resultsText(trees.family_trees.total, trees.family_trees.total_exact)} in the family trees` });
    assert.equal(await seeTrees.getAttribute("href"), `/research-hub/our-collections/pedigree-search?${trees.family_trees.search}`);

    // A catalogue word finds library entries.
    const library = await api("/api/search?q=parish");
    assert.ok(library.library.total > 0);
    await ctx.visit(page, `${SEARCH}?q=parish`);
    assert.equal(await page.locator("#global-library-table tbody tr").count(), library.library.results.length);
  });
});

describe("people of the family trees in the records search", () => {
  test("a surname search for Ashworth lists the demo tree's Ashworths under “In family trees”; the link opens the person", { timeout: 90_000 }, async () => {
    const expected = await api("/api/trees/search?surname=Ashworth&limit=10");
    assert.ok(expected.total > 0 && expected.results.length > 0, "the demo tree holds Ashworths");
    assert.ok(expected.results.every((r) => r.tree.slug === "ashworth-family"));

    // Server-rendered: without JavaScript the section is there.
    const plain = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(plain, `${SEARCH}?surname=Ashworth`);
    await plain.getByRole("heading", { level: 2, name: `In family trees (${resultsText(expected.total)})` }).waitFor();
    assert.equal(await plain.locator("#tree-people-table tbody tr").count(), expected.results.length);

    const page = await ctx.newPage();
    await ctx.visit(page, `${SEARCH}?surname=Ashworth`);
    const section = page.getByRole("region", { name: /^In family trees/ });
    const rows = section.locator("#tree-people-table tbody tr");
    assert.equal(await rows.count(), expected.results.length);
    const first = expected.results[0];
    const href = `/research-hub/our-collections/family-trees-record/ashworth-family~${encodeURIComponent(first.person.id)}`;
    const link = rows.first().getByRole("link", { name: first.person.name, exact: true });
    assert.equal(await link.getAttribute("href"), href);
    assert.equal(await rows.first().getByRole("link", { name: "The Ashworth family of Lancashire" }).getAttribute("href"), "/research-hub/our-collections/family-trees/ashworth-family");
    if (!first.person.living && first.person.birth?.date?.year) assert.equal((await rows.first().locator("td").nth(1).textContent()).trim(), String(first.person.birth.date.year));
    const seeAll = section.getByRole("link", { name: `See all ${resultsText(expected.total)} in the pedigree search` });
    assert.equal(await seeAll.getAttribute("href"), "/research-hub/our-collections/pedigree-search?surname=Ashworth#results");

    await waitForHydration(page, HYDRATED);
    await link.click();
    await page.waitForURL((u) => u.pathname === href);
    await page.getByRole("heading", { level: 1, name: first.person.name }).waitFor();
    await checkA11y(page);

    // The same parameters go along; a name nobody in the trees has gives the empty message.
    await ctx.visit(page, `${SEARCH}?surname=Smith&surname_mode=soundex&year=1850&year_pm=40`);
    const none = await api("/api/trees/search?surname=Smith&surname_mode=soundex&year=1850&year_pm=40&limit=10");
    if (none.total === 0) await page.getByText("No one in the society’s family trees matches this surname search.").waitFor();
    else assert.equal(await page.locator("#tree-people-table tbody tr").count(), none.results.length);
    assert.equal(
      await page.getByRole("region", { name: /^In family trees/ }).getByRole("link", { name: /pedigree search/ }).getAttribute("href"),
      "/research-hub/our-collections/pedigree-search?surname=Smith&surname_mode=soundex&year=1850&year_pm=40#results",
    );

    // No surname, no section.
    await ctx.visit(page, `${SEARCH}?year=1850`);
    assert.equal(await page.locator("#tree-people").count(), 0);
  });
});

describe("records and the account area", () => {
  test("a public record's page", { timeout: 60_000 }, async () => {
    const [result] = (await api("/api/research/search?surname=Smith&collection=parish-baptisms&limit=1")).results;
    const record = await api(`/api/research/records/${result.id}`);
    const page = await ctx.newPage();
    await ctx.visit(page, `${SEARCH}?surname=Smith&collection=parish-baptisms`);
    await waitForHydration(page, HYDRATED);
    await page.locator("#results-table tbody tr").first().getByRole("link").click();
    await page.waitForURL((u) => u.pathname === `/research-hub/our-collections/records/${result.id}`);
    await page.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    await ctx.visit(page, `/research-hub/our-collections/records/${result.id}`);
    const h1 = await page.getByRole("heading", { level: 1 }).textContent();
    assert.ok(h1.startsWith("Baptism"), h1);
    assert.equal(await page.locator(`section[aria-labelledby="record-persons"] tbody tr`).count(), record.persons.length);
    if (record.source) await page.getByText(record.source, { exact: true }).waitFor();
    await page.getByRole("link", { name: "Sign in to bookmark this page" }).waitFor();

    // A record with scans shows them in the image viewer (the demo's scanned memorial card).
    const scanned = (await api("/api/images")).data.find((i) => i.target?.type === "record" && i.allowed);
    assert.ok(scanned, "the demo set has a scanned record");
    await ctx.visit(page, `/research-hub/our-collections/records/${scanned.target.id}`);
    await page.getByRole("heading", { level: 2, name: "Scans" }).waitFor();
    assert.equal(await page.getByRole("link", { name: `Open “${scanned.label}” in the image viewer` }).getAttribute("href"), scanned.viewer);

    // Unknown and malformed ids are the not-found page.
    await ctx.visit(page, "/research-hub/our-collections/records/999999999", { status: 404 });
    await ctx.visit(page, "/research-hub/our-collections/records/abc", { status: 404 });
  });

  test("a members-only record: the teaser and an invitation for visitors, everything for members; bookmark, save the search, history", { timeout: 150_000 }, async () => {
    const teaser = await membersOnlyRecord();
    const full = await fetch(`${ctx.server.url}/api/research/records/${teaser.id}`).then((r) => r.json());
    assert.equal(full.teaser, true);
    const path = `/research-hub/our-collections/records/${teaser.id}`;

    // A visitor: the teaser and the invitation, none of the withheld fields.
    const visitor = await ctx.newPage();
    await ctx.visit(visitor, path);
    await visitor.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();
    assert.equal(await visitor.getByRole("link", { name: "Join or renew" }).getAttribute("href"), `/subscribe?return_to=${encodeURIComponent(path)}`);
    assert.equal(await visitor.getByRole("link", { name: "Create an account" }).getAttribute("href"), "/register");
    assert.equal(await visitor.getByRole("heading", { name: "People in this record" }).count(), 0);
    assert.equal(await visitor.getByText("Members only").count() > 0, true);
    assert.match(await visitor.locator("main").textContent(), new RegExp(`${teaser.persons[0].given_names} ${teaser.persons[0].surname}`));

    // A member signs in from the invitation and sees the whole record.
    const email = addUser(ctx, "member", "Ida Researcher");
    const page = await ctx.newPage();
    await ctx.visit(page, path);
    await page.getByRole("link", { name: "Sign in to see this record" }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === path);
    await page.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: "Join to see the whole record" }).count(), 0);
    await ctx.visit(page, path);
    await page.getByText("Source", { exact: true }).waitFor();

    // Bookmark the record.
    await waitForHydration(page, HYDRATED);
    await bookmarkThisPage(page);
    const title = await page.getByRole("heading", { level: 1 }).textContent();

    // Search (history) and save the search.
    await ctx.visit(page, `${SEARCH}?surname=Smith&collection=wills-index`);
    await waitForHydration(page, HYDRATED);
    await saveSearch(page, "Smith wills");
    // Members see the members-only results in full.
    assert.equal(await page.locator("#results-table").getByText("Members only").count(), 0);

    await ctx.visit(page, "/user-account");
    await page.locator("#bookmarks").getByRole("link", { name: title }).waitFor();
    assert.equal(await page.locator("#bookmarks").getByRole("link", { name: title }).getAttribute("href"), path);
    const saved = page.locator("#saved-searches");
    await saved.getByText("Smith wills", { exact: true }).waitFor();
    // Described in words, not parameter names ("surname: Smith; collection: wills-index").
    await saved.getByText("Smith, wills index", { exact: true }).waitFor();
    const run = new URL(await saved.getByRole("link", { name: /Run the search “Smith wills”/ }).getAttribute("href"), ctx.server.url);
    assert.equal(run.pathname, SEARCH);
    assert.deepEqual(Object.fromEntries(run.searchParams), { surname: "Smith", collection: "wills-index" });
    await page.locator("#search-history").getByText(/^Smith, Index of wills: \d+ results?$/).waitFor();
  });
});
