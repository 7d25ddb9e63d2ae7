// Membership: a member whose membership lapses loses members-only records —
// in Chromium against the real binary, with axe on every page visited. The lapse is
// made through the product: the admin's members CSV import sets a member's paid-until
// (a society's old records hold past dates, and the import takes them as they are),
// and the server judges the status at the time of asking, so a paid-until more than
// the plan's grace period ago opens nothing.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { addUser, checkA11y, getJSON, setup, signIn } from "./harness.mjs";

const ctx = setup({ name: "membership-lapse" });
const HUB = "/research-hub/our-collections";
const DAY = 24 * 60 * 60 * 1000;

const api = (p) => getJSON(ctx, p);

/** A members-only record of the demo set (the wills are members-only). */
async function membersOnlyRecord() {
  const answer = await api("/api/research/search?collection=wills-index&sort=date&limit=1");
  const [result] = answer.results;
  assert.ok(result?.teaser, "the demo's wills are members-only");
  return `${HUB}/records/${result.id}`;
}

/** YYYY-MM-DD, days from today (negative: in the past). */
const dateFromToday = (days) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** The admin imports one member's row through /admin/members: check, then import. */
async function importRow(admin, name, email, paidUntil) {
  await ctx.visit(admin, "/admin/members");
  const csv = `name,email,plan,paid_until\n${name},${email},individual,${paidUntil}\n`;
  await admin.getByLabel("CSV file of members").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await admin.getByRole("button", { name: "Check the file" }).click();
  await admin.getByRole("heading", { name: "What the import would do" }).waitFor();
  await checkA11y(admin, "/admin/members (dry run)");
  await admin.getByRole("button", { name: "Import these members" }).click();
  await admin.getByText(/^Imported: \d+ added, \d+ updated\.$/).waitFor();
  await checkA11y(admin, "/admin/members (imported)");
}

/** The member's own membership as the API reports it now. */
const mine = (page) => page.evaluate(() => fetch("/api/membership", { headers: { Accept: "application/json" } }).then((r) => r.json()));

describe("a lapsed member", () => {
  test("sees a members-only record in full while the membership is in force and in grace, then only the teaser and a rejoin once it has lapsed", { timeout: 180_000 }, async () => {
    const record = await membersOnlyRecord();
    const { plans } = await api("/api/membership/plans");
    const individual = plans.find((p) => p.slug === "individual");
    assert.ok(individual, "the demo set has the individual plan");
    const grace = individual.grace_days;
    assert.ok(Number.isInteger(grace) && grace >= 2, `the individual plan has a grace period (${grace} days)`);

    const memberEmail = addUser(ctx, "registered", "Lena Lapse");
    const adminEmail = addUser(ctx, "admin", "Ada Admin");
    const admin = await ctx.newPage();
    await signIn(ctx, admin, { email: adminEmail }, "/admin/members");
    const member = await ctx.newPage();
    await signIn(ctx, member, { email: memberEmail }, "/");

    // In force: paid until next year.
    await importRow(admin, "Lena Lapse", memberEmail, dateFromToday(365));
    assert.equal((await mine(member)).membership.status, "active");
    await ctx.visit(member, record);
    await member.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    assert.equal(await member.getByRole("link", { name: "Join or renew" }).count(), 0, "no teaser for a member in force");

    // Past paid-until but inside the grace period: still open, renewal due.
    await importRow(admin, "Lena Lapse", memberEmail, dateFromToday(-1));
    assert.equal((await mine(member)).membership.status, "grace");
    await ctx.visit(member, record);
    await member.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
    await ctx.visit(member, "/user-account/membership");
    assert.match(await member.locator("main dl").first().innerText(), /In its grace period \(renewal due\)/);
    await member.getByText(/Your membership is due for renewal/).waitFor();

    // Past paid-until plus the grace period: lapsed, and the record shows only its teaser.
    await importRow(admin, "Lena Lapse", memberEmail, dateFromToday(-(grace + 2)));
    assert.equal((await mine(member)).membership.status, "lapsed");
    await ctx.visit(member, record);
    await member.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();
    assert.equal(await member.getByRole("heading", { level: 2, name: "People in this record" }).count(), 0, "the record's people are hidden");
    const join = member.getByRole("link", { name: "Join or renew" });
    assert.equal(await join.getAttribute("href"), `/subscribe?return_to=${encodeURIComponent(record)}`);

    // The account page says so and offers to rejoin the same plan.
    await ctx.visit(member, "/user-account/membership");
    await member.getByRole("heading", { level: 1, name: "Your membership" }).waitFor();
    assert.match(await member.locator("main dl").first().innerText(), /Status\s+Lapsed/);
    const rejoin = member.getByRole("link", { name: "Rejoin (Individual)" });
    assert.equal(await rejoin.getAttribute("href"), "/subscribe/individual");
    await rejoin.click();
    await member.waitForURL((u) => u.pathname === "/subscribe/individual");
    // The plan's form knows the member is coming back.
    await member.getByRole("heading", { level: 2, name: "Renew: Individual" }).waitFor();
    await member.getByRole("button", { name: "Renew", exact: true }).waitFor();
    await checkA11y(member, "/subscribe/individual (rejoining)");
  });
});
