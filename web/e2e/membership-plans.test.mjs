// Membership plans: an admin adds a plan on /admin/members/plans — a field
// the API refuses is shown next to it with focus on it, then the plan is saved and is
// on /subscribe — in Chromium against the real binary, with axe at 1366 and 390 px.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { addUser, checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";

const ctx = setup({ name: "membership-plans" });

describe("membership plans", () => {
  test("an admin adds a plan with a concession: a refused slug is shown by its field, then the plan is on /subscribe", { timeout: 150_000 }, async () => {
    const memberEmail = addUser(ctx, "registered", "Nora Notadmin");
    const adminEmail = addUser(ctx, "admin", "Ada Admin");

    // Someone who is not an admin gets the not-found page.
    const member = await ctx.newPage();
    await signIn(ctx, member, { email: memberEmail }, "/");
    await ctx.visit(member, "/admin/members/plans", { status: 404 });
    await ctx.visit(member, "/admin/members/plans/new", { status: 404 });

    const admin = await ctx.newPage({ viewport: { width: 1366, height: 900 } });
    ctx.expectProblem(admin, { url: /\/admin\/members\/plans\/new\.data(\?|$)/, status: 422 }, "the test gives a slug the API refuses");
    await signIn(ctx, admin, { email: adminEmail }, "/admin/members");
    await admin.getByRole("link", { name: "Membership plans" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/members/plans");
    await admin.getByRole("heading", { level: 1, name: "Membership plans" }).waitFor();
    // Every plan, on sale or not: the demo's plans are listed with links to edit them.
    assert.equal(await admin.getByRole("link", { name: "Individual", exact: true }).getAttribute("href"), "/admin/members/plans/individual/edit");
    await checkA11y(admin, "/admin/members/plans");

    await admin.getByRole("link", { name: "Add a plan" }).click();
    await admin.getByRole("heading", { level: 1, name: "Add a membership plan" }).waitFor();
    await waitForHydration(admin);
    await checkA11y(admin, "/admin/members/plans/new");
    await admin.getByLabel("Name", { exact: true }).fill("Research Associate");
    await admin.getByLabel("Slug", { exact: true }).fill("Research Associate");
    await admin.getByLabel("Price", { exact: true }).fill("30.50");
    await admin.getByLabel("Benefits").fill("The journal.\nThe members' records.");
    await admin.getByRole("button", { name: "Add a concession" }).click();
    await admin.getByLabel("Concession 1 name", { exact: true }).fill("Student");
    await admin.getByLabel("Concession 1 slug", { exact: true }).fill("student");
    await admin.getByLabel("Concession 1 price (pounds and pence)", { exact: true }).fill("15.25");
    // A second row added then removed is not sent.
    await admin.getByRole("button", { name: "Add a concession" }).click();
    await admin.getByLabel("Concession 2 name", { exact: true }).fill("Nobody");
    await admin.getByRole("button", { name: "Remove concession 2" }).click();
    await admin.getByLabel("On sale (shown on the join page)").check();
    await admin.getByRole("button", { name: "Add the plan" }).click();

    // The API refuses the slug: its message is by the field, which has focus; the rest is kept.
    const slugError = "The slug must be 1 to 64 lower-case letters, digits and single hyphens.";
    await admin.locator("#plan-slug-error").getByText(slugError).waitFor();
    const slug = admin.getByLabel("Slug", { exact: true });
    assert.match((await slug.getAttribute("aria-describedby")) ?? "", /\bplan-slug-error\b/);
    assert.equal(await slug.getAttribute("aria-invalid"), "true");
    await admin.waitForFunction(() => document.activeElement?.id === "plan-slug");
    assert.equal(await admin.getByLabel("Price", { exact: true }).inputValue(), "30.50");
    assert.equal(await admin.getByLabel("Concession 1 price (pounds and pence)", { exact: true }).inputValue(), "15.25");
    assert.equal(await admin.getByLabel("Concession 2 name", { exact: true }).count(), 0);
    await checkA11y(admin, "/admin/members/plans/new (slug error)");

    await slug.fill("research-associate");
    await admin.getByRole("button", { name: "Add the plan" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/members/plans");
    await admin.getByText("Saved the plan Research Associate.").waitFor();

    // The API has it in pence, and /subscribe offers it.
    const res = await fetch(ctx.server.at("/api/membership/plans/research-associate"));
    assert.equal(res.status, 200);
    const plan = await res.json();
    assert.equal(plan.price_minor, 3050);
    assert.deepEqual(plan.concessions, [{ slug: "student", name: "Student", price_minor: 1525 }]);
    await ctx.visit(admin, "/subscribe");
    const card = admin.locator("main li", { has: admin.getByRole("heading", { level: 2, name: "Research Associate" }) });
    assert.match(await card.innerText(), /£30\.50 a year/);
    assert.match(await card.innerText(), /Student: £15\.25 a year/);

    // The edit form on a phone: its values in pounds and pence, no sideways scrolling.
    await admin.setViewportSize({ width: 390, height: 844 });
    await ctx.visit(admin, "/admin/members/plans/research-associate/edit");
    await admin.getByRole("heading", { level: 1, name: "Edit the plan Research Associate" }).waitFor();
    assert.equal(await admin.getByLabel("Price", { exact: true }).inputValue(), "30.50");
    assert.equal(await admin.getByLabel("Concession 1 price (pounds and pence)", { exact: true }).inputValue(), "15.25");
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "no sideways scrolling on a phone");
    await ctx.visit(admin, "/admin/members/plans");
    await ctx.visit(admin, "/admin/members/plans/no-such-plan/edit", { status: 404 });
  });
});
