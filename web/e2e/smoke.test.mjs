// The harness and the front door's basic contracts: health checks, a rendered page,
// inline scripts that the Content-Security-Policy admits by hash, and `serve` started
// the way `make run` starts it.
import { createHash } from "node:crypto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, startServer } from "./harness.mjs";

const ctx = setup({ name: "smoke" });

test("healthz and readyz answer 200", async () => {
  for (const p of ["/healthz", "/readyz"]) {
    const res = await fetch(ctx.server.at(p));
    assert.equal(res.status, 200, p);
  }
});

test("every inline script is named by hash in the response's Content-Security-Policy", async () => {
  // Not the home page: it is served without React, so it has no inline script (front-end.test.mjs).
  for (const p of ["/news", "/no-such-page"]) {
    const res = await fetch(ctx.server.at(p));
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    assert.doesNotMatch(scriptSrc, /'unsafe-inline'|'nonce-/, `${p}: no inline script is admitted wholesale (${csp})`);
    const html = await res.text();
    const inline = [...html.matchAll(/<script\b([^>]*)>([^]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1])).map((m) => m[2]);
    assert.ok(inline.length > 0, `${p} has inline scripts (React Router's hydration data)`);
    const missing = inline.filter((text) => !scriptSrc.includes(`'sha256-${createHash("sha256").update(text).digest("base64")}'`));
    assert.deepEqual(missing, [], `${p}: inline <script> tags whose hash the CSP lacks are blocked by the browser, so the page never hydrates`);
  }
});

test("the home page renders with JavaScript on and passes axe", async () => {
  const page = await ctx.newPage();
  await ctx.visit(page, "/");
  assert.match(await page.title(), /Lineage/);
});

test("checkA11y itself fails on a serious violation, with and without JavaScript", async () => {
  for (const javaScriptEnabled of [true, false]) {
    const page = await ctx.newPage({ javaScriptEnabled });
    await ctx.visit(page, "/news");
    // A second, unchecked DOM: an image without alt text and unreadable grey on white.
    await page.evaluate(() => {
      const main = document.querySelector("main");
      main.insertAdjacentHTML("beforeend", '<img src="/media/dna.svg"><p style="color:#eee;background:#fff">faint</p>');
    });
    await assert.rejects(checkA11y(page, "/news with a planted violation"), (err) => {
      assert.match(err.message, /image-alt/, "names the rule");
      assert.match(err.message, /color-contrast/, "names the rule");
      assert.match(err.message, /main > img|img/, "names the element");
      return true;
    });
  }
});

test("serve started from the repository root with the default --web (as `make run` does) becomes ready", { timeout: 120_000 }, async () => {
  const srv = await startServer({ name: "default-web", webFlag: false });
  try {
    const res = await fetch(srv.at("/"));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<html lang="en"/);
  } finally {
    await srv.stop();
  }
});
