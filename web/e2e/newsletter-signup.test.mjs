// Newsletter, the reader's side and the editor's: sign up in the footer of a
// phone-sized page, confirm from the mailed link, an editor composes an edition from
// the demo's `newsletter` document, previews it, sends a test and then the edition,
// which arrives with both parts and the RFC 8058 headers; the one-click unsubscribe
// POST works without any cookie; the preferences page from the mail's link; the
// archive and its feed; the sign-up without JavaScript and in a content page's slice.
// Chromium against the real binary, axe on every page visited.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, runLineage, setup, signIn, waitForHydration } from "./harness.mjs";
import { linkIn, readMails, waitForMail } from "./newsletter-mail.mjs";
import { publish } from "./draft.mjs";

const ctx = setup({ name: "newsletter-signup" });
const PHONE = { width: 390, height: 844 };

/** The demo account of `role` as start-up printed it (the lines may come just after /readyz): { email, password }. */
async function demoAccount(role) {
  const logs = ctx.server.logs;
  let head = -1;
  for (let i = 0; (head = logs.findIndex((l) => l.startsWith("Demo accounts (sign in at "))) < 0; i++) {
    assert.ok(i < 100, "start-up names the demo accounts");
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const line of logs.slice(head + 1)) {
    const m = /^ {2}(member|editor|admin) +(\S+@\S+) +(\S+)$/.exec(line);
    if (!m) break;
    if (m[1] === role) return { email: m[2], password: m[3] };
  }
  throw new Error(`no demo ${role} in the start-up log`);
}

/** Sends what is due now, as serve's scheduler would on its next tick. */
function runDue() {
  // The links in the mail are the server's: the command is told its public address, as serve is.
  runLineage(["newsletter", "run-due", "--data", ctx.server.dataDir], { env: { LINEAGE_DATABASE_URL: "", LINEAGE_PUBLIC_URL: ctx.server.url } });
}

/** Signs `email` up in the footer of `pagePath` (JavaScript on) and returns the confirmation link. */
async function footerSignUp(page, pagePath, email, lists) {
  await ctx.visit(page, pagePath);
  await waitForHydration(page);
  const form = page.locator("footer").getByRole("form", { name: "Get our newsletter" });
  // The light panel keeps its links dark inside the dark footer (they were once white on white).
  const colours = await form.getByRole("link", { name: "How we use your address" }).evaluate((a) => {
    const panel = a.closest("form").parentElement;
    return [getComputedStyle(a).color, getComputedStyle(panel).backgroundColor];
  });
  assert.notEqual(colours[0], colours[1], `the consent's link is visible on its panel (${colours.join(" on ")})`);
  await form.getByLabel("Your email").fill(email);
  for (const list of lists) await form.getByLabel(list).check();
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  await form.getByRole("button", { name: "Sign up" }).click();
  const done = page.locator("footer").getByRole("heading", { name: "Check your email to confirm" });
  await done.waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "signing up does not leave the page");
  await page.locator("footer").getByText(email).waitFor();
  const mail = await waitForMail(ctx.server.dataDir, email, (m) => m.text.includes("/newsletter/confirm?token="));
  const link = linkIn(mail.text, ctx.server.url, "/newsletter/confirm?token=");
  assert.ok(link, `a confirmation link in:\n${mail.text}`);
  return link;
}

describe("newsletter", () => {
  test("sign up in the footer on a phone, confirm, receive an edition an editor sends, unsubscribe in one click, then the preferences page", { timeout: 240_000 }, async () => {
    const email = `reader-${Date.now()}@example.org`;
    const page = await ctx.newPage({ viewport: PHONE });

    // Sign up in the footer of a page that hydrates: the form says "check your email" in place.
    const confirmLink = await footerSignUp(page, "/news", email, ["Society news"]);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the page with the footer's form does not scroll sideways at 390 px");
    await checkA11y(page, "/news (footer sign-up done)");
    // Nothing but the confirmation has been sent to the address.
    assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length, 1);

    // Opening the link does not confirm by itself (mail scanners open links): the button does.
    await ctx.visit(page, new URL(confirmLink).pathname + new URL(confirmLink).search);
    await page.getByRole("heading", { level: 1, name: "Confirm your newsletter sign-up" }).waitFor();
    await page.getByRole("button", { name: "Yes, sign me up" }).click();
    await page.getByRole("heading", { level: 1, name: "You are signed up" }).waitFor();
    await page.getByText(`We will send Society news to ${email}.`).waitFor();
    await checkA11y(page, "/newsletter/confirm (done)");
    // The link works once.
    ctx.expectProblem(page, { url: /\/newsletter\/confirm(\.data)?(\?|$)/, status: 422 }, "the test uses the confirmation link a second time");
    await ctx.visit(page, new URL(confirmLink).pathname + new URL(confirmLink).search);
    await page.getByRole("button", { name: "Yes, sign me up" }).click();
    await page.getByText("This confirmation link has expired or was already used.", { exact: false }).first().waitFor();
    await page.getByRole("link", { name: "Sign up again" }).waitFor();
    await checkA11y(page, "/newsletter/confirm (used link)");

    // An editor composes an edition from the demo's newsletter document.
    const editor = await ctx.newPage();
    await signIn(ctx, editor, await demoAccount("editor"), "/admin/newsletter");
    await ctx.visit(editor, "/admin/newsletter");
    const subject = `Winter news ${Date.now()}`;
    const create = editor.getByRole("form", { name: "New edition" });
    await create.getByLabel("Send to the subscribers of").selectOption({ label: "Society news" });
    await create.getByLabel("Made from the content document").selectOption({ value: "demo-newsletter" });
    await create.getByLabel("Subject line").fill(subject);
    await create.getByLabel("Upcoming events").uncheck();
    await create.getByRole("button", { name: "Create the edition" }).click();
    await editor.waitForURL((u) => /^\/admin\/newsletter\/\d+$/.test(u.pathname));
    await editor.getByRole("heading", { level: 1, name: subject }).waitFor();
    const editionPath = new URL(editor.url()).pathname;
    await ctx.visit(editor, editionPath);
    assert.equal(await editor.getByLabel("Upcoming events").isChecked(), false, "the section left out stays out");

    // The preview: the HTML as the email will look (in a frame), and the plain text.
    const frame = editor.frameLocator('iframe[title="Preview of the email"]');
    await frame.locator("body").waitFor();
    assert.ok((await frame.locator("body").innerText()).trim().length > 0, "the preview shows the email");
    await editor.getByText("The plain-text version").click();
    assert.ok((await editor.locator("pre").innerText()).trim().length > 0, "the plain text is shown");
    await checkA11y(editor, `${editionPath} (preview)`);

    // A test to the editor's own address.
    await editor.getByRole("button", { name: "Send a test to me" }).click();
    await editor.getByText(/A test copy is on its way/).waitFor();
    runDue();
    await waitForMail(ctx.server.dataDir, (await demoAccount("editor")).email, (m) => (m.headers.subject ?? "").includes(subject));

    // Send now: it asks to be sure first.
    ctx.expectProblem(editor, { url: new RegExp(`${editionPath}(\\.data)?(\\?|$)`), status: 422 }, "the test sends without ticking the confirmation first");
    await editor.getByRole("button", { name: "Send now" }).click();
    await editor.getByText("Tick the box to confirm that it should go to every subscriber now.").first().waitFor();
    await editor.getByLabel("Yes, send it to every subscriber of Society news now").check();
    await editor.getByRole("button", { name: "Send now" }).click();
    await editor.getByText(/^(Sending|Sent)$/).first().waitFor();
    runDue();

    // It arrives, with both parts and the list headers (RFC 8058).
    const mail = await waitForMail(ctx.server.dataDir, email, (m) => (m.headers.subject ?? "").includes(subject));
    assert.match(mail.headers["list-unsubscribe"] ?? "", /^<http[^>]+\/api\/newsletter\/one-click\?[^>]+>$/, "List-Unsubscribe names the one-click URL");
    assert.equal(mail.headers["list-unsubscribe-post"], "List-Unsubscribe=One-Click");
    assert.ok(mail.headers["list-id"], "List-Id");
    assert.ok(mail.html.includes("<"), "an HTML part");
    assert.ok(mail.text.trim().length > 0, "a plain-text part");
    const preferencesLink = linkIn(mail.text, ctx.server.url, "/newsletter/preferences?token=");
    assert.ok(preferencesLink, `the mail links the preferences page:\n${mail.text}`);

    // The editor follows the progress until everyone has it.
    await ctx.visit(editor, editionPath);
    await editor.getByText(/^\d+ of \d+ sent/).waitFor({ timeout: 30_000 });
    await editor.getByText("Sent", { exact: true }).waitFor({ timeout: 30_000 });
    await checkA11y(editor, `${editionPath} (sent)`);

    // The public archive lists it, with its feed; the edition's page shows it as mailed.
    const archive = await ctx.newPage({ viewport: PHONE });
    await ctx.visit(archive, "/newsletter");
    assert.equal(await archive.locator('head link[rel="alternate"][type="application/rss+xml"][href="/feeds/newsletter.xml"]').count(), 1);
    await archive.getByRole("link", { name: subject }).click();
    await archive.waitForURL((u) => /^\/newsletter\/\d+$/.test(u.pathname));
    await archive.getByRole("heading", { level: 1, name: subject }).waitFor();
    await archive.frameLocator("main iframe").locator("body").waitFor();
    await checkA11y(archive, "/newsletter/{id}");
    const feed = await fetch(ctx.server.at("/feeds/newsletter.xml"));
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get("content-type") ?? "", /application\/rss\+xml/);
    const xml = await feed.text();
    assert.ok(xml.includes(`<title>${subject}</title>`), "the feed has the edition");
    assert.ok(xml.includes(`${ctx.server.url}${new URL(archive.url()).pathname}`), "linked to its archive page");

    // One click: the POST of RFC 8058 to the header's URL, with no cookie and no token.
    const oneClick = mail.headers["list-unsubscribe"].slice(1, -1);
    const res = await fetch(oneClick, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    assert.equal(res.status, 200, `one-click POST: ${await res.clone().text()}`);

    // The preferences page (from the mail's link, no sign-in) shows it took effect.
    const prefs = await ctx.newPage({ viewport: PHONE });
    const prefsPath = new URL(preferencesLink).pathname + new URL(preferencesLink).search;
    await ctx.visit(prefs, prefsPath);
    await prefs.getByText(`For ${email}.`).waitFor();
    assert.equal(await prefs.getByLabel("Society news").isChecked(), false, "unsubscribed from Society news");
    // Choose another list, then leave everything.
    await prefs.getByLabel("Events digest").check();
    await prefs.getByRole("button", { name: "Save my choices" }).click();
    await prefs.getByText("Your choices have been saved.").waitFor();
    assert.equal(await prefs.getByLabel("Events digest").isChecked(), true);
    await checkA11y(prefs, "/newsletter/preferences (saved)");
    await prefs.getByRole("button", { name: "Unsubscribe from all newsletters" }).click();
    await prefs.getByText(`You have been unsubscribed. We will not send newsletters to ${email} any more.`).waitFor();
    assert.equal(await prefs.getByLabel("Events digest").isChecked(), false);
    await checkA11y(prefs, "/newsletter/preferences (unsubscribed)");

    // A second edition does not reach the address any more.
    const before = readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length;
    await ctx.visit(editor, "/admin/newsletter");
    const again = editor.getByRole("form", { name: "New edition" });
    await again.getByLabel("Send to the subscribers of").selectOption({ label: "Society news" });
    await again.getByLabel("Subject line").fill(`${subject} (second)`);
    await again.getByRole("button", { name: "Create the edition" }).click();
    await editor.waitForURL((u) => /^\/admin\/newsletter\/\d+$/.test(u.pathname) && u.pathname !== editionPath);
    // Scheduled for tomorrow morning (UK time), then called back to a draft.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await editor.getByLabel("Day").fill(tomorrow);
    await editor.getByLabel("Time").fill("09:30");
    await editor.getByRole("button", { name: "Schedule" }).click();
    await editor.getByText("The edition is scheduled.").waitFor();
    await editor.getByText("Scheduled", { exact: true }).waitFor();
    await editor.getByText(/to go on .* 09:30 \(UK time\)/).waitFor();
    await checkA11y(editor, "/admin/newsletter/{id} (scheduled)");
    await editor.getByRole("button", { name: "Do not send it then" }).click();
    await editor.getByText("The edition is no longer scheduled. It is a draft again.").waitFor();
    await editor.getByText("Draft", { exact: true }).waitFor();
    await editor.getByLabel("Yes, send it to every subscriber of Society news now").check();
    await editor.getByRole("button", { name: "Send now" }).click();
    await editor.getByText(/^(Sending|Sent)$/).first().waitFor();
    runDue();
    await ctx.visit(editor, new URL(editor.url()).pathname);
    await editor.getByText("Sent", { exact: true }).waitFor({ timeout: 30_000 });
    assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(email)).length, before, "nothing more after unsubscribing");
  });

  test("a member chooses their newsletters in the account area, members' list included, with no confirmation email", { timeout: 120_000 }, async () => {
    const member = await demoAccount("member");
    const page = await ctx.newPage({ viewport: PHONE });
    await signIn(ctx, page, member, "/user-account");
    await page.getByRole("link", { name: "Your newsletters" }).click();
    await page.waitForURL((u) => u.pathname === "/user-account/newsletter");
    await page.getByText(`We send them to ${member.email}`, { exact: false }).waitFor();
    await checkA11y(page, "/user-account/newsletter");
    const mailsBefore = readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(member.email)).length;
    await page.getByLabel("Members' newsletter (members only)").check();
    await page.getByLabel("Events digest").check();
    await page.getByRole("button", { name: "Save my choices" }).click();
    await page.getByText("Your newsletter choices have been saved.").waitFor();
    await checkA11y(page, "/user-account/newsletter (saved)");
    await ctx.visit(page, "/user-account/newsletter");
    assert.equal(await page.getByLabel("Members' newsletter (members only)").isChecked(), true, "kept");
    assert.equal(await page.getByLabel("Events digest").isChecked(), true, "kept");
    // Untick everything: no newsletters at all.
    await page.getByLabel("Members' newsletter (members only)").uncheck();
    await page.getByLabel("Events digest").uncheck();
    if (await page.getByLabel("Society news").isChecked()) await page.getByLabel("Society news").uncheck();
    await page.getByRole("button", { name: "Save my choices" }).click();
    await page.getByText("You will not get any of our newsletters.").waitFor();
    assert.equal(readMails(ctx.server.dataDir).filter((m) => (m.headers.to ?? "").includes(member.email)).length, mailsBefore, "no confirmation email for the account's own address");
  });

  test("an admin adds a list and renames it; a bad slug is refused at its field; editors may not see the lists page", { timeout: 120_000 }, async () => {
    const admin = await ctx.newPage();
    await signIn(ctx, admin, await demoAccount("admin"), "/admin/newsletter");
    await admin.getByRole("link", { name: "Lists and their subscribers" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/newsletter/lists");
    await admin.getByRole("cell", { name: "Society news (news)" }).waitFor();
    await checkA11y(admin, "/admin/newsletter/lists");

    ctx.expectProblem(admin, { url: /\/admin\/newsletter\/lists(\.data)?(\?|$)/, status: 422 }, "the test sends a bad slug first");
    const add = admin.getByRole("form", { name: "Add a list" });
    await add.getByLabel("Slug").fill("Family News!");
    await add.getByLabel("Name of the list").fill("Family news");
    await add.getByRole("button", { name: "Add the list" }).click();
    const slug = add.getByLabel("Slug");
    await admin.getByText("The slug must be 1 to 50 lower-case letters, digits and hyphens.").first().waitFor();
    assert.equal(await slug.getAttribute("aria-invalid"), "true");
    await checkA11y(admin, "/admin/newsletter/lists (error)");
    await slug.fill("family-news");
    await add.getByRole("button", { name: "Add the list" }).click();
    await admin.getByText("Added the list “Family news”.").waitFor();
    await admin.getByRole("cell", { name: "Family news (family-news)" }).waitFor();

    await admin.getByText("Change “Family news”").click();
    const change = admin.getByRole("form", { name: "Change the list “Family news”" });
    await change.getByLabel("Name of the list").fill("Family history news");
    await change.getByLabel("Who may subscribe").selectOption("members");
    await change.getByRole("button", { name: "Save “Family news”" }).click();
    await admin.getByText("Saved the list “Family history news”.").waitFor();
    await admin.getByRole("cell", { name: "Family history news (family-news)" }).waitFor();
    await admin.getByRole("cell", { name: "Members (scope “member”)" }).nth(1).waitFor();

    const editor = await ctx.newPage();
    await signIn(ctx, editor, await demoAccount("editor"), "/admin/newsletter");
    assert.equal(await editor.getByRole("link", { name: "Lists and their subscribers" }).count(), 0);
    await ctx.visit(editor, "/admin/newsletter/lists", { status: 404 });
  });

  test("without JavaScript the footer's form posts to the sign-up page, which shows errors next to their fields, then the result", { timeout: 120_000 }, async () => {
    const page = await ctx.newPage({ viewport: PHONE, javaScriptEnabled: false });
    ctx.expectProblem(page, { url: ctx.server.at("/newsletter/subscribe"), status: 422 }, "the test posts a bad address and no list first");
    await ctx.visit(page, "/news");
    const footer = page.locator("footer");
    await footer.getByLabel("Your email").fill("not an address");
    await footer.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL((u) => u.pathname === "/newsletter/subscribe");
    assert.equal(page.url(), ctx.server.at("/newsletter/subscribe"));
    const main = page.locator("main");
    const email = main.getByLabel("Your email");
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    assert.ok(describedBy, "the address's error is tied to it");
    assert.ok((await page.locator(`[id="${describedBy.split(" ").pop()}"]`).innerText()).includes("Error:"), "the error is next to the field");
    await main.getByText("Choose at least one list.").waitFor();
    await checkA11y(page, "/newsletter/subscribe (errors, no JavaScript)");

    const address = `nojs-${Date.now()}@example.org`;
    await email.fill(address);
    await main.getByLabel("Events digest").check();
    await main.getByRole("button", { name: "Sign up" }).click();
    await main.getByRole("heading", { name: "Check your email to confirm" }).waitFor();
    await main.getByText(address).waitFor();
    await checkA11y(page, "/newsletter/subscribe (done, no JavaScript)");
    const mail = await waitForMail(ctx.server.dataDir, address, (m) => m.text.includes("/newsletter/confirm?token="));
    assert.ok(mail);
  });

  test("on the home page, served without scripts, the footer's form posts to the sign-up page and signs up", { timeout: 120_000 }, async () => {
    const page = await ctx.newPage({ viewport: PHONE });
    await ctx.visit(page, "/");
    const address = `home-${Date.now()}@example.org`;
    const footer = page.locator("footer");
    await footer.getByLabel("Your email").fill(address);
    await footer.getByLabel("Society news").check();
    await footer.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL((u) => u.pathname === "/newsletter/subscribe");
    const main = page.locator("main");
    await main.getByRole("heading", { name: "Check your email to confirm" }).waitFor();
    await main.getByText(address).waitFor();
    await checkA11y(page, "/newsletter/subscribe (done, from the home page)");
    assert.ok(await waitForMail(ctx.server.dataDir, address, (m) => m.text.includes("/newsletter/confirm?token=")));
  });

  test("a content page's newsletter_signup slice signs up from that page", { timeout: 120_000 }, async () => {
    const doc = {
      id: "NewsletterE2ePage1",
      uid: "newsletter-e2e",
      type: "page",
      lang: "en-gb",
      tags: [],
      first_publication_date: "2026-11-01T09:00:00+0000",
      last_publication_date: "2026-11-01T09:00:00+0000",
      alternate_languages: [],
      data: {
        title: [{ type: "heading1", text: "Stay in touch", spans: [] }],
        description: "Our newsletters.",
        parent: { link_type: "Any" },
        body: [
          {
            slice_type: "newsletter_signup",
            slice_label: null,
            id: "newsletter_signup$e2e",
            variation: "default",
            version: "initial",
            primary: { title: "Hear about new indexes", text: [{ type: "paragraph", text: "One email a month.", spans: [] }] },
            items: [],
          },
        ],
      },
    };
    publish(ctx.server.dataDir, doc);
    const page = await ctx.newPage({ viewport: PHONE });
    // The page cache may hold the catch-all's 404 from before the import for a moment.
    for (let i = 0; ; i++) {
      const res = await fetch(ctx.server.at("/newsletter-e2e"));
      if (res.status === 200) break;
      assert.ok(i < 40, "the imported page is served");
      await new Promise((r) => setTimeout(r, 250));
    }
    await ctx.visit(page, "/newsletter-e2e");
    await waitForHydration(page);
    const form = page.locator("main").getByRole("form", { name: "Hear about new indexes" });
    await page.locator("main").getByText("One email a month.").waitFor();
    // By keyboard alone: type, Tab to the first list, Space ticks it, Tab on to the button, Enter.
    const address = `slice-${Date.now()}@example.org`;
    await form.getByLabel("Your email").focus();
    await page.keyboard.type(address);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    assert.equal(await form.getByLabel("Society news").isChecked(), true);
    for (let i = 0; i < 5 && !(await form.getByRole("button", { name: "Sign up" }).evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await page.locator("main").getByRole("heading", { name: "Check your email to confirm" }).waitFor();
    // The message takes the focus the vanished button had.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.includes("Check your email to confirm")), true, "focus on the message");
    await checkA11y(page, "/newsletter-e2e (slice sign-up done)");
    await waitForMail(ctx.server.dataDir, address, (m) => m.text.includes("/newsletter/confirm?token="));
  });
});
