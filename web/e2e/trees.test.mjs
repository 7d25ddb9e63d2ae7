// Family trees: the trees list, a tree's page (surname index, person
// search, the viewer moved with the mouse and the keyboard, its list alternative
// without JavaScript), a person's page with the bookmark toggle, a living person shown
// as "Living", pedigree search, and a member's GEDCOM upload published by an editor —
// in Chromium against `serve --demo` (which loads the demo tree), with axe on every page.
//
// People are picked through the public API rather than hard-coded, so the test follows
// the demo file: someone with parents, a partner and children, and a living child.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PASSWORD, checkA11y, runLineage, setup, signIn, waitForHydration } from "./harness.mjs";

const ctx = setup({ name: "trees" });
const TREES = "/research-hub/our-collections/family-trees";
const RECORD = "/research-hub/our-collections/family-trees-record";

let users = 0;
function addUser(name, role = "member") {
  const email = `trees${++users}-${Date.now()}@example.org`;
  const env = { env: { LINEAGE_DATABASE_URL: "" } };
  runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", PASSWORD, "--name", name], env);
  if (role !== "member") runLineage(["user", "set-role", "--data", ctx.server.dataDir, "--email", email, "--role", role], env);
  return { email, name };
}

async function api(p) {
  const res = await fetch(ctx.server.at(p), { headers: { Accept: "application/json" } });
  assert.equal(res.status, 200, `GET ${p}`);
  return res.json();
}

const focusedKey = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-key") ?? null);
const focusedPerson = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-person") ?? null);
const personParam = (page) => new URL(page.url()).searchParams.get("person");

// Picked from the API before the tests.
const demo = {};

describe("family trees", () => {
  before(async () => {
    const { trees } = await api("/api/trees");
    assert.ok(trees.length > 0, "serve --demo loads a published tree");
    demo.tree = trees[0];
    const slug = demo.tree.slug;
    const { results } = await api(`/api/trees/${slug}/people?limit=200`);
    // Someone with two parents, a partner and children (one of whom, at best, living).
    for (const summary of results) {
      const p = await api(`/api/trees/${slug}/people/${summary.id}`);
      const parents = p.parents[0]?.partners ?? [];
      const family = p.families.find((f) => f.partner && f.children.length);
      if (!p.living && parents.length === 2 && family && p.birth?.date?.year) {
        demo.person = p;
        demo.father = parents.find((x) => x.sex === "M") ?? parents[0];
        demo.partner = family.partner;
        demo.child = family.children[0];
        break;
      }
    }
    assert.ok(demo.person, "the demo tree has someone with both parents, a partner and children");
    // A living person: the API shows them as "Living", reached through relatives.
    for (const summary of results) {
      const p = await api(`/api/trees/${slug}/people/${summary.id}`);
      const living = p.families.flatMap((f) => f.children).find((c) => c.living);
      if (living) {
        demo.living = living;
        break;
      }
    }
    assert.ok(demo.living, "the demo tree has a living person");
  });

  test("the list, a tree, its surname index and person search, and a person's page", { timeout: 90_000 }, async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, TREES);
    await page.getByRole("heading", { level: 1, name: "Family trees" }).waitFor();
    await page.getByRole("link", { name: demo.tree.title }).click();
    await page.waitForURL((u) => u.pathname === `${TREES}/${demo.tree.slug}`);
    await page.getByRole("heading", { level: 1, name: demo.tree.title }).waitFor();
    await checkA11y(page, "tree page");

    // The surname index links to the search in the tree.
    const surname = demo.person.surname;
    await page.locator("#surnames").locator("xpath=..").getByRole("link", { name: new RegExp(`^${surname} \\(\\d+\\)$`) }).click();
    await page.waitForURL((u) => u.searchParams.get("surname") === surname && u.searchParams.get("surname_mode") === "exact");
    await page.getByRole("table").getByRole("link", { name: demo.person.name, exact: true }).first().waitFor();
    await checkA11y(page, "tree page, surname");

    // The search form: given names narrow it.
    await page.getByLabel("Surname", { exact: true }).fill(surname);
    await page.getByLabel("Given names").fill(demo.person.given.split(" ")[0]);
    await page.getByRole("button", { name: "Search this tree" }).click();
    await page.waitForURL((u) => u.searchParams.get("given") === demo.person.given.split(" ")[0]);
    const hit = page.getByRole("table").getByRole("link", { name: demo.person.name, exact: true }).first();
    await hit.waitFor();
    await hit.click();

    // The person's page.
    await page.waitForURL((u) => u.pathname === `${RECORD}/${demo.tree.slug}~${demo.person.id}`);
    await page.getByRole("heading", { level: 1, name: new RegExp(`^${demo.person.name}`) }).waitFor();
    await page.getByRole("heading", { name: "Timeline" }).waitFor();
    await page.locator("#family").locator("xpath=..").getByRole("link", { name: demo.father.name, exact: true }).first().waitFor();
    await page.getByRole("link", { name: demo.partner.name, exact: true }).first().waitFor();
    await page.getByRole("link", { name: "Sign in to bookmark this page" }).waitFor();
    await checkA11y(page, "person page");

    // Unknown people and malformed slugs are 404s.
    await ctx.visit(page, `${RECORD}/${demo.tree.slug}~NOBODY`, { status: 404 });
    await ctx.visit(page, `${RECORD}/not a slug`, { status: 404 });
    await ctx.visit(page, `${TREES}/no-such-tree`, { status: 404 });
  });

  test("a living person is 'Living', with no dates or details", { timeout: 60_000 }, async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, `${RECORD}/${demo.tree.slug}~${demo.living.id}`);
    await page.getByRole("heading", { level: 1, name: "Living", exact: true }).waitFor();
    await page.getByText("This person may be living, so their details are private.").waitFor();
    assert.equal(await page.getByRole("heading", { name: "Timeline" }).count(), 0);
    const main = await page.locator("main").innerText();
    const h1 = await page.locator("h1").innerText();
    assert.doesNotMatch(h1, /\d/, "no dates beside the name");
    assert.doesNotMatch(main, /\bBirth\b|\bborn\b|Sources|Notes/, "no events, sources or notes");
  });

  test("the viewer: click to move, keyboard to walk and open, pan and zoom", { timeout: 90_000 }, async () => {
    const page = await ctx.newPage({ viewport: { width: 1280, height: 900 } });
    const start = `${TREES}/${demo.tree.slug}?person=${demo.person.id}&chart=hourglass&generations=3`;
    await ctx.visit(page, start);
    await waitForHydration(page, "main a[href]");
    const chart = page.getByRole("group", { name: new RegExp(`chart of ${demo.person.name}$`) });
    await chart.waitFor();
    await checkA11y(page, "viewer");
    const root = chart.locator('[data-key="root"]');
    assert.equal(await root.getAttribute("data-person"), demo.person.id);

    // Keyboard: Tab reaches the chart's one focusable box (the person), arrows walk.
    await root.focus();
    assert.equal(await focusedKey(page), "root");
    await page.keyboard.press("ArrowUp");
    assert.equal(await focusedPerson(page), demo.father.id, "up goes to the father");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focusedKey(page), "root", "down comes back");
    await page.keyboard.press("ArrowRight");
    assert.equal(await focusedPerson(page), demo.partner.id, "right goes to the partner beside");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focusedPerson(page), demo.child.id, "down goes to a child");
    await page.keyboard.press("Home");
    assert.equal(await focusedKey(page), "root");
    // Only one box is in the tab order.
    assert.equal(await chart.locator('[tabindex="0"]').count(), 1);

    // A click on a box moves the chart to that person (the father's box is near the person's).
    await chart.locator('[data-key="root.f"]').click();
    await page.waitForURL((u) => u.searchParams.get("person") === demo.father.id);
    await page.waitForFunction((id) => document.querySelector('[data-key="root"]')?.getAttribute("data-person") === id, demo.father.id);

    // Space moves the chart to the focused person (here the father's child, our person),
    // and focus stays in the chart, on the new chart's person.
    await page.locator(`[data-person="${demo.person.id}"]`).first().focus();
    await page.keyboard.press(" ");
    await page.waitForURL((u) => u.searchParams.get("person") === demo.person.id);
    await page.waitForFunction((id) => document.querySelector('[data-key="root"]')?.getAttribute("data-person") === id, demo.person.id);
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-key") === "root");
    assert.equal(personParam(page), demo.person.id);

    // Zoom buttons and dragging change the chart's transform.
    const transform = () => page.locator("svg[role=group] > g").getAttribute("transform");
    const before = await transform();
    await page.getByRole("button", { name: "Zoom in" }).click();
    const zoomed = await transform();
    assert.notEqual(zoomed, before);
    const box = await page.locator("svg[role=group]").boundingBox();
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 80, { steps: 5 });
    await page.mouse.up();
    const panned = await transform();
    assert.notEqual(panned, zoomed, "dragging pans");
    // The plain wheel scrolls the page; with Ctrl it zooms the chart.
    await page.mouse.move(box.x + 200, box.y + 200);
    await page.mouse.wheel(0, -200);
    assert.equal(await transform(), panned, "the plain wheel leaves the chart alone");
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -200);
    await page.keyboard.up("Control");
    await page.waitForFunction((t) => document.querySelector("svg[role=group] > g")?.getAttribute("transform") !== t, panned);
    assert.equal(personParam(page), demo.person.id, "a drag is not a click");

    // Enter opens the focused person's page.
    await page.locator('[data-key="root"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === `${RECORD}/${demo.tree.slug}~${demo.person.id}`);
    await page.getByRole("heading", { level: 1, name: new RegExp(`^${demo.person.name}`) }).waitFor();
  });

  test("without JavaScript the viewer is a nested list of the same people", { timeout: 60_000 }, async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `${TREES}/${demo.tree.slug}?person=${demo.person.id}&chart=hourglass&generations=3`);
    assert.equal(await page.locator("svg[role=group]").count(), 0, "the chart mounts only after hydration");
    const list = page.locator("h3#viewer-list").locator("xpath=..");
    await list.getByText("Father:").first().waitFor();
    await list.getByRole("link", { name: demo.father.name, exact: true }).first().waitFor();
    await list.getByRole("link", { name: demo.child.name, exact: true }).first().waitFor();
    // Its "show chart" links move the chart, as a click would.
    await list.getByRole("link", { name: `show chart of ${demo.father.name}` }).first().click();
    await page.waitForURL((u) => u.searchParams.get("person") === demo.father.id);
    await page.getByText(new RegExp(`Showing the hourglass .* of ${demo.father.name}`)).waitFor();
  });

  test("a signed-in member bookmarks a person", { timeout: 90_000 }, async () => {
    const member = addUser("Grace Ashworth");
    const page = await ctx.newPage();
    const personUrl = `${RECORD}/${demo.tree.slug}~${demo.person.id}`;
    await signIn(ctx, page, member, personUrl);
    await waitForHydration(page, "main a[href]");
    await page.getByRole("button", { name: "Bookmark this page" }).click();
    await page.getByText("In your bookmarks").waitFor();
    await checkA11y(page, "person page (bookmarked)");
    await ctx.visit(page, "/user-account#bookmarks");
    const link = page.locator("#bookmarks").locator("xpath=..").getByRole("link", { name: new RegExp(demo.person.name) }).first();
    assert.equal(await link.getAttribute("href"), personUrl);
  });

  test("pedigree search finds a person and the trees they appear in", { timeout: 60_000 }, async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/research-hub/our-collections/pedigree-search");
    await waitForHydration(page, "main a[href]");
    await page.getByLabel("Surname", { exact: true }).fill(demo.person.surname.toLowerCase());
    await page.getByLabel("Surname matching").selectOption("soundex");
    await page.getByLabel("Given names").fill(demo.person.given);
    await page.getByRole("button", { name: "Search the family trees" }).click();
    await page.waitForURL((u) => u.searchParams.get("surname_mode") === "soundex");
    await page.getByRole("heading", { name: "Pedigrees they appear in" }).waitFor();
    await page.getByRole("link", { name: demo.tree.title }).first().waitFor();
    const hit = page.getByRole("table").getByRole("link", { name: demo.person.name, exact: true }).first();
    await hit.waitFor();
    await checkA11y(page, "pedigree search results");
    // Nothing asked: the API's message shows at the field.
    await ctx.visit(page, "/research-hub/our-collections/pedigree-search?given=zzz");
    await page.getByText("Error:").first().waitFor();
  });

  test("a member uploads a GEDCOM file; it stays unpublished until an editor publishes it", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "trees-e2e-"));
    const file = path.join(dir, "pemberton.ged");
    writeFileSync(
      file,
      [
        "0 HEAD",
        "1 GEDC",
        "2 VERS 5.5.1",
        "2 FORM LINEAGE-LINKED",
        "1 CHAR UTF-8",
        "0 @I1@ INDI",
        "1 NAME Josiah /Pemberton/",
        "1 SEX M",
        "1 BIRT",
        "2 DATE 3 APR 1801",
        "2 PLAC Halifax, Yorkshire, England",
        "1 DEAT",
        "2 DATE 1870",
        "1 FAMS @F1@",
        "0 @I2@ INDI",
        "1 NAME Hannah /Lister/",
        "1 SEX F",
        "1 DEAT Y",
        "1 FAMS @F1@",
        "0 @F1@ FAM",
        "1 HUSB @I1@",
        "1 WIFE @I2@",
        "0 TRLR",
        "",
      ].join("\n"),
    );
    const title = `The Pemberton family ${Date.now()}`;
    const member = addUser("Josie Pemberton");
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/user-account\/trees\.data(\?|$)/, status: 422 }, "the test uploads with no file chosen");
    await signIn(ctx, page, member, "/user-account/trees");
    // Nothing chosen: the errors show at the fields and in the summary.
    await page.getByRole("button", { name: "Upload tree" }).click();
    await page.getByRole("heading", { name: "There is a problem" }).waitFor();
    await page.getByRole("link", { name: "Choose a GEDCOM file (.ged or .gdz) to upload." }).waitFor();
    await checkA11y(page, "/user-account/trees (errors)");
    await page.getByLabel("GEDCOM file").setInputFiles(file);
    await page.getByLabel("Title").fill(title);
    await page.getByRole("button", { name: "Upload tree" }).click();
    await page.getByText(`Uploaded “${title}”. It stays unpublished until an editor publishes it.`).waitFor();
    const mine = page.locator("#mine").locator("xpath=..");
    await mine.getByRole("link", { name: title }).waitFor();
    await mine.getByText("Unpublished: waiting for an editor").waitFor();
    await checkA11y(page, "/user-account/trees (uploaded)");

    // Its owner sees it, marked unpublished.
    await page.getByRole("link", { name: `Open “${title}”` }).click();
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    await page.getByText("This tree is unpublished: only its owner and editors can see it").waitFor();
    await checkA11y(page, "unpublished tree (owner)");

    // A second upload, deleted again by its owner.
    await ctx.visit(page, "/user-account/trees");
    await page.getByLabel("GEDCOM file").setInputFiles(file);
    await page.getByLabel("Title").fill(`${title} (draft)`);
    await page.getByRole("button", { name: "Upload tree" }).click();
    await page.getByText(`Uploaded “${title} (draft)”.`, { exact: false }).waitFor();
    await page.getByRole("button", { name: `Delete ${title} (draft)` }).click();
    await page.getByText(`Deleted “${title} (draft)”.`).waitFor();
    // Its row leaves the table of uploads (the first upload's stays).
    await mine.getByRole("link", { name: `${title} (draft)`, exact: true }).waitFor({ state: "detached" });
    await mine.getByRole("link", { name: title, exact: true }).waitFor();

    // Not in the public list yet.
    const anon = await ctx.newPage();
    await ctx.visit(anon, TREES);
    assert.equal(await anon.getByRole("link", { name: title }).count(), 0);

    // An editor publishes it from the studio's queue, which the account page links to.
    const editor = addUser("Edith Editor", "editor");
    const ed = await ctx.newPage();
    await signIn(ctx, ed, editor, "/user-account/trees");
    await checkA11y(ed, "/user-account/trees (editor)");
    await ed.getByRole("link", { name: "Review and publish trees in the studio" }).click();
    await ed.waitForURL((u) => u.pathname === "/studio/trees");
    await ed.getByRole("button", { name: `Publish ${title}` }).click();
    await ed.getByText(`Published “${title}”.`).waitFor();
    await checkA11y(ed, "/studio/trees (editor)");
    await ctx.visit(anon, TREES);
    await anon.getByRole("link", { name: title }).waitFor();
  });

  test("the upload area needs sign-in", { timeout: 30_000 }, async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/user-account/trees");
    assert.equal(new URL(page.url()).pathname, "/sign-in");
  });
});
