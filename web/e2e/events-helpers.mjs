// Shared by the event booking tests: the demo accounts `serve --demo` prints, and the
// API as a signed-in browser context sees it.
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

/** GET of the JSON API with the page's cookies. */
export async function apiGet(page, p) {
  const res = await page.context().request.get(p);
  assert.equal(res.status(), 200, `GET ${p}`);
  return res.json();
}
