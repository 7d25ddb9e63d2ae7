// Shared by the event booking tests: the demo accounts `serve --demo` prints, signing
// in, and the API as a signed-in browser context sees it.
import assert from "node:assert/strict";

/**
 * The demo accounts as start-up printed them: role → { email, password }. The lines
 * may come a moment after the server is ready, so this waits for them.
 */
export async function demoAccounts(server, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const logs = server.logs;
    const head = logs.findIndex((l) => l.startsWith("Demo accounts (sign in at "));
    const accounts = {};
    if (head >= 0) {
      for (const line of logs.slice(head + 1)) {
        const m = /^ {2}(member|editor|admin) +(\S+@\S+) +(\S+)$/.exec(line);
        if (!m) break;
        accounts[m[1]] = { email: m[2], password: m[3] };
      }
    }
    if (accounts.member && accounts.editor && accounts.admin) return accounts;
    assert.ok(Date.now() < deadline, "start-up names the demo accounts");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Signs in on /sign-in and waits for the page it returns to. */
export async function signIn(ctx, page, { email, password }, wanted) {
  await ctx.visit(page, `/sign-in?redirect=${encodeURIComponent(wanted)}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname + u.search === wanted);
}

/** GET of the JSON API with the page's cookies. */
export async function apiGet(page, p) {
  const res = await page.context().request.get(p);
  assert.equal(res.status(), 200, `GET ${p}`);
  return res.json();
}
