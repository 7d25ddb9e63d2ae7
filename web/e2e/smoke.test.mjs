// The harness itself: the server starts, answers health checks, and a page renders.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";

const ctx = setup();

test("healthz and readyz answer 200", async () => {
  for (const p of ["/healthz", "/readyz"]) {
    const res = await fetch(ctx.server.at(p));
    assert.equal(res.status, 200, p);
  }
});

test("the home page renders with JavaScript on and passes axe", async () => {
  const page = await ctx.newPage();
  await ctx.visit(page, "/");
  assert.match(await page.title(), /Lineage/);
});
