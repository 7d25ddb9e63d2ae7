// The studio's content editor in a real browser against the real binary: who may open
// it; an admin changes a model; an editor writes a news item with a hero section and a
// picture they upload, previews it, schedules it a few seconds ahead in a release and
// sees it appear on /news when the release is published; messages at their fields and
// conflicts; releases, copies, the archive and the picture library; changes kept in the
// browser when a save fails or the session ended, restored after signing in again; the
// editor worked by keyboard alone; axe on every page, at 1366 and 390 px.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import zlib from "node:zlib";
import { checkA11y, freePort, setup, signIn, waitForHydration } from "./harness.mjs";
import { demoAccounts } from "./events-helpers.mjs";

// A site built on Prismic's tooling, told of every publication by the webhook.
const hookPort = await freePort();
const hookBodies = [];
const hooks = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    hookBodies.push({ path: req.url, body: JSON.parse(body) });
    res.end("ok");
  });
});
await new Promise((resolve) => hooks.listen(hookPort, "127.0.0.1", resolve));
after(() => hooks.close());

const ctx = setup({ name: "studio-content", env: { LINEAGE_CONTENT_WEBHOOK_URL: `http://127.0.0.1:${hookPort}/prismic-hook` } });
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A PNG of one colour, width × height (a real image the server decodes and resizes). */
function png(width, height, [r, g, b]) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

async function saved(page) {
  await page.getByRole("status").filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 20_000 });
}

/** Starts a new document of `kind` from the content list; returns the editor's path. */
async function startDocument(page, kind = "News item") {
  await ctx.visit(page, "/studio/content");
  await waitForHydration(page);
  await page.getByLabel("Kind of document").selectOption({ label: kind });
  await page.getByRole("button", { name: "Start writing" }).click();
  await page.waitForURL((u) => /^\/studio\/content\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith("/lookup"));
  await page.getByRole("heading", { level: 1 }).waitFor();
  await waitForHydration(page);
  return new URL(page.url()).pathname;
}

describe("studio content", () => {
  test("the studio is for editors and admins: signed-out visitors go to sign-in, members are not allowed", { timeout: 120_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await ctx.visit(page, "/studio/content");
    assert.equal(new URL(page.url()).pathname, "/sign-in");
    assert.equal(new URL(page.url()).searchParams.get("redirect"), "/studio/content");

    await signIn(ctx, page, accounts.member, "/user-account");
    await ctx.visit(page, "/studio", { status: 403 });
    await page.getByRole("heading", { level: 1, name: "You are not allowed to use the studio" }).waitFor();
    assert.equal(await page.getByRole("navigation", { name: "Studio" }).count(), 0, "no studio navigation for a member");
    // A form sent straight to a studio screen's action is refused.
    const posted = await page.context().request.post("/studio/content", { form: { type: "news_item" }, maxRedirects: 0 });
    assert.equal(posted.status(), 403, "a member cannot start a document");
    // A screen under the studio says the same, whatever its own loader met.
    await ctx.visit(page, "/studio/content", { status: 403 });
    await page.getByRole("heading", { level: 1, name: "You are not allowed to use the studio" }).waitFor();

    const editor = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, editor, accounts.editor, "/studio");
    await editor.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Content" }).waitFor();
    await checkA11y(editor, "/studio");
    assert.equal(await editor.getByRole("link", { name: "Document types" }).count(), 0, "editors do not change the models");
    await ctx.visit(editor, "/studio/models", { status: 403 });
    await ctx.visit(editor, "/studio/webhooks", { status: 403 });

    // An admin relabels a field of the news item's model; the editor's form says the new words.
    const admin = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, admin, accounts.admin, "/studio");
    await admin.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Document types" }).click();
    await admin.getByRole("link", { name: "News item" }).click();
    await admin.getByRole("heading", { level: 1, name: "News item" }).waitFor();
    await checkA11y(admin, "/studio/models/news_item");
    const box = admin.getByLabel("The model (Prismic custom-type JSON)");
    ctx.expectProblem(admin, { url: /\/studio\/models\/news_item(\.data)?(\?|$)/, status: 422 }, "the test saves a model that is not JSON");
    await box.fill("{ not json");
    await admin.getByRole("button", { name: "Save the model" }).click();
    await admin.getByText(/^That is not valid JSON/).waitFor();
    await ctx.visit(admin, "/studio/models/news_item");
    const model = JSON.parse(await box.inputValue());
    model.json.Main.summary.config.label = "Short summary for lists";
    await box.fill(JSON.stringify(model, null, 2));
    await admin.getByRole("button", { name: "Save the model" }).click();
    await admin.getByText("Saved. The editor uses it from now on.").waitFor();
    await admin.getByRole("button", { name: "Use the shipped model again" }).waitFor();
    const path = await startDocument(editor);
    await editor.getByRole("group", { name: "Short summary for lists" }).waitFor();
    await admin.getByRole("button", { name: "Use the shipped model again" }).click();
    await admin.getByText("This is the model shipped with Lineage.").waitFor();
    await ctx.visit(editor, path);
    assert.equal(await editor.getByRole("group", { name: "Short summary for lists" }).count(), 0, "the shipped model is back");
  });

  test("an editor writes a news item with a hero section and a picture, previews it, schedules it and sees it on /news", { timeout: 240_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, page, accounts.editor, "/studio/content");
    await checkA11y(page, "/studio/content");
    const editorPath = await startDocument(page);
    await checkA11y(page, `${editorPath} (new)`);

    const stamp = String(Date.now());
    const title = `Open day at the library ${stamp}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("button", { name: /^Make it from the title/ }).click();
    await page.getByText("This address is free.").waitFor();
    await page.getByLabel("Date", { exact: true }).fill("2026-11-26");
    // The summary: one paragraph with a bold word.
    await page.getByRole("button", { name: "Add the block" }).first().click();
    const summary = page.getByLabel("Text of block 1").first();
    await summary.fill("Come and see the reading room on Saturday.");
    await summary.evaluate((el) => el.setSelectionRange(0, 4));
    await page.getByRole("toolbar", { name: "Formatting of block 1" }).first().getByRole("button", { name: "Bold" }).click();
    await page.getByRole("list", { name: "Formatting in block 1" }).first().getByText("Bold: “Come”").waitFor();

    // A hero section with a picture uploaded from this computer.
    await page.getByLabel("Kind of new section").selectOption({ label: "Hero" });
    await page.getByRole("button", { name: "Add the section" }).click();
    const hero = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Section 1: Hero" }) });
    await hero.getByLabel("Heading").fill("Welcome to the library");
    await hero.getByRole("button", { name: "Choose a picture" }).click();
    await hero.getByText("Upload a new picture").click();
    await hero.getByLabel("Picture", { exact: true }).setInputFiles({ name: "reading-room.png", mimeType: "image/png", buffer: png(800, 500, [40, 90, 160]) });
    await hero.getByLabel("Description (alt text)").fill("The reading room with its long tables");
    await hero.getByRole("button", { name: "Upload the picture" }).click();
    await hero.getByRole("img", { name: "The reading room with its long tables" }).waitFor();
    assert.equal(await hero.getByLabel("Description (alt text)").inputValue(), "The reading room with its long tables");
    await saved(page);
    await checkA11y(page, `${editorPath} (filled in)`);

    // The same editor at phone width: axe-clean, no sideways scrolling.
    const phone = await ctx.newPage({ viewport: PHONE });
    await signIn(ctx, phone, accounts.editor, editorPath);
    await phone.getByLabel("Title", { exact: true }).waitFor();
    assert.equal(await phone.getByLabel("Title", { exact: true }).inputValue(), title, "the saved title is there on another device");
    await checkA11y(phone, `${editorPath} (390 px)`);
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the editor does not scroll sideways at 390 px");

    // The content list finds it by its words, among drafts and not among published documents.
    await ctx.visit(phone, "/studio/content");
    await phone.getByLabel("Words").fill(`library ${stamp}`);
    await phone.getByLabel("Status").selectOption({ label: "Draft" });
    await phone.getByLabel("Written or changed by").selectOption({ label: "Me" });
    await phone.getByRole("button", { name: "Show", exact: true }).click();
    await phone.getByRole("link", { name: title }).waitFor();
    await phone.getByRole("status").filter({ hasText: /^1 document\.$/ }).waitFor();
    await checkA11y(phone, "/studio/content (search, 390 px)");
    await ctx.visit(phone, `/studio/content?q=${encodeURIComponent(stamp)}&status=published`);
    assert.equal(await phone.getByRole("link", { name: title }).count(), 0, "a draft is not among published documents");

    // Preview in a new tab: the real news page, before it is published.
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const link = page.getByRole("link", { name: "Open the preview in a new tab" });
    await link.waitFor();
    const [preview] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
    await preview.waitForLoadState("load");
    await preview.getByRole("heading", { level: 1, name: title }).waitFor();
    await preview.getByRole("img", { name: "The reading room with its long tables" }).first().waitFor();
    await preview.close();
    // …and beside the form.
    await page.getByRole("button", { name: "Show the preview here" }).click();
    await page.frameLocator('iframe[title="Preview of the page"]').getByRole("heading", { level: 1, name: title }).waitFor();
    await checkA11y(page, `${editorPath} (preview beside the form)`);
    await page.getByRole("button", { name: "Hide the preview" }).click();

    // Not on the site yet.
    const reader = await ctx.newPage({ viewport: DESKTOP });
    await ctx.visit(reader, "/news");
    assert.equal(await reader.getByText(title).count(), 0, "a draft is not on /news");

    // Scheduled a few seconds ahead in a new release.
    const at = new Date(Date.now() + 8_000);
    const pad = (n) => String(n).padStart(2, "0");
    const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
    await page.getByLabel("Name of the release").fill("Open day news");
    await page.getByLabel("Publish on (date and time)").fill(local);
    await page.getByRole("button", { name: "Make the release and add this document" }).click();
    await page.getByText("Added to the release.").waitFor();
    await page.getByText(/^In “Open day news”, to be published on/).waitFor();

    // The release publishes it; /news shows it once it has.
    let seen = false;
    for (let i = 0; i < 60 && !seen; i++) {
      await ctx.visit(reader, "/news", { a11y: false });
      seen = (await reader.getByRole("link", { name: title }).count()) > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 1_000));
    }
    assert.ok(seen, "the news item appears on /news once its release is published");
    assert.ok(Date.now() >= at.getTime() - 1_000, "not before the time it was scheduled for");
    await checkA11y(reader, "/news (with the new item)");
    await reader.getByRole("link", { name: title }).click();
    await reader.getByRole("heading", { level: 1, name: title }).waitFor();
    await reader.getByRole("heading", { name: "Welcome to the library" }).waitFor();

    // The site built on Prismic's tooling heard of it, in Prismic's body.
    const docId = editorPath.split("/").pop();
    for (let i = 0; i < 100 && !hookBodies.some((h) => h.body.documents?.includes(docId)); i++) await new Promise((r) => setTimeout(r, 200));
    const hook = hookBodies.find((h) => h.body.documents?.includes(docId));
    assert.ok(hook, `a webhook names the published document (got ${JSON.stringify(hookBodies)})`);
    assert.equal(hook.path, "/prismic-hook");
    assert.equal(hook.body.type, "api-update");
    assert.equal(typeof hook.body.masterRef, "string");

    // An admin sees the delivery and sends a test.
    const admin = await ctx.newPage({ viewport: PHONE });
    await signIn(ctx, admin, accounts.admin, "/studio/webhooks");
    await admin.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    await admin.getByText(`http://127.0.0.1:${hookPort}/prismic-hook`, { exact: true }).first().waitFor();
    await admin.getByRole("cell", { name: "Delivered" }).first().waitFor();
    await checkA11y(admin, "/studio/webhooks (390 px)");
    const before = hookBodies.length;
    await admin.getByRole("button", { name: "Send a test" }).click();
    await admin.getByText("A test is on its way.").waitFor();
    for (let i = 0; i < 100 && hookBodies.length === before; i++) await new Promise((r) => setTimeout(r, 200));
    assert.ok(hookBodies.length > before, "the test arrived");

    // The editor now links the page on the site.
    await ctx.visit(page, editorPath);
    assert.equal(new URL(await page.getByRole("link", { name: "See it on the site" }).getAttribute("href"), ctx.server.url).pathname, new URL(reader.url()).pathname);

    // The history lists who published it.
    await ctx.visit(page, `${editorPath}/history`);
    await page.getByRole("link", { name: /^Published,/ }).first().waitFor();
  });

  test("the API's messages appear next to their fields; a second editor's save is caught as a conflict", { timeout: 180_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, page, accounts.editor, "/studio/content");
    const editorPath = await startDocument(page);
    await page.getByLabel("Title", { exact: true }).fill("Checked by the server");
    await saved(page);

    // Publishing without the date the model requires: refused, the message at the date.
    ctx.expectProblem(page, { url: new RegExp(`${editorPath}(\\.data)?(\\?|$)`), status: 422 }, "the test publishes and saves what the API refuses");
    await page.getByRole("button", { name: "Publish now" }).click();
    const dateField = page.getByLabel("Date", { exact: true });
    await page.locator(`#${await dateField.getAttribute("id")}-error`).waitFor();
    assert.equal(await dateField.getAttribute("aria-invalid"), "true", "the date is marked");
    await page.getByRole("alert").filter({ hasText: "There is a problem" }).waitFor();
    // Focus moves to the list of problems after a refused publish.
    await page.waitForFunction(() => document.activeElement?.hasAttribute("data-error-summary"));
    await checkA11y(page, `${editorPath} (publish refused)`);

    // An address that is not allowed: the check says so as one types, and saving is refused at the field.
    await page.getByLabel(/^Address/).fill("Not An Address!");
    await page.getByText("This address cannot be used.", { exact: false }).or(page.locator('[id="doc-uid-check"]').filter({ hasText: /./ })).first().waitFor();
    await page.getByRole("status").filter({ hasText: /^Not saved: please correct the problems/ }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByLabel(/^Address/).getAttribute("aria-invalid"), "true");
    await page.getByLabel(/^Address/).fill(`checked-${Date.now()}`);
    await page.getByLabel("Date", { exact: true }).fill("2026-11-26");
    await saved(page);

    // Two editors on the same document: the second one's save meets the first one's.
    const other = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, other, accounts.admin, editorPath);
    await other.getByLabel("Title", { exact: true }).waitFor();
    await waitForHydration(other);
    await other.getByLabel("Title", { exact: true }).fill("Changed by the admin");
    await saved(other);
    ctx.expectProblem(page, { url: new RegExp(`${editorPath}(\\.data)?(\\?|$)`), status: 409 }, "the test saves over another editor's save");
    await page.getByLabel("Title", { exact: true }).fill("Changed by the editor");
    await page.getByRole("heading", { name: "Someone else saved this document" }).waitFor({ timeout: 20_000 });
    await checkA11y(page, `${editorPath} (conflict)`);
    await page.getByRole("button", { name: "Keep my version and save it" }).click();
    await saved(page);
    await ctx.visit(other, editorPath);
    assert.equal(await other.getByLabel("Title", { exact: true }).inputValue(), "Changed by the editor", "the kept version was saved");

    // Its history lists both editors' saves; the releases and pictures screens at both widths.
    await ctx.visit(page, `${editorPath}/history`);
    const versions = page.getByRole("link", { name: /^Saved draft,/ });
    const count = await versions.count();
    assert.ok(count >= 2, `both editors' saves are in the history (${count})`);
    // The admin's version, restored: it becomes the draft again.
    let found = false;
    const hrefs = await versions.evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    for (const href of hrefs) {
      const u = new URL(href, `${ctx.server.url}${editorPath}/history`);
      await ctx.visit(page, u.pathname + u.search, { a11y: false });
      await page.getByRole("button", { name: "Restore this version" }).waitFor();
      if ((await page.getByRole("definition").filter({ hasText: /^Changed by the admin$/ }).count()) > 0) {
        found = true;
        break;
      }
    }
    assert.ok(found, "the admin's version is listed");
    await checkA11y(page, `${editorPath}/history (a version)`);
    await page.getByRole("button", { name: "Restore this version" }).click();
    await page.waitForURL((u) => u.pathname === editorPath);
    await page.getByLabel("Title", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Changed by the admin", "the restored version is the draft");

    // Publish straight after typing, before autosave's moment: what was typed is published and editing goes on.
    await waitForHydration(page);
    await page.getByLabel("Title", { exact: true }).fill("Published straight away");
    await page.getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Published. It is on the site now.").waitFor();
    await page.getByLabel("Title", { exact: true }).fill("Published straight away, then changed");
    await saved(page);
    assert.equal(await page.getByRole("heading", { name: "Someone else saved this document" }).count(), 0);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const p of ["/studio", "/studio/content", "/studio/releases", "/studio/media"]) {
        await ctx.visit(page, p);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${p} does not scroll sideways at ${viewport.width} px`);
      }
    }
  });

  test("a release published by hand with its preview, a copy, the archive, and the picture library", { timeout: 180_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, page, accounts.editor, "/studio/content");
    const editorPath = await startDocument(page);
    const title = `Library talk ${Date.now()}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("button", { name: /^Make it from the title/ }).click();
    await page.getByLabel("Date", { exact: true }).fill("2026-11-27");
    // A text section whose blocks are a heading, a numbered item and a picture from the library.
    await page.getByLabel("Kind of new section").selectOption({ label: "Text" });
    await page.getByRole("button", { name: "Add the section" }).click();
    const section = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Section 1: Text" }) });
    const kind = section.getByLabel("New block in text");
    for (const [label, text] of [["Heading", "About the talk"], ["Numbered list item", "Arrive by seven"]]) {
      await kind.selectOption({ label });
      await section.getByRole("button", { name: "Add the block" }).click();
    }
    await section.getByLabel("Text of block 1").fill("About the talk");
    await section.getByLabel("Text of block 2").fill("Arrive by seven");
    await kind.selectOption({ label: "Picture" });
    await section.getByRole("button", { name: "Add the block" }).click();
    await section.getByRole("button", { name: "Choose a picture" }).click();
    await section.getByText("Upload a new picture").click();
    await section.getByLabel("Picture", { exact: true }).setInputFiles({ name: "speaker.png", mimeType: "image/png", buffer: png(600, 400, [150, 60, 30]) });
    await section.getByLabel("Description (alt text)").fill("The speaker at the lectern");
    await section.getByRole("button", { name: "Upload the picture" }).click();
    await section.getByRole("img", { name: "The speaker at the lectern" }).waitFor();
    await saved(page);

    // A release without a time: previewed, then published by hand.
    await page.getByLabel("Name of the release").fill(`Talks ${title}`);
    await page.getByRole("button", { name: "Make the release and add this document" }).click();
    await page.getByText(/not scheduled yet/).waitFor();
    await page.getByRole("link", { name: `“Talks ${title}”` }).click();
    await page.getByRole("heading", { level: 1, name: `Talks ${title}` }).waitFor();
    await checkA11y(page, "/studio/releases/:id");
    await page.getByRole("button", { name: "Preview the site with this release" }).click();
    const link = page.getByRole("link", { name: "Open the preview in a new tab" });
    await link.waitFor();
    const [preview] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
    await preview.waitForLoadState("load");
    await preview.getByRole("heading", { level: 1, name: title }).waitFor();
    await preview.getByRole("img", { name: "The speaker at the lectern" }).waitFor();
    await preview.close();
    await page.getByRole("button", { name: "Publish it now" }).click();
    await page.getByText("Published. Its documents are on the site now.").waitFor();
    const reader = await ctx.newPage({ viewport: PHONE });
    await ctx.visit(reader, "/news");
    await reader.getByRole("link", { name: title }).click();
    await reader.getByRole("heading", { name: "About the talk" }).waitFor();
    await reader.getByRole("img", { name: "The speaker at the lectern" }).waitFor();

    // A copy opens as a draft of its own; the original goes to the archive and off the site.
    await ctx.visit(page, editorPath);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Make a copy" }).click();
    await page.waitForURL((u) => u.pathname !== editorPath && u.pathname.startsWith("/studio/content/"));
    assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), title, "the copy has the same title");
    // The address changes a moment before React draws the copy: the copy is a draft once it is drawn.
    await page.locator("main h1 + p strong", { hasText: "Draft" }).first().waitFor({ timeout: 10_000 });
    await ctx.visit(page, editorPath);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Archive it" }).click();
    await page.getByText("Archived.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Bring it back from the archive" }).waitFor();
    await ctx.visit(page, `/studio/content?status=archived&q=${encodeURIComponent(title)}`);
    await page.getByRole("link", { name: title }).waitFor();

    // A release made on the releases page, left empty, then deleted.
    await ctx.visit(page, "/studio/releases");
    await page.getByLabel("Name", { exact: true }).fill(`Spare ${title}`);
    await page.getByRole("button", { name: "Make the release" }).click();
    await page.getByRole("heading", { level: 1, name: `Spare ${title}` }).waitFor();
    await page.getByText("No documents yet.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Delete the release" }).click();
    await page.waitForURL((u) => u.pathname === "/studio/releases");
    assert.equal(await page.getByRole("link", { name: `Spare ${title}` }).count(), 0, "the deleted release is gone");
    await page.getByRole("link", { name: `Talks ${title}` }).waitFor();

    // The picture library: both uploads are there; a description corrected.
    await ctx.visit(page, "/studio/media?q=lectern");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("img", { name: "The speaker at the lectern" }) });
    await card.getByLabel("Description (alt text)").fill("The speaker at the lectern, smiling");
    await card.getByRole("button", { name: /^Save/ }).click();
    await card.getByText("Saved.").waitFor();
    await ctx.visit(page, "/studio/media");
    await page.getByRole("img", { name: "The speaker at the lectern, smiling" }).waitFor();
    await checkA11y(page, "/studio/media (pictures)");
  });

  test("changes are kept in the browser when a save gets no answer or the session has ended, and restored after signing in again", { timeout: 180_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, page, accounts.editor, "/studio/content");
    const editorPath = await startDocument(page);
    await page.getByLabel("Title", { exact: true }).fill("Kept on this computer");
    await saved(page);

    // A save that gets no answer: said so, kept, and saved when tried again.
    const saves = new RegExp(`${editorPath}\\.data`);
    ctx.expectProblem(page, { url: saves, failed: true }, "the test cuts the network under a save");
    await page.route(saves, (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
    await page.getByLabel("Title", { exact: true }).fill("Kept on this computer while offline");
    await page.getByRole("status").filter({ hasText: /^Not saved: the server did not answer/ }).waitFor({ timeout: 20_000 });
    assert.ok((await page.evaluate((k) => localStorage.getItem(k), `lineage.studio.draft.${editorPath.split("/").pop()}`))?.includes("while offline"), "the change is kept in the browser");
    await page.unroute(saves);
    await page.getByRole("button", { name: "Try saving again" }).click();
    await saved(page);

    // The session ends (signed out elsewhere): the next autosave cannot reach the API as them.
    await page.context().clearCookies();
    await page.getByLabel("Title", { exact: true }).fill("Kept on this computer, and changed");
    await page.waitForURL((u) => u.pathname === "/sign-in", { timeout: 20_000 });
    assert.equal(new URL(page.url()).searchParams.get("redirect"), editorPath);

    await page.getByLabel("Email address").fill(accounts.editor.email);
    await page.getByLabel("Password", { exact: true }).fill(accounts.editor.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === editorPath);
    await page.getByRole("heading", { name: "Changes you made were not saved" }).waitFor();
    assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Kept on this computer while offline", "the server's version until restored");
    await checkA11y(page, `${editorPath} (changes kept)`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Restore my changes" }).click();
    assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Kept on this computer, and changed");
    await saved(page);
    await page.reload();
    await page.getByLabel("Title", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), "Kept on this computer, and changed", "the restored changes were saved");
    assert.equal(await page.getByRole("heading", { name: "Changes you made were not saved" }).count(), 0, "nothing left to restore");
  });

  test("the editor by keyboard alone: a block with bold text, a section added, moved and removed", { timeout: 120_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage({ viewport: DESKTOP });
    await signIn(ctx, page, accounts.editor, "/studio/content");
    await startDocument(page);

    await page.getByLabel("Title", { exact: true }).focus();
    await page.keyboard.type("Written with the keyboard");
    // To the summary's "Add the block" button with Tab, then Enter.
    const add = page.getByRole("button", { name: "Add the block" }).first();
    for (let i = 0; i < 40 && !(await add.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    assert.ok(await add.evaluate((el) => el === document.activeElement), "Tab reaches “Add the block”");
    await page.keyboard.press("Enter");
    const text = page.getByLabel("Text of block 1").first();
    await text.focus();
    await page.keyboard.type("Bold words then plain");
    await page.keyboard.press("Home");
    for (let i = 0; i < 10; i++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Control+b");
    await page.getByRole("list", { name: "Formatting in block 1" }).first().getByText("Bold: “Bold words”").waitFor();
    // A link over "plain", to a web address: Ctrl+K, then the chooser by keyboard.
    await text.focus();
    await page.keyboard.press("End");
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowLeft");
    await page.keyboard.press("Control+k");
    const chooser = page.getByRole("group", { name: "Link over “plain”" });
    await chooser.getByLabel("A web address").focus();
    await page.keyboard.press("Space");
    await chooser.getByRole("textbox", { name: "Web address" }).focus();
    await page.keyboard.type("https://example.org/open-day");
    await chooser.getByRole("button", { name: "Add the link" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("list", { name: "Formatting in block 1" }).first().getByText("Link: “plain” → https://example.org/open-day").waitFor();

    // Two sections, by keyboard: choose the kind, add, then move the second up and remove it.
    const kind = page.getByLabel("Kind of new section");
    await kind.focus();
    assert.equal(await kind.inputValue(), "rich_text", "the first kind offered is text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Section 1: Text" }).waitFor();
    await kind.focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    assert.equal(await kind.inputValue(), "gallery", "arrow keys choose the kind");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Section 2: Gallery" }).waitFor();
    await page.getByRole("button", { name: "Move section 2 (Gallery) up" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Section 1: Gallery" }).waitFor();
    await page.getByRole("button", { name: "Remove section 1 (Gallery)" }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("heading", { name: "Section 1: Text" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: /Gallery/ }).count(), 0);
    // A video section, and an embed in the text section's blocks.
    await kind.focus();
    assert.equal(await kind.inputValue(), "gallery", "the kind chosen last stays chosen");
    await page.keyboard.press("ArrowDown");
    assert.equal(await kind.inputValue(), "video");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Section 2: Video" }).waitFor();
    await page.getByLabel("Video address").focus();
    await page.keyboard.type("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    const textSection = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Section 1: Text" }) });
    await textSection.getByLabel("New block in text").selectOption({ label: "Video or other embed" });
    await textSection.getByRole("button", { name: "Add the block" }).click();
    await textSection.getByLabel("Address of the video or page to embed (block 1)").fill("https://vimeo.com/76979871");
    await saved(page);
    await checkA11y(page, "editor (keyboard)");
  });
});
