// Membership by card (issue 16): a registered user meets the paywall on a members-only
// record, picks a plan on /subscribe, is sent to Stripe Checkout — stripe-mock makes the
// session; the browser's visit to checkout.stripe.com is answered by a test page — and
// returns to "processing" until the signed checkout.session.completed event reaches
// the webhook; then the record opens. In Chromium against the real binary, axe on
// every page visited.
import { before, after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkA11y, freePort, ROOT_DIR, runLineage, setup } from "./harness.mjs";

const WEBHOOK_SECRET = "whsec_lineage_e2e";
const PASSWORD = "correct horse battery";
const HUB = "/research-hub/our-collections";
const MODULE = "github.com/stripe/stripe-mock";

/** stripe-mock built from the Go module cache at go.mod's pinned version (as internal/payments/stripetest does). */
function stripeMockBinary() {
  const v = spawnSync("go", ["list", "-m", "-f", "{{.Version}}", MODULE], { cwd: ROOT_DIR, encoding: "utf8" });
  assert.equal(v.status, 0, `go list -m ${MODULE}: ${v.stderr}`);
  const dir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "lineage-stripetest");
  const bin = path.join(dir, `stripe-mock-${v.stdout.trim()}`);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const tmp = `${bin}.e2e-${process.pid}`;
  const b = spawnSync("go", ["build", "-o", tmp, MODULE], { cwd: ROOT_DIR, encoding: "utf8", timeout: 600_000 });
  assert.equal(b.status, 0, `go build ${MODULE}: ${b.stderr}`);
  renameSync(tmp, bin);
  return bin;
}

const mockPort = await freePort();
let mock = null;
before(
  async () => {
    mock = spawn(stripeMockBinary(), ["-http-addr", `127.0.0.1:${mockPort}`, "-https-addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    await new Promise((resolve, reject) => {
      const seen = (chunk) => {
        out += chunk;
        if (out.includes("Listening for HTTP at address")) resolve();
      };
      mock.stdout.on("data", seen);
      mock.stderr.on("data", seen);
      mock.on("exit", (code) => reject(new Error(`stripe-mock exited ${code}:\n${out}`)));
    });
  },
  { timeout: 660_000 },
);
after(() => mock?.kill());

const ctx = setup({
  name: "membership-checkout",
  env: {
    LINEAGE_STRIPE_SECRET_KEY: "sk_test_123",
    LINEAGE_STRIPE_API: `http://127.0.0.1:${mockPort}`,
    LINEAGE_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  },
});

/** Posts a Stripe event signed as Stripe does (t=…,v1=HMAC-SHA256 of "t.body"). */
async function deliver(event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", WEBHOOK_SECRET).update(`${t}.${body}`).digest("hex");
  const res = await fetch(ctx.server.at("/api/stripe/webhook"), {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": `t=${t},v1=${v1}` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

async function api(p) {
  const res = await fetch(ctx.server.at(p));
  assert.equal(res.status, 200, `GET ${p}`);
  return res.json();
}

describe("card payment through Stripe Checkout", () => {
  test("teaser → /subscribe → a plan → Checkout → processing until the signed webhook → the whole record", { timeout: 180_000 }, async () => {
    const { card_payments: cards } = await api("/api/membership/plans");
    assert.equal(cards, true, "card payments are on with a Stripe key");
    const [result] = (await api("/api/research/search?collection=wills-index&sort=date&limit=1")).results;
    assert.ok(result?.teaser, "the demo's wills are members-only");
    const record = `${HUB}/records/${result.id}`;

    const email = `carder-${Date.now()}@example.org`;
    runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", PASSWORD, "--name", "Cara Card", "--role", "registered"], {
      env: { LINEAGE_DATABASE_URL: "" },
    });
    const page = await ctx.newPage();
    const checkoutVisits = [];
    // Stripe's hosted page, played by a test page: the member "pays" and comes back.
    await page.route("https://checkout.stripe.com/**", async (route) => {
      checkoutVisits.push(route.request().url());
      const session = new URL(route.request().url()).pathname.split("/").pop();
      const back = ctx.server.at(`/user-account/membership?checkout=success&session_id=${encodeURIComponent(session)}`);
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><title>Checkout (test)</title><main><h1>Checkout (test)</h1><p><a href="${back}">Return to the society</a></p></main></html>`,
      });
    });

    await ctx.visit(page, `/sign-in?redirect=${encodeURIComponent(record)}`);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === record);
    await page.getByRole("heading", { level: 2, name: "Join to see the whole record" }).waitFor();
    await page.getByRole("link", { name: "Join or renew" }).click();
    await page.waitForURL((u) => u.pathname === "/subscribe");
    await checkA11y(page, "/subscribe (card payments)");
    assert.equal(await page.getByRole("heading", { name: "How to pay" }).count(), 0, "no 'cards are off' notice");
    await page.getByRole("link", { name: "Choose Life" }).click();
    await page.waitForURL((u) => u.pathname === "/subscribe/life");
    await checkA11y(page, "/subscribe/life (card payments)");
    await page.getByRole("button", { name: "Join and pay by card" }).click();

    // Off to Checkout, with a pending membership behind it.
    await page.getByRole("heading", { name: "Checkout (test)" }).waitFor();
    assert.equal(checkoutVisits.length, 1);
    const mine = await (await page.context().request.get(ctx.server.at("/api/membership"))).json();
    assert.equal(mine.membership.status, "pending");
    assert.equal(mine.membership.plan.slug, "life");

    // Back before the webhook: processing, never "received".
    await page.getByRole("link", { name: "Return to the society" }).click();
    await page.waitForURL((u) => u.pathname === "/user-account/membership");
    await page.getByText("We are processing your payment.").waitFor();
    assert.equal(await page.getByText("your payment has been received").count(), 0);
    await checkA11y(page, "/user-account/membership?checkout=success (processing)");

    // Stripe tells the webhook; the page, still asking, shows the membership active.
    const id = String(mine.membership.id);
    const delivered = await deliver({
      id: `evt_e2e_${Date.now()}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      // The API version of the pinned stripe-go (v82.5.1), which the webhook insists on.
      api_version: "2025-08-27.basil",
      livemode: false,
      pending_webhooks: 1,
      data: {
        object: {
          id: "cs_test_e2e",
          object: "checkout.session",
          mode: "payment",
          payment_status: "paid",
          status: "complete",
          client_reference_id: id,
          metadata: { kind: "membership", membership_id: id },
          amount_total: 40000,
          currency: "gbp",
          customer: "cus_e2e",
          customer_details: { email },
          payment_intent: "pi_e2e",
        },
      },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const thanks = page.getByText("Thank you: your payment has been received");
    const slow = page.getByText("This is taking longer than usual.", { exact: false });
    await thanks.or(slow).waitFor({ timeout: 30_000 });
    // A loaded machine can outlast the page's few polls; a reload then shows the same.
    if (await slow.isVisible()) await ctx.visit(page, "/user-account/membership?checkout=success&session_id=cs_test_e2e");
    await thanks.waitFor();
    assert.match(await page.locator("main dl").first().innerText(), /Life member/);
    await checkA11y(page, "/user-account/membership?checkout=success (paid)");

    // The record opens.
    await ctx.visit(page, record);
    await page.getByRole("heading", { level: 2, name: "People in this record" }).waitFor();
  });
});
