// The studio's staff tools, in Chromium against the real binary with
// axe on every page: a volunteer (an editor) on a 390 px phone uploads a CSV whose
// columns are not ours, fixes the matching the studio proposed (a field at fault is
// named next to it), checks the file (counts, a problem by its line, the first records),
// imports it while the progress bar follows the server's events, finds a record of it
// in the search and attaches a scan to it (prepared in the background); an admin changes someone's role by keyboard, sees the change in the
// audit log (filtered, and in its CSV); editors do not see the admins' screens, and
// members do not get into the studio.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { PASSWORD, checkA11y, runLineage, setup, signIn } from "./harness.mjs";
import { mailedLink } from "./mail.mjs";

const ctx = setup({ name: "studio-staff" });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let users = 0;
/** An account made with `lineage user add` (and `user set-role`) while the server runs. */
function addUser(name, role = "registered") {
  const email = `staff${++users}-${Date.now()}@example.org`;
  const env = { env: { LINEAGE_DATABASE_URL: "" } };
  runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", PASSWORD, "--name", name], env);
  if (role !== "registered") runLineage(["user", "set-role", "--data", ctx.server.dataDir, "--email", email, "--role", role], env);
  return { email, name };
}

/** A small RGB PNG (a gradient), made here so the test needs no image file. */
function png(width, height) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set([x % 256, y % 256, 128], y * row + 1 + x * 3);
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** The page does not scroll sideways at 390 px. */
async function assertNoSidewaysScroll(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${what} is ${width}px wide at 390px`);
}

describe("records and scans: upload, matching, dry run, import with progress, search, a scan", () => {
  test("a volunteer on a phone imports a CSV of another layout, finds a record of it and attaches scans to it (a file and a folder)", { timeout: 180_000 }, async (t) => {
    const volunteer = addUser("Vera Volunteer", "editor");
    const page = await ctx.newPage(PHONE);
    ctx.expectProblem(page, { url: /\/studio\/records\/[^/]+\.data(\?|$)/, status: 422 }, "the test checks the file with a needed field left out");
    await signIn(ctx, page, volunteer, "/studio/records");
    await page.getByRole("heading", { level: 1, name: "Import records" }).waitFor();
    await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Records" }).waitFor();
    await checkA11y(page, "/studio/records (390 px)");
    await assertNoSidewaysScroll(page, "/studio/records");

    // Columns named the parish's way: no record type at all, and the surname under a
    // name the studio is not expected to know. Line 4 has no names: a problem by line.
    const stamp = Date.now();
    const surname = `Quillfeather${stamp % 100000}`;
    const csv = [
      "Entry;Baptised;Parish;Relationship;Family name;Christian names",
      `E1-${stamp};3 Mar 1851;Leeds;child;${surname};John`,
      `E2-${stamp};9 Apr 1851;Leeds;child;${surname};Mary`,
      `E3-${stamp};1 May 1851;Leeds;child;;`,
      // Enough other baptisms that the import is usually still running when its page opens.
      ...Array.from({ length: 40_000 }, (_, i) => `F${i}-${stamp};${(i % 28) + 1} Jun 1851;Leeds;child;Fillingham;Child ${i}`),
    ].join("\n");
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "parish-baptisms.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and match the columns" }).click();
    await page.waitForURL((u) => /^\/studio\/records\/[^/]+$/.test(u.pathname));
    await page.getByRole("heading", { level: 1, name: "Match the columns of “parish-baptisms.csv”" }).waitFor();
    await checkA11y(page, "/studio/records/:upload (390 px)");
    await assertNoSidewaysScroll(page, "the mapping editor");

    // Leave the record type out and check: the studio names the field at fault.
    const recordType = page.locator("#map-value-record_type");
    await recordType.fill("");
    await page.locator("#map-col-record_type").selectOption("");
    await page.locator("#map-col-surname").selectOption("Family name");
    await page.getByRole("button", { name: "Check the file" }).click();
    const summary = page.locator("[data-error-summary]");
    await summary.getByText("There is a problem").waitFor();
    await summary.getByRole("link", { name: /Choose the column that holds “Kind of record/ }).waitFor();
    assert.equal(await page.locator("#map-col-record_type").getAttribute("aria-invalid"), "true");
    await checkA11y(page, "mapping with an error (390 px)");

    // Fix it by keyboard: focus is on the field at fault; the box for one value for
    // every line is next. Every line is a baptism.
    assert.equal(await page.evaluate(() => document.activeElement?.id), "map-col-record_type");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "map-value-record_type");
    await page.keyboard.type("baptism");
    // Then the other columns, and the new collection; check again.
    await page.locator("#map-col-surname").selectOption("Family name");
    await page.locator("#map-col-given_names").selectOption("Christian names");
    await page.locator("#map-col-record_id").selectOption("Entry");
    await page.locator("#map-col-date").selectOption("Baptised");
    await page.locator("#map-col-place").selectOption("Parish");
    await page.locator("#map-col-role").selectOption("Relationship");
    const collection = `e2e-baptisms-${stamp}`;
    await page.getByLabel("Collection", { exact: true }).fill(collection);
    await page.getByLabel("Title", { exact: true }).fill(`Baptisms ${stamp}`);
    await page.getByLabel("Kind of collection", { exact: true }).selectOption("record_set");
    await page.getByLabel("Who may see the records", { exact: true }).selectOption("public");
    await page.getByLabel("Remember this matching as", { exact: true }).fill(`Parish baptisms ${stamp}`);
    await page.getByRole("button", { name: "Check the file" }).click();
    const report = page.locator("section", { has: page.getByRole("heading", { name: "What the import would do" }) });
    await report.getByText("Nothing has been imported yet.").waitFor();
    await report.getByText("records in the file").waitFor();
    const problems = report.getByRole("table", { name: /Problems by line/ });
    await problems.getByRole("cell", { name: "4", exact: true }).waitFor();
    const sample = report.getByRole("table", { name: /as they would be imported/ });
    await sample.getByText(`John ${surname}`).waitFor();
    await checkA11y(page, "dry run (390 px)");
    await assertNoSidewaysScroll(page, "the dry run");

    // Import: the job's page shows the progress bar, fed by the server's events. The
    // page's EventSource is watched (not replaced) to see which events it was given.
    await page.evaluate(() => {
      const Original = window.EventSource;
      window.__jobEvents = [];
      window.EventSource = class extends Original {
        constructor(...args) {
          super(...args);
          window.__jobEvents.push("open");
          for (const name of ["job", "progress", "done", "failed", "canceled"]) this.addEventListener(name, () => window.__jobEvents.push(name));
        }
      };
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL((u) => /^\/studio\/jobs\/\d+$/.test(u.pathname));
    const bar = page.getByRole("progressbar", { name: "Importing the records" });
    await bar.waitFor();
    await page.getByRole("link", { name: "Search the imported records" }).waitFor({ timeout: 60_000 });
    assert.equal(await bar.getAttribute("aria-valuenow"), "100");
    await page.getByText("Finished", { exact: true }).waitFor();
    // Either the job was still going when its page loaded, and then the stream gave the
    // job, then its end, which the live region said; or it had finished already, and
    // then the page opened no stream at all.
    const events = await page.evaluate(() => window.__jobEvents);
    t.diagnostic(`the job page's events: ${events.join(" ") || "none (finished before the page loaded)"}`);
    if (events.length) {
      assert.deepEqual([events[0], events[1], events.at(-1)], ["open", "job", "done"], `events: ${events}`);
      await page.getByRole("status").filter({ hasText: "The import has finished." }).waitFor();
    } else {
      assert.equal(await page.getByRole("status").filter({ hasText: "The import has finished." }).count(), 0);
    }
    await checkA11y(page, "/studio/jobs/:id done (390 px)");
    await assertNoSidewaysScroll(page, "the import's page");

    // The stream itself, as the page's EventSource reads it: the job first, then its end.
    const jobId = new URL(page.url()).pathname.split("/").pop();
    const stream = await page.evaluate(async (id) => {
      const res = await fetch(`/api/studio/jobs/${id}/events`, { headers: { Accept: "text/event-stream" } });
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
    }, jobId);
    assert.equal(stream.status, 200);
    assert.match(stream.type ?? "", /^text\/event-stream/);
    assert.match(stream.text, /^event: job$/m);
    assert.match(stream.text, /^event: done$/m);

    // Find a record of it in the search.
    await page.getByRole("link", { name: "Search the imported records" }).click();
    await page.waitForURL((u) => u.pathname === "/research-hub/our-collections/searchexplore" && u.searchParams.get("collection") === collection);
    await page.getByRole("link", { name: new RegExp(surname) }).first().waitFor();
    await checkA11y(page, "search of the imported collection (390 px)");

    // Two scans of the first record's pages, attached to it: one chosen as a file, one
    // in a folder that also holds a note (left out); prepared in the background.
    await ctx.visit(page, "/studio/scans");
    await page.getByLabel("Scans", { exact: true }).setInputFiles({ name: "e1-page-1.png", mimeType: "image/png", buffer: png(320, 240) });
    const folder = mkdtempSync(path.join(os.tmpdir(), "lineage-e2e-scans-"));
    t.after(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(path.join(folder, "e1-page-2.png"), png(240, 320));
    writeFileSync(path.join(folder, "notes.txt"), "Scanned at the record office.\n");
    await page.getByLabel("Or a whole folder of scans", { exact: true }).setInputFiles(folder);
    await page.getByLabel("Collection", { exact: true }).selectOption(collection);
    await page.getByLabel(/All to one record or catalogue item/).check();
    await page.getByLabel(/Record or catalogue reference/).fill(`E1-${stamp}`);
    await checkA11y(page, "/studio/scans (390 px)");
    await assertNoSidewaysScroll(page, "/studio/scans");
    await page.getByRole("button", { name: "Upload and prepare the scans" }).click();
    await page.waitForURL((u) => /^\/studio\/jobs\/\d+$/.test(u.pathname));
    await page.getByRole("progressbar", { name: "Preparing the scans" }).waitFor();
    await page.getByText("2 scans: 2 prepared for viewing, 0 unchanged.").waitFor({ timeout: 60_000 });
    await page.getByText(/^e1-page-1\.png: /).waitFor();
    await page.getByText(/^e1-page-2\.png: /).waitFor();
    await checkA11y(page, "/studio/jobs/:id scans done (390 px)");

    // The matching was remembered for next time.
    await ctx.visit(page, "/studio/records");
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "more-baptisms.csv", mimeType: "text/csv", buffer: Buffer.from(csv.replaceAll(`-${stamp}`, `-${stamp}-b`)) });
    await page.getByRole("button", { name: "Upload and match the columns" }).click();
    await page.waitForURL((u) => /^\/studio\/records\/[^/]+$/.test(u.pathname));
    assert.equal(await page.locator("#map-col-surname").inputValue(), "Family name");
    assert.equal(await page.locator("#map-value-record_type").inputValue(), "baptism");

    // It is listed with the saved matchings, and can be forgotten.
    await ctx.visit(page, "/studio/records");
    const matching = `Parish baptisms ${stamp}`;
    await page.getByRole("button", { name: `Forget the matching ${matching}` }).click();
    await page.getByRole("status").getByText(`Forgot the matching “${matching}”.`).waitFor();
    await page.getByRole("button", { name: `Forget the matching ${matching}` }).waitFor({ state: "detached" });
  });
});

describe("without JavaScript", () => {
  test("upload, check and import are plain forms; the import's page says to look again until it is done", { timeout: 120_000 }, async () => {
    const volunteer = addUser("Nora NoScript", "editor");
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await signIn(ctx, page, volunteer, "/studio/records");
    const stamp = Date.now();
    const csv = ["record_id,record_type,date,place,role,surname,given_names", `N1-${stamp},burial,2 Feb 1860,York,deceased,Plainform${stamp % 100000},Ann`].join("\n");
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "burials.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and match the columns" }).click();
    await page.waitForURL((u) => /^\/studio\/records\/[^/]+$/.test(u.pathname));
    assert.equal(await page.locator("#map-col-surname").inputValue(), "surname", "our own column names are matched");
    const collection = `e2e-burials-${stamp}`;
    await page.getByLabel("Collection", { exact: true }).fill(collection);
    await page.getByLabel("Title", { exact: true }).fill(`Burials ${stamp}`);
    await page.getByLabel("Kind of collection", { exact: true }).selectOption("index");
    await page.getByLabel("Who may see the records", { exact: true }).selectOption("public");
    await page.getByRole("button", { name: "Check the file" }).click();
    await page.getByRole("heading", { name: "What the import would do" }).waitFor();
    await checkA11y(page, "dry run without JavaScript");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL((u) => /^\/studio\/jobs\/\d+$/.test(u.pathname));
    for (let i = 0; i < 100 && !(await page.getByRole("link", { name: "Search the imported records" }).count()); i++) {
      await page.getByRole("link", { name: "Look again" }).click();
      await page.waitForLoadState("load");
    }
    await page.getByText("Finished", { exact: true }).waitFor();
    await checkA11y(page, "finished import without JavaScript");
  });
});

describe("people and the audit log", () => {
  test("an admin changes a role by keyboard, disables and enables an account, sends a reset, and sees it all in the audit log and its CSV", { timeout: 120_000 }, async () => {
    const admin = addUser("Ada Admin", "admin");
    const rob = addUser("Rob Registered");
    const page = await ctx.newPage();
    await signIn(ctx, page, admin, "/studio/people");
    await page.getByRole("heading", { level: 1, name: "People" }).waitFor();

    // Find Rob by keyboard: the search box, then Enter.
    await page.getByLabel("Name or email address").focus();
    await page.keyboard.type(rob.email);
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("q") === rob.email);
    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: rob.name }) });
    await row.locator("dd").filter({ hasText: /^Registered user$/ }).waitFor();
    await checkA11y(page, "/studio/people?q=…");

    // Choose the new role and press the row's button with the keyboard.
    const select = page.getByLabel(`New role for ${rob.name}`);
    await select.focus();
    await select.selectOption("editor");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), `Change role of ${rob.name}`);
    await page.keyboard.press("Enter");
    await page.getByRole("status").getByText(`${rob.name}’s role is now “Editor”.`).waitFor();
    await row.locator("dd").filter({ hasText: /^Editor$/ }).waitFor();
    await checkA11y(page, "/studio/people (role changed)");

    // Stop Rob signing in, let him again, and send him a password reset.
    await row.getByRole("button", { name: `Stop them signing in (${rob.name})` }).click();
    await page.getByRole("status").getByText(`${rob.name} can no longer sign in.`, { exact: false }).waitFor();
    await row.getByText("No: disabled").waitFor();
    await row.getByRole("button", { name: `Let them sign in (${rob.name})` }).click();
    await page.getByRole("status").getByText(`${rob.name} can sign in again.`).waitFor();
    await row.getByRole("button", { name: `Send a password reset to ${rob.name}` }).click();
    await page.getByRole("status").getByText(/We have emailed .* a link to reset the password\./).waitFor();
    assert.ok(await mailedLink(ctx.server, rob.email, "/reset-password?"), "the reset link is mailed");

    // The audit log has it, with who, what and the change.
    await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL((u) => u.pathname === "/studio/audit");
    const entry = page.getByRole("row", { name: new RegExp(`Changed a role.*${rob.name}`) }).first();
    await entry.getByText("role: Registered user → Editor").waitFor();
    await entry.getByRole("cell", { name: admin.name }).waitFor();
    await checkA11y(page, "/studio/audit");
    for (const what of ["Disabled an account", "Enabled an account", "Sent a password reset"]) {
      await page.getByRole("row", { name: new RegExp(`${what}.*${rob.name}`) }).first().waitFor();
    }

    // Filtered to role changes by this admin; then the same as a CSV file.
    await page.getByLabel("What", { exact: true }).selectOption("user.role");
    await page.getByLabel("Who", { exact: true }).selectOption({ label: admin.name });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL((u) => u.searchParams.get("action") === "user.role");
    await page.getByRole("row", { name: new RegExp(rob.name) }).first().waitFor();
    const href = await page.getByRole("link", { name: /as a spreadsheet \(CSV\)/ }).getAttribute("href");
    assert.match(href, /^\/api\/studio\/audit\.csv\?/);
    assert.match(href, /action=user\.role/);
    const csv = await page.request.get(href);
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()["content-type"], /^text\/csv/);
    const text = await csv.text();
    assert.match(text.split("\n")[0], /^id,at,actor_id,actor_name,actor_email,action,subject,summary,before,after/);
    assert.ok(text.includes(rob.email), "the CSV names the account whose role changed");

    // At 390 px the people and audit pages do not scroll sideways (their tables scroll in their box).
    await page.setViewportSize({ width: 390, height: 844 });
    for (const p of ["/studio/people", "/studio/audit"]) {
      await ctx.visit(page, p);
      await assertNoSidewaysScroll(page, p);
    }
  });

  test("an editor uploads and publishes a tree in the studio's queue; editors do not get the admins' screens; members do not get into the studio", { timeout: 90_000 }, async () => {
    const editor = addUser("Eddie Editor", "editor");
    const page = await ctx.newPage();
    await signIn(ctx, page, editor, "/studio/records");
    const nav = page.getByRole("navigation", { name: "Studio" });
    assert.equal(await nav.getByRole("link", { name: "People" }).count(), 0);
    assert.equal(await nav.getByRole("link", { name: "Audit log" }).count(), 0);
    await ctx.visit(page, "/studio/people", { status: 404 });
    await ctx.visit(page, "/studio/audit", { status: 404 });

    // A tree sent to the society, uploaded in the studio: it waits in the queue with its
    // size, its living people and what reading it found, until it is published.
    const title = `The Ashworth family ${Date.now()}`;
    const gedcom = [
      "0 HEAD", "1 GEDC", "2 VERS 5.5.1", "2 FORM LINEAGE-LINKED", "1 CHAR UTF-8",
      "0 @I1@ INDI", "1 NAME Ezra /Ashworth/", "1 SEX M", "1 BIRT", "2 DATE 3 APR 1801", "1 DEAT", "2 DATE 1870", "1 FAMC @F1@",
      "0 @I2@ INDI", "1 NAME Ruby /Ashworth/", "1 SEX F", "1 BIRT", "2 DATE 12 JUN 1990", "1 FAMC @F1@",
      "0 @F1@ FAM", "1 CHIL @I1@", "1 CHIL @I2@",
      "0 TRLR", "",
    ].join("\n");
    await ctx.visit(page, "/studio/trees");
    await page.getByLabel("GEDCOM file", { exact: true }).setInputFiles({ name: "ashworth.ged", mimeType: "text/plain", buffer: Buffer.from(gedcom) });
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("button", { name: "Upload tree" }).click();
    await page.getByRole("status").getByText(`Uploaded “${title}”. It waits below until you publish it.`).waitFor();
    const tree = page.getByRole("row", { name: new RegExp(title) });
    await tree.getByText("2 people, 1 family").waitFor();
    await tree.getByText("1 living person").waitFor();
    assert.notEqual(await tree.getByRole("cell").nth(2).innerText(), "Not recorded", "an upload in the studio keeps what reading it found");
    await checkA11y(page, "/studio/trees (an upload waiting)");
    await tree.getByRole("button", { name: `Publish ${title}` }).click();
    await page.getByRole("status").getByText(`Published “${title}”.`).waitFor();

    // The trees' queue on a phone: the demo tree among the published, with its button.
    await page.setViewportSize({ width: 390, height: 844 });
    await ctx.visit(page, "/studio/trees?state=published");
    await page.getByRole("link", { name: /^Published/, exact: false }).first().waitFor();
    await page.getByRole("button", { name: /^Unpublish / }).first().waitFor();
    await assertNoSidewaysScroll(page, "/studio/trees?state=published");

    const member = addUser("Mo Member");
    const other = await ctx.newPage();
    await signIn(ctx, other, member, "/");
    await ctx.visit(other, "/studio/records", { status: 403 });
    await other.getByText("The studio is for the society's editors and administrators.").first().waitFor();
    // A form sent straight to a screen's action is refused too, before any API call.
    const xsrf = decodeURIComponent((await other.context().cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "");
    const refused = await other.request.post("/studio/records", { form: { intent: "delete-mapping", name: "Parish registers", _token: xsrf } });
    assert.equal(refused.status(), 403);
  });
});
