// The demo accounts of `serve --demo`: start-up prints where to sign in and, for a
// member, an editor and an admin, an address and a password; each signs in with them,
// coming by the address people guess (/login).

import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { setup } from "./harness.mjs";

const ctx = setup({ name: "demo-accounts" });

/** The demo accounts as start-up printed them: role → { email, password }. */
function printedAccounts() {
  const logs = ctx.server.logs;
  const head = logs.findIndex((l) => l.startsWith("Demo accounts (sign in at "));
  assert.ok(head >= 0, `start-up names the demo accounts:\n${logs.join("\n")}`);
  assert.match(logs[head], new RegExp(`sign in at ${ctx.server.url}/sign-in;`));
  const accounts = {};
  for (const line of logs.slice(head + 1)) {
    const m = /^ {2}(member|editor|admin) +(\S+@\S+) +(\S+)$/.exec(line);
    if (!m) break;
    accounts[m[1]] = { email: m[2], password: m[3] };
  }
  assert.deepEqual(Object.keys(accounts).sort(), ["admin", "editor", "member"]);
  return accounts;
}

async function signInFromLogin(page, { email, password }) {
  await ctx.visit(page, "/login");
  assert.equal(new URL(page.url()).pathname, "/sign-in", "/login leads to the sign-in page");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await page.locator("header").getByText("Your account").waitFor();
}

describe("demo accounts", () => {
  test("the member signs in with the printed password and has a membership in force", { timeout: 60_000 }, async () => {
    const page = await ctx.newPage();
    await signInFromLogin(page, printedAccounts().member);
    await page.locator("header summary", { hasText: "Your account" }).click();
    assert.equal(await page.locator("header").getByRole("link", { name: "Studio (editors)" }).count(), 0, "no studio link for a member");
    const user = await (await page.request.get("/api/user")).json();
    assert.ok(user.scope.includes("member"), `the member's scope: ${JSON.stringify(user.scope)}`);
    const mine = await page.request.get("/api/membership");
    assert.equal(mine.status(), 200);
  });

  test("the editor and the admin sign in; the admin opens the members' pages", { timeout: 60_000 }, async () => {
    const accounts = printedAccounts();
    const editor = await ctx.newPage();
    await signInFromLogin(editor, accounts.editor);
    assert.ok((await (await editor.request.get("/api/user")).json()).scope.includes("editor"));
    // The studio is one step away in the account menu.
    await editor.locator("header summary", { hasText: "Your account" }).click();
    await editor.locator("header").getByRole("link", { name: "Studio (editors)" }).click();
    await editor.waitForURL((u) => u.pathname === "/studio");
    await editor.getByRole("heading", { level: 1 }).first().waitFor();

    const admin = await ctx.newPage();
    await signInFromLogin(admin, accounts.admin);
    await ctx.visit(admin, "/admin/members");
  });
});
