// Members: registration with the mailed link, sign-in and sign-out, page
// access levels enforced on the server, the bookmark toggle and the account area —
// in Chromium against the real binary, with axe on every page visited.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { bookmarkThisPage, checkA11y, runLineage, setup, waitForHydration } from "./harness.mjs";
import { newsNewestFirst, titleOf } from "./demo.mjs";
import { mailedLink } from "./mail.mjs";

const ctx = setup({ name: "members" });
const [newsItem] = newsNewestFirst();
const NEWS_PATH = `/news/${newsItem.uid}`;
const NEWS_TITLE = titleOf(newsItem);
const PASSWORD = "correct horse battery";

let userCount = 0;
/** A verified member made with `lineage user add` while the server runs. */
function addMember(name = "Ada Lovelace") {
  const email = `member${++userCount}-${Date.now()}@example.org`;
  runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", PASSWORD, "--name", name], {
    env: { LINEAGE_DATABASE_URL: "" },
  });
  return { email, name };
}

function pathOf(page) {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Signs in on the sign-in page the browser is on. */
async function fillSignIn(page, email, password = PASSWORD) {
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function signIn(page, email, wanted = "/") {
  await ctx.visit(page, wanted === "/" ? "/sign-in" : `/sign-in?redirect=${encodeURIComponent(wanted)}`);
  await fillSignIn(page, email);
  await page.waitForURL((u) => u.pathname + u.search === wanted);
}

describe("registration and the account area", () => {
  test("register, follow the mailed link, sign in, bookmark a news item, see it in the account area, sign out", { timeout: 120_000 }, async () => {
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/sign-in\.data(\?|$)/, status: 422 }, "the test signs in before the email address is verified");
    const email = `grace-${Date.now()}@example.org`;

    // Register.
    await ctx.visit(page, "/register");
    await waitForHydration(page);
    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Type the password again").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { level: 1, name: "Check your email" }).waitFor();
    await page.getByText("Thanks for registering. We have emailed you a link to verify your email address.").waitFor();
    await checkA11y(page, "/register (done)");

    // Not verified yet: sign-in says so and offers the link again.
    await ctx.visit(page, "/sign-in");
    await fillSignIn(page, email);
    await page.getByText("Your email address is not verified.").first().waitFor();
    await page.getByRole("button", { name: "Send the link again" }).waitFor();
    await checkA11y(page, "/sign-in (not verified)");

    // Follow the mailed link.
    const link = await mailedLink(ctx.server, email, "/verify-email?token=");
    await ctx.visit(page, link);
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await page.getByRole("heading", { level: 1, name: "Email address confirmed" }).waitFor();
    await page.getByText("Your email address is verified.").waitFor();
    await checkA11y(page, "/verify-email (done)");

    // Sign in; the address is filled in from the confirmation.
    await page.getByRole("link", { name: "Sign in", exact: true }).last().click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    assert.equal(await page.getByLabel("Email address").inputValue(), email);
    await checkA11y(page, "/sign-in?email=…");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    const header = page.locator("header");
    await header.getByText("Your account").waitFor();
    await checkA11y(page, "/ (signed in)");

    // Bookmark a news item (with JavaScript: a fetcher, no page load).
    await ctx.visit(page, NEWS_PATH);
    await waitForHydration(page);
    await page.evaluate(() => {
      window.__sameDocument = true;
    });
    await bookmarkThisPage(page);
    await page.getByText("In your bookmarks").waitFor();
    assert.equal(await page.evaluate(() => window.__sameDocument), true, "bookmarking does not reload the page");
    await checkA11y(page, `${NEWS_PATH} (bookmarked)`);

    // The account area lists it.
    await header.getByText("Your account").click();
    await header.getByRole("link", { name: "Bookmarks" }).click();
    await page.waitForURL((u) => u.pathname === "/user-account");
    const bookmarks = page.locator("#bookmarks");
    await bookmarks.getByRole("link", { name: NEWS_TITLE }).waitFor();
    assert.equal(await bookmarks.getByRole("link", { name: NEWS_TITLE }).getAttribute("href"), NEWS_PATH);
    await checkA11y(page, "/user-account");

    // Sign out from the header's menu.
    await header.getByText("Your account").click();
    await header.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await header.getByRole("link", { name: "Sign in" }).waitFor();
    assert.equal(await header.getByText("Your account").count(), 0);
    await checkA11y(page, "/ (signed out)");

    // The session is gone on the server too.
    await ctx.visit(page, "/user-account");
    assert.equal(pathOf(page), "/sign-in?redirect=%2Fuser-account");
  });

  test("reading lists: create, add a bookmark, reorder with the buttons, rename, delete", { timeout: 90_000 }, async () => {
    const member = addMember();
    const page = await ctx.newPage();
    await signIn(page, member.email);
    // Two bookmarks to put in the list.
    const [a, b] = newsNewestFirst();
    for (const doc of [a, b]) {
      await ctx.visit(page, `/news/${doc.uid}`);
      await waitForHydration(page);
      await bookmarkThisPage(page);
    }

    await ctx.visit(page, "/user-account#reading-lists");
    await waitForHydration(page);
    await page.getByLabel("Name of the list").fill("Winter reading");
    await page.getByRole("button", { name: "Create list" }).click();
    await page.getByText("Created the reading list “Winter reading”.").waitFor();
    await page.getByRole("link", { name: "Winter reading" }).click();
    await page.getByRole("heading", { level: 1, name: "Winter reading" }).waitFor();
    await waitForHydration(page);

    for (const doc of [a, b]) {
      await page.getByLabel("One of your bookmarks").selectOption({ label: titleOf(doc) });
      await page.getByRole("button", { name: "Add to the list" }).click();
      await page.getByText(`Added “${titleOf(doc)}” to the list.`).waitFor();
    }
    const items = page.locator("#items ol > li");
    await page.waitForFunction(() => document.querySelectorAll("#items ol > li").length === 2);
    assert.deepEqual(await items.locator("a").allTextContents(), [titleOf(a), titleOf(b)]);
    await checkA11y(page, "/user-account/reading-lists/:id");

    // Move the second item up: the order changes and focus stays on the moved item.
    await page.getByRole("button", { name: `Move up: ${titleOf(b)}` }).click();
    await page.getByText(`Moved “${titleOf(b)}” to position 1 of 2.`).waitFor();
    await page.waitForFunction((t) => document.querySelector("#items ol > li a")?.textContent === t, titleOf(b));
    assert.deepEqual(await items.locator("a").allTextContents(), [titleOf(b), titleOf(a)]);
    await page.waitForFunction(() => document.activeElement?.id?.startsWith("move-"));
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      `Move down: ${titleOf(b)}`,
      "at the top, focus goes to the item's other move button",
    );

    // Rename, then delete with the confirmation step.
    await page.getByLabel("Name of the list").fill("Spring reading");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { level: 1, name: "Spring reading" }).waitFor();
    await page.getByRole("link", { name: "Delete this list…" }).click();
    await page.getByRole("button", { name: "Yes, delete the list" }).waitFor();
    await checkA11y(page, "/user-account/reading-lists/:id?delete=confirm");
    await page.getByRole("button", { name: "Yes, delete the list" }).click();
    await page.waitForURL((u) => u.pathname === "/user-account");
    await page.locator("#reading-lists").getByText("You have no reading lists yet.").waitFor();
  });

  test("a forgotten password: the mailed link sets a new one, and the old one stops working", { timeout: 60_000 }, async () => {
    const member = addMember();
    const page = await ctx.newPage();
    // The form actions answer a refused form with the API's 422 (the fields' errors).
    ctx.expectProblem(page, { url: /\/reset-password\.data(\?|$)/, status: 422 }, "the test's two new passwords differ");
    ctx.expectProblem(page, { url: /\/sign-in\.data(\?|$)/, status: 422 }, "the test signs in with the old password");
    await ctx.visit(page, "/sign-in");
    await page.getByRole("link", { name: "Forgotten your password?" }).click();
    await page.getByRole("heading", { level: 1, name: "Reset your password" }).waitFor();
    await checkA11y(page, "/forgot-password");
    await page.getByLabel("Email address").fill(member.email);
    await page.getByRole("button", { name: "Send me the link" }).click();
    await page.getByText("If an account uses that address, we have emailed it a link to reset the password.").waitFor();
    await checkA11y(page, "/forgot-password (sent)");

    const link = await mailedLink(ctx.server, member.email, "/reset-password?token=");
    await ctx.visit(page, link);
    await page.getByText(member.email).waitFor();
    const fresh = "a brand new passphrase";
    await page.getByLabel("New password", { exact: true }).fill(fresh);
    await page.getByLabel("Type the new password again").fill("something else");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await page.getByText("The password field confirmation does not match.").first().waitFor();
    await checkA11y(page, "/reset-password (error)");
    await page.getByLabel("New password", { exact: true }).fill(fresh);
    await page.getByLabel("Type the new password again").fill(fresh);
    await page.getByRole("button", { name: "Save the new password" }).click();
    await page.getByText("Your password has been reset. You can now sign in.").waitFor();
    await checkA11y(page, "/reset-password (done)");

    await page.getByRole("link", { name: "Sign in", exact: true }).last().click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await fillSignIn(page, member.email, PASSWORD);
    await page.getByText("These credentials do not match our records.").first().waitFor();
    await fillSignIn(page, member.email, fresh);
    await page.waitForURL((u) => u.pathname === "/");
  });

  test("profile: change the name; download my data; delete the account after confirming", { timeout: 60_000 }, async () => {
    const member = addMember("Mary Somerville");
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/user-account\/delete\.data(\?|$)/, status: 422 }, "the test confirms the deletion with a wrong password");
    ctx.expectProblem(page, { url: /\/sign-in\.data(\?|$)/, status: 422 }, "the test signs in to the deleted account");
    await signIn(page, member.email, "/user-account");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Mary Fairfax Somerville");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Your name has been saved.").waitFor();
    await page.locator("#profile dd").getByText("Mary Fairfax Somerville", { exact: true }).waitFor();

    // Download my data: a JSON file of the account.
    const answer = await page.context().request.get("/user-account/data");
    assert.equal(answer.status(), 200);
    assert.match(answer.headers()["content-disposition"] ?? "", /attachment; filename="lineage-my-data.json"/);
    const exported = await answer.json();
    assert.equal(exported.user.email, member.email);
    assert.ok(Array.isArray(exported.bookmarks));

    // Delete: a confirmation page first; a wrong password is refused.
    await page.getByRole("link", { name: "Delete my account…" }).click();
    await page.getByRole("heading", { level: 1, name: "Delete your account" }).waitFor();
    await checkA11y(page, "/user-account/delete");
    await page.getByLabel("Your password").fill("not it");
    await page.getByRole("button", { name: "Delete my account permanently" }).click();
    await page.getByText("The password is incorrect.").first().waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "password");
    await checkA11y(page, "/user-account/delete (error)");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete my account permanently" }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await page.getByText("Your account has been deleted.").waitFor();
    await page.locator("header").getByRole("link", { name: "Sign in" }).waitFor();
    await checkA11y(page, "/sign-in?notice=account-deleted");
    await fillSignIn(page, member.email);
    await page.getByText("These credentials do not match our records.").first().waitFor();
  });

  test("validation errors from the API are shown at their fields and take focus", async () => {
    const member = addMember();
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/sign-in\.data(\?|$)/, status: 422 }, "the test signs in with a wrong password");
    await ctx.visit(page, "/sign-in");
    await waitForHydration(page);
    await fillSignIn(page, member.email, "not the password");
    const email = page.getByLabel("Email address");
    await page.getByText("These credentials do not match our records.").first().waitFor();
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    const error = await page.locator(`[id="${describedBy.split(" ").pop()}"]`).textContent();
    assert.match(error ?? "", /These credentials do not match our records\./);
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "email");
    await checkA11y(page, "/sign-in (error)");
  });
});

describe("access levels", () => {
  test("a protected page sends a visitor to sign in and back to the page (without JavaScript)", async () => {
    const member = addMember();
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/user-account?from=test");
    assert.equal(pathOf(page), "/sign-in?redirect=%2Fuser-account%3Ffrom%3Dtest");
    await fillSignIn(page, member.email);
    await page.waitForURL((u) => u.pathname === "/user-account");
    assert.equal(pathOf(page), "/user-account?from=test");
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
    await checkA11y(page, "/user-account (no JavaScript)");

    // The bookmark toggle works as a plain form too.
    await ctx.visit(page, NEWS_PATH);
    await page.getByRole("button", { name: "Bookmark this page" }).click();
    await page.waitForURL((u) => u.pathname === NEWS_PATH);
    await page.getByRole("button", { name: "Remove bookmark" }).click();
    await page.waitForURL((u) => u.pathname === NEWS_PATH);
    await page.getByRole("button", { name: "Bookmark this page" }).waitFor();
  });

  test("guest-only pages send a signed-in member home", async () => {
    const member = addMember();
    const page = await ctx.newPage();
    await signIn(page, member.email);
    for (const p of ["/sign-in", "/register", "/login-required"]) {
      await ctx.visit(page, p);
      assert.equal(pathOf(page), "/", `${p} while signed in`);
    }
  });

  test("after sign-in only a valid local path is followed; others go home", async () => {
    const member = addMember();
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `/sign-in?redirect=${encodeURIComponent("//evil.example/x")}`);
    await fillSignIn(page, member.email);
    await page.waitForURL((u) => u.pathname === "/");
    assert.equal(new URL(page.url()).origin, ctx.server.url);
  });

  test("signed-out visitors see a sign-in link instead of the bookmark toggle", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, NEWS_PATH);
    const link = page.getByRole("link", { name: "Sign in to bookmark this page" });
    assert.equal(await link.getAttribute("href"), `/sign-in?redirect=${encodeURIComponent(NEWS_PATH)}`);
    assert.equal(await page.getByRole("button", { name: "Bookmark this page" }).count(), 0);
    for (const p of ["/login-required", "/forgot-password", "/reset-password?token=x&email=a%40example.org", "/verify-email?token=x"]) {
      await ctx.visit(page, p);
    }
  });
});
