// Alerts of saved searches: a member saves a search that finds nothing
// yet, turns on its email alert in the account area ("as soon as new records match"),
// records are imported with `lineage import records`, and one digest arrives listing
// exactly the new matches, linked to their record pages; with the alert turned off,
// the next import sends nothing. Chromium against the real binary, axe on every page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { addUser, checkA11y, runLineage, setup, signIn, waitForHydration } from "./harness.mjs";
import { readMails, waitForMail } from "./newsletter-mail.mjs";
import { saveSearch } from "./research.mjs";

const ctx = setup({ name: "newsletter-alerts" });
const SEARCH = "/research-hub/our-collections/searchexplore";
const DIGEST_SUBJECT = "New records for your saved searches";
// Surnames no demo record has.
const WANTED = "Quillfeather";
const OTHER = "Otterbury";

// The links in the mail are the server's: commands are told its public address, as serve is.
const cli = (args) => runLineage(args, { env: { LINEAGE_DATABASE_URL: "", LINEAGE_PUBLIC_URL: ctx.server.url } });

/** Imports rows (surname, given names, year) into a collection of its own. */
function importRecords(slug, rows) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-alerts-"));
  try {
    const file = path.join(dir, `${slug}.csv`);
    writeFileSync(
      file,
      "record_id,record_type,date,place,role,surname,given_names\n" +
        rows.map(([surname, given, year], i) => `${slug}-${i + 1},baptism,${year},"Guildford, Surrey",principal,${surname},${given}`).join("\n") +
        "\n",
    );
    cli(["import", "records", "--data", ctx.server.dataDir, "--quiet", "--collection", slug, "--kind", "index", "--title", `Alerts ${slug}`, file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What is due now is sent, as serve's scheduler would on its next tick. */
const runDue = () => cli(["newsletter", "run-due", "--data", ctx.server.dataDir]);

async function researchReady() {
  for (let i = 0; ; i++) {
    const res = await fetch(ctx.server.at("/api/research/collections"), { headers: { Accept: "application/json" } });
    const { data = [] } = res.ok ? await res.json() : {};
    if (data.some((c) => c.count > 0)) return;
    assert.ok(i < 120, "the research demo set loads");
    await new Promise((r) => setTimeout(r, 500));
  }
}

test("a member's saved search with an alert gets one digest listing exactly the newly imported matches", { timeout: 240_000 }, async () => {
  await researchReady();
  const email = addUser(ctx, "member", "Alma Alert");

  const page = await ctx.newPage({ viewport: { width: 390, height: 844 } });
  const wanted = `${SEARCH}?surname=${WANTED}`;
  await signIn(ctx, page, { email }, wanted);

  // Nothing yet; save the search anyway.
  await ctx.visit(page, wanted);
  await page.getByText("No records match this search.", { exact: false }).waitFor();
  await waitForHydration(page);
  await saveSearch(page, "Quillfeathers");

  // Turn on its alert in the account area, which says what it does.
  await ctx.visit(page, "/user-account#saved-searches");
  await waitForHydration(page);
  const alert = page.locator("#saved-searches").getByRole("group", { name: /Email me about new records for “Quillfeathers”/ });
  await alert.getByText("We will not email you about “Quillfeathers”.", { exact: false }).waitFor();
  assert.equal(await alert.getByLabel("Off: no emails about this search").isChecked(), true, "alerts start off");
  await checkA11y(page, "/user-account (alert off)");
  await alert.getByLabel("As soon as new records match").check();
  await page.getByRole("button", { name: "Save the email setting for “Quillfeathers”" }).click();
  await page.getByText("Saved. We will email you soon after new records matching “Quillfeathers” are added.").waitFor();
  await checkA11y(page, "/user-account (alert on)");
  await ctx.visit(page, "/user-account");
  assert.equal(
    await page.locator("#saved-searches").getByRole("group", { name: /“Quillfeathers”/ }).getByLabel("As soon as new records match").isChecked(),
    true,
    "the choice is kept",
  );

  // Records arrive at once, before any scheduler run (they are news all the same): two that match, one that does not.
  importRecords("alerts-one", [
    [WANTED, "Hester", 1841],
    [OTHER, "Walter", 1842],
    [WANTED, "Josiah", 1843],
  ]);
  runDue();
  const digest = await waitForMail(ctx.server.dataDir, email, (m) => (m.headers.subject ?? "").includes(DIGEST_SUBJECT));
  assert.ok(digest.html.includes("<"), "an HTML part");
  assert.match(digest.text, /Quillfeathers/, "the digest names the saved search");
  const links = [...new Set(digest.text.match(new RegExp(`${ctx.server.url}/research-hub/our-collections/records/[^\\s<>"]+`, "g")) ?? [])];
  assert.equal(links.length, 2, `exactly the two new matches are linked:\n${digest.text}`);
  assert.ok(digest.text.includes("Hester") && digest.text.includes("Josiah"), "both new Quillfeathers are listed");
  assert.ok(!digest.text.includes(OTHER), "the record that does not match is not listed");
  assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length, 1, "one email");

  // The links open the records.
  for (const link of links) {
    await ctx.visit(page, new URL(link).pathname);
    await page.getByText(WANTED).first().waitFor();
  }

  // The same search now finds what the digest listed.
  await ctx.visit(page, wanted);
  assert.equal(await page.locator("#results-table tbody tr").count(), 2);

  // A search alerts cannot follow (the global search): the API's reason shows at the choices.
  await ctx.visit(page, `${SEARCH}?q=${WANTED}`);
  await waitForHydration(page);
  await saveSearch(page, "Everything Quillfeather");
  await ctx.visit(page, "/user-account#saved-searches");
  await waitForHydration(page);
  ctx.expectProblem(page, { url: /\/user-account(\.data)?(\?|$)/, status: 422 }, "the test asks for an alert the API refuses");
  const global = page.locator("#saved-searches").getByRole("group", { name: /“Everything Quillfeather”/ });
  await global.getByLabel("At most once a week").check();
  await page.getByRole("button", { name: "Save the email setting for “Everything Quillfeather”" }).click();
  const refused = global.locator('p[id$="-error"]');
  await refused.waitFor();
  assert.ok((await refused.innerText()).length > "Error: ".length, "the reason is given");
  assert.equal(await global.getByLabel("At most once a week").getAttribute("aria-invalid"), "true");
  await checkA11y(page, "/user-account (alert refused)");

  // Turned off, the next import sends nothing.
  await ctx.visit(page, "/user-account");
  await waitForHydration(page);
  const group = page.locator("#saved-searches").getByRole("group", { name: /“Quillfeathers”/ });
  await group.getByLabel("Off: no emails about this search").check();
  await page.getByRole("button", { name: "Save the email setting for “Quillfeathers”" }).click();
  await page.getByText("Saved. We will not email you about “Quillfeathers”.").waitFor();
  importRecords("alerts-two", [[WANTED, "Keturah", 1850]]);
  runDue();
  assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length, 1, "no second digest once the alert is off");
});

test("a member follows the library's catalogue from its page and hears of the books added to it", { timeout: 240_000 }, async () => {
  await researchReady();
  const email = addUser(ctx, "member", "Lena Library");
  const catalogue = "/research-hub/our-collections/society-library";

  const page = await ctx.newPage({ viewport: { width: 390, height: 844 } });
  await signIn(ctx, page, { email }, catalogue);
  await waitForHydration(page);

  // The catalogue's page offers to follow it.
  await page.getByRole("heading", { name: "Follow this catalogue" }).waitFor();
  await checkA11y(page, `${catalogue} (signed in)`);
  await saveSearch(page, "Library shelves");

  await ctx.visit(page, "/user-account#saved-searches");
  await waitForHydration(page);
  const group = page.locator("#saved-searches").getByRole("group", { name: /“Library shelves”/ });
  await group.getByLabel("As soon as new records match").check();
  await page.getByRole("button", { name: "Save the email setting for “Library shelves”" }).click();
  await page.getByText("Saved. We will email you soon after new records matching “Library shelves” are added.").waitFor();

  runDue();
  const title = `A guide to Quillfeather wills ${Date.now()}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-follow-"));
  try {
    const file = path.join(dir, "books.csv");
    writeFileSync(file, `key,title,authors,year,publisher,subjects,shelfmark\nE2E-${Date.now()},${title},A. Writer,1901,,,\n`);
    cli(["import", "library", "--data", ctx.server.dataDir, "--collection", "society-library", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  runDue();
  const digest = await waitForMail(ctx.server.dataDir, email, (m) => (m.headers.subject ?? "").includes(DIGEST_SUBJECT));
  assert.ok(digest.text.includes(title), `the new book is listed:\n${digest.text}`);
  assert.ok(digest.text.includes(`${ctx.server.url}${catalogue}`), "linked to the catalogue's page");
  assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length, 1, "one email");
});
