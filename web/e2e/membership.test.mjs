// Membership: /subscribe and a plan's join form, the member's membership
// page, and the admins' members pages — in Chromium against the real binary (no card
// payments: the e2e server has no Stripe key), with axe on every page visited.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getJSON, PASSWORD, addUser, checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";

const ctx = setup({ name: "membership" });
const HUB = "/research-hub/our-collections";

const api = (p) => getJSON(ctx, p);

/** The id of the element that has focus. */
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? "");

/** A members-only record of the demo set (the wills are members-only). */
async function membersOnlyRecord() {
  const answer = await api("/api/research/search?collection=wills-index&sort=date&limit=1");
  const [result] = answer.results;
  assert.ok(result?.teaser, "the demo's wills are members-only");
  return `${HUB}/records/${result.id}`;
}

describe("the plans", () => {
  test("/subscribe lists the demo plans side by side on a desktop and stacked on a phone, and says how to pay without cards", { timeout: 90_000 }, async () => {
    const { plans, card_payments: cards, other_ways: otherWays } = await api("/api/membership/plans");
    assert.ok(plans.length >= 3, "the demo set has plans");
    assert.equal(cards, false, "no Stripe key in the e2e server");
    const page = await ctx.newPage({ viewport: { width: 1366, height: 900 } });
    await ctx.visit(page, "/subscribe?return_to=%2Fnews");
    await page.getByRole("heading", { level: 1, name: "Join or renew" }).waitFor();
    const cards1366 = page.locator("main ul > li", { has: page.getByRole("heading", { level: 2 }) });
    assert.equal(await cards1366.count(), plans.filter((p) => p.on_sale).length);
    const individual = page.locator("main li", { has: page.getByRole("heading", { level: 2, name: "Individual" }) });
    assert.match(await individual.innerText(), /£24\.00 a year/);
    assert.match(await individual.innerText(), /Student: £12\.00 a year/);
    const life = page.locator("main li", { has: page.getByRole("heading", { level: 2, name: "Life" }) });
    assert.match(await life.innerText(), /£400\.00 for life/);
    await page.getByText(otherWays).waitFor();
    // The return path goes with the choice of plan.
    assert.equal(await page.getByRole("link", { name: "Choose Individual" }).getAttribute("href"), "/subscribe/individual?return_to=%2Fnews");
    // Side by side: the first two cards share a row.
    const [a, b] = [await cards1366.nth(0).boundingBox(), await cards1366.nth(1).boundingBox()];
    assert.equal(Math.round(a.y), Math.round(b.y), "cards in a row at 1366 px");
    assert.ok(b.x > a.x + a.width - 1, "the second card is beside the first");

    await page.setViewportSize({ width: 390, height: 844 });
    await ctx.visit(page, "/subscribe");
    const [c, d] = [await cards1366.nth(0).boundingBox(), await cards1366.nth(1).boundingBox()];
    assert.equal(Math.round(c.x), Math.round(d.x), "cards stacked at 390 px");
    assert.ok(d.y >= c.y + c.height - 1, "the second card is below the first");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling on a phone");

    await ctx.visit(page, "/subscribe/no-such-plan", { status: 404 });
  });

  test("a signed-out visitor on a plan's page is asked to sign in first and comes back to it", { timeout: 90_000 }, async () => {
    const email = addUser(ctx, "registered", "Vera Visitor");
    const page = await ctx.newPage({ viewport: { width: 390, height: 844 } });
    await ctx.visit(page, "/subscribe/individual?return_to=%2Fnews");
    await page.getByRole("heading", { level: 2, name: "First, sign in or create an account" }).waitFor();
    await page.getByRole("link", { name: "Sign in to join" }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname + u.search === "/subscribe/individual?return_to=%2Fnews");
    await page.getByRole("button", { name: "Join", exact: true }).waitFor();
    await checkA11y(page, "/subscribe/individual (signed in)");
  });
});

describe("joining", () => {
  test("by keyboard: a household email the API refuses is shown next to its field, then the join leaves a pending membership", { timeout: 120_000 }, async () => {
    const record = await membersOnlyRecord();
    const email = addUser(ctx, "registered", "Kim Keyboard");
    const page = await ctx.newPage();
    ctx.expectProblem(page, { url: /\/subscribe\/[^/?]+\.data(\?|$)/, status: 422 }, "the test gives a household email the API refuses");
    await signIn(ctx, page, { email }, "/");

    // From the paywall's teaser to the plans, carrying the record's path.
    await ctx.visit(page, record);
    await waitForHydration(page);
    const join = page.getByRole("link", { name: "Join or renew" });
    assert.equal(await join.getAttribute("href"), `/subscribe?return_to=${encodeURIComponent(record)}`);
    await join.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/subscribe");
    await checkA11y(page, "/subscribe (from the teaser)");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Choose Joint (household)" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/subscribe/joint");
    assert.equal(new URL(page.url()).searchParams.get("return_to"), record);
    await page.getByRole("heading", { level: 1, name: "Joint (household) membership" }).waitFor();
    await checkA11y(page, "/subscribe/joint");
    await waitForHydration(page);

    // The form: its Gift Aid declaration names the society, marketing is unticked.
    await page.getByText(/^I want to Gift Aid my membership subscriptions and any donations I make in the future or have made in the past 4 years to Lineage\./).waitFor();
    assert.equal(await page.getByLabel(/Email me news of/).isChecked(), false, "marketing consent starts unticked");
    assert.equal(await page.getByLabel("I make this Gift Aid declaration").isChecked(), false);

    await page.getByLabel("Their name").focus();
    await page.keyboard.type("Bob Keyboard");
    await page.keyboard.press("Tab");
    assert.equal(await focusedId(page), "field-household-0-email");
    await page.keyboard.type("bob-at-example");
    await page.getByRole("button", { name: "Join", exact: true }).focus();
    await page.keyboard.press("Enter");

    // The API's message, next to the field, tied to it, focused.
    const emailField = page.getByLabel("Their email address");
    await page.getByRole("heading", { name: "There is a problem" }).waitFor();
    assert.equal(await emailField.getAttribute("aria-invalid"), "true");
    const described = await emailField.getAttribute("aria-describedby");
    assert.ok(described, "the field names its error");
    assert.match(await page.locator(`#${described}`).innerText(), /valid email address/);
    await page.waitForFunction(() => document.activeElement?.id === "field-household-0-email");
    assert.equal(await emailField.inputValue(), "bob-at-example", "the typed value is kept");
    await checkA11y(page, "/subscribe/joint (field error)");

    // Fixed: the membership is pending, with how to pay.
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("bob@example.org");
    await page.getByLabel(/Email me news of/).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Join", exact: true }).focus();
    await page.keyboard.press("Enter");
    const pending = page.getByRole("heading", { level: 2, name: "Your membership is waiting for payment" });
    await pending.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "pending-heading");
    const mine = await page.evaluate(() => fetch("/api/membership", { headers: { Accept: "application/json" } }).then((r) => r.json()));
    assert.equal(mine.membership.status, "pending");
    assert.equal(mine.membership.plan.slug, "joint");
    assert.deepEqual(mine.membership.household.map((h) => h.email), ["bob@example.org"]);
    await page.getByText(mine.membership.number).first().waitFor();
    assert.equal(await page.getByRole("link", { name: "go back to the page you were on" }).getAttribute("href"), record);
    await checkA11y(page, "/subscribe/joint (pending)");

    // The account page says the same.
    await ctx.visit(page, "/user-account/membership");
    await page.getByRole("heading", { level: 1, name: "Your membership" }).waitFor();
    assert.match(await page.locator("main dl").first().innerText(), /Waiting for payment/);
    await page.getByText("Bob Keyboard (bob@example.org)").waitFor();
    // A pending membership opens nothing yet.
    await ctx.visit(page, record);
    await page.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();
  });
});

describe("admins", () => {
  test("an admin records a manual payment typed in pounds and pence, and the member then sees a members-only record", { timeout: 150_000 }, async () => {
    const record = await membersOnlyRecord();
    const memberEmail = addUser(ctx, "registered", "Pat Payer");
    const adminEmail = addUser(ctx, "admin", "Ada Admin");

    // The member joins without a card: pending.
    const member = await ctx.newPage();
    await signIn(ctx, member, { email: memberEmail }, "/subscribe/individual");
    await waitForHydration(member);
    // With a Gift Aid declaration: the API's wording, with the society's name.
    await member.getByText(/^I want to Gift Aid my membership subscriptions and any donations .* to Lineage\. I am a UK taxpayer/).waitFor();
    await member.getByLabel("I make this Gift Aid declaration").check();
    await member.getByLabel("First name").fill("Pat");
    await member.getByLabel("Last name").fill("Payer");
    await member.getByLabel("House name or number").fill("12");
    await member.getByLabel("Postcode").fill("SW1A 1AA");
    await member.getByLabel("The rest of your home address").fill("St James's Square, London");
    await member.getByRole("button", { name: "Join", exact: true }).click();
    await member.getByRole("heading", { name: "Your membership is waiting for payment" }).waitFor();
    await ctx.visit(member, record);
    await member.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();

    // Someone who is not an admin gets the not-found page.
    await ctx.visit(member, "/admin/members", { status: 404 });

    // The admin finds the member and records a cheque.
    const admin = await ctx.newPage();
    ctx.expectProblem(admin, { url: /\/admin\/members\/\d+\.data(\?|$)/, status: 422 }, "the test types an amount with a fraction of a penny");
    await signIn(ctx, admin, { email: adminEmail }, "/admin/members");
    await admin.getByRole("heading", { level: 1, name: "Members" }).waitFor();
    await admin.getByLabel("Name, email or membership number").fill(memberEmail);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === memberEmail);
    await admin.getByRole("heading", { name: "1 member found" }).waitFor();
    await checkA11y(admin, "/admin/members?q=…");
    await admin.locator("main table tbody tr").first().getByRole("link").click();
    await admin.waitForURL((u) => /^\/admin\/members\/\d+$/.test(u.pathname));
    await admin.getByRole("heading", { level: 1, name: /Pat Payer/ }).waitFor();
    await checkA11y(admin, "/admin/members/{id}");
    await waitForHydration(admin);

    // A float-looking amount with three decimals is refused next to the field.
    const amount = admin.getByLabel("Amount received (GBP)");
    await amount.fill("24.005");
    await admin.getByRole("button", { name: "Record the payment" }).click();
    await admin.getByText("Give at most 2 digits after the decimal point.").first().waitFor();
    assert.equal(await amount.getAttribute("aria-invalid"), "true");
    await admin.waitForFunction(() => document.activeElement?.id === "payment-amount");
    await checkA11y(admin, "/admin/members/{id} (amount error)");

    await amount.fill("£24.35");
    await admin.getByLabel("Note (optional)").fill("cheque 100234");
    await admin.getByRole("button", { name: "Record the payment" }).click();
    await admin.getByText(/Recorded a payment of £24\.35/).waitFor();
    const payments = admin.locator("section", { has: admin.getByRole("heading", { name: "Payments" }) });
    await payments.getByText("£24.35").waitFor();
    await payments.getByText("cheque 100234").waitFor();
    assert.match(await admin.locator("main dl").first().innerText(), /Active/);
    await checkA11y(admin, "/admin/members/{id} (paid)");

    // The member now sees the whole record, and a receipt.
    await ctx.visit(member, record);
    await member.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    assert.equal(await member.getByRole("link", { name: "Join or renew" }).count(), 0);
    await ctx.visit(member, "/user-account/membership");
    const receipt = member.getByRole("link", { name: /^Receipt / });
    const href = await receipt.first().getAttribute("href");
    assert.match(href, /^\/api\/membership\/receipts\//);
    const page = await member.evaluate((h) => fetch(h).then(async (r) => ({ status: r.status, text: await r.text() })), href);
    assert.equal(page.status, 200);
    assert.match(page.text, /24\.35/);

    // The Gift Aid declaration can be cancelled from the account.
    await member.getByRole("heading", { level: 2, name: "Gift Aid" }).waitFor();
    await waitForHydration(member);
    await member.getByRole("button", { name: "Cancel my Gift Aid declaration" }).click();
    await member.getByText("Your Gift Aid declaration is cancelled.", { exact: false }).waitFor();
    await checkA11y(member, "/user-account/membership (Gift Aid cancelled)");
    await ctx.visit(member, "/user-account/membership");
    assert.equal(await member.getByRole("heading", { level: 2, name: "Gift Aid" }).count(), 0);
  });

  test("an admin imports a CSV: a dry run reports what would change and imports nothing until confirmed; a bad row imports nothing", { timeout: 120_000 }, async () => {
    const adminEmail = addUser(ctx, "admin", "Ivy Importer");
    const admin = await ctx.newPage();
    ctx.expectProblem(admin, { url: /\/admin\/members\.data(\?|$)/, status: 422 }, "the test imports a CSV with a bad row");
    await signIn(ctx, admin, { email: adminEmail }, "/admin/members");
    const stamp = Date.now();
    const good = `name,email,plan,paid_until\nIan Imported,ian-${stamp}@example.org,individual,2030-10-01\n`;
    await admin.getByLabel("CSV file of members").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await admin.getByRole("button", { name: "Check the file" }).click();
    await admin.getByRole("heading", { name: "What the import would do" }).waitFor();
    await admin.getByText("It would add 1 member and update 0.").waitFor();
    await checkA11y(admin, "/admin/members (dry run)");
    const before = await admin.evaluate((q) => fetch(`/api/admin/members?q=${q}`).then((r) => r.json()), `ian-${stamp}`);
    assert.equal(before.total, 0, "a dry run imports nothing");
    await admin.getByRole("button", { name: "Import these members" }).click();
    await admin.getByText("Imported: 1 added, 0 updated.").waitFor();
    const after = await admin.evaluate((q) => fetch(`/api/admin/members?q=${q}`).then((r) => r.json()), `ian-${stamp}`);
    assert.equal(after.total, 1);

    // One bad row: its line and column are named, and nothing is imported.
    const bad = `name,email,plan,paid_until\nJo Good,jo-${stamp}@example.org,individual,2030-10-01\nKit Bad,kit-${stamp}@example.org,no-such-plan,2030-10-01\n`;
    await admin.getByLabel("CSV file of members").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
    await admin.getByRole("button", { name: "Check the file" }).click();
    const errors = admin.locator("table", { has: admin.locator("caption", { hasText: "Rows with errors" }) });
    await errors.waitFor();
    assert.match(await errors.locator("tbody tr").first().innerText(), /^3\s+plan/);
    await checkA11y(admin, "/admin/members (bad row)");
    const none = await admin.evaluate((q) => fetch(`/api/admin/members?q=${q}`).then((r) => r.json()), `jo-${stamp}`);
    assert.equal(none.total, 0);

    // The export link serves the CSV.
    const href = await admin.getByRole("link", { name: "Export every member as CSV" }).getAttribute("href");
    const csv = await admin.evaluate((h) => fetch(h).then((r) => r.text()), href);
    assert.match(csv, new RegExp(`ian-${stamp}@example.org`));
  });
});
