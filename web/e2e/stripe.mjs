// Stripe in the browser suite: stripe-mock (built from the Go module cache at go.mod's
// pinned version, as internal/payments/stripetest does) started for a test file, and
// webhook events signed as Stripe signs them. Stripe's hosted Checkout page is played
// by a test page (checkoutPage).
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import http from "node:http";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, ROOT_DIR } from "./harness.mjs";

const MODULE = "github.com/stripe/stripe-mock";
export const WEBHOOK_SECRET = "whsec_lineage_e2e";
/** The API version of the pinned stripe-go (v82.5.1), which the webhook insists on. */
export const STRIPE_API_VERSION = "2025-08-27.basil";

/** stripe-mock built from the Go module cache at go.mod's pinned version. */
export function stripeMockBinary() {
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

/**
 * Starts stripe-mock for the calling test file (before its first test, stopped after
 * its last), behind a recording proxy, and returns `env`, the server environment that
 * points lineage at it, and `checkouts`: the parameters of every Checkout Session lineage
 * asked for (`success_url`, `cancel_url`…), newest last — where Stripe would send the
 * browser back. Call it before setup(), so the mock is up before the server starts.
 */
export async function useStripeMock() {
  const [port, proxyPort] = [await freePort(), await freePort()];
  const checkouts = [];
  let mock = null;
  let proxy = null;
  before(
    async () => {
      mock = spawn(stripeMockBinary(), ["-http-addr", `127.0.0.1:${port}`, "-https-addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
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
      proxy = http.createServer((req, res) => {
        const chunks = [];
        req.on("data", (c) => chunks.push(c));
        req.on("end", () => {
          const body = Buffer.concat(chunks);
          if (req.method === "POST" && req.url.startsWith("/v1/checkout/sessions")) {
            checkouts.push(Object.fromEntries(new URLSearchParams(body.toString("utf8"))));
          }
          const forward = http.request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
            res.writeHead(answer.statusCode, answer.headers);
            answer.pipe(res);
          });
          forward.on("error", (err) => {
            res.writeHead(502);
            res.end(String(err));
          });
          forward.end(body);
        });
      });
      await new Promise((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
    },
    { timeout: 660_000 },
  );
  after(() => {
    proxy?.close();
    mock?.kill();
  });
  return {
    env: {
      LINEAGE_STRIPE_SECRET_KEY: "sk_test_123",
      LINEAGE_STRIPE_API: `http://127.0.0.1:${proxyPort}`,
      LINEAGE_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
    checkouts,
  };
}

/** Posts a Stripe event to the server's webhook, signed as Stripe does (t=…,v1=HMAC-SHA256 of "t.body"). */
export async function deliverWebhook(server, event) {
  const body = JSON.stringify({ object: "event", api_version: STRIPE_API_VERSION, livemode: false, pending_webhooks: 1, created: Math.floor(Date.now() / 1000), ...event });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", WEBHOOK_SECRET).update(`${t}.${body}`).digest("hex");
  const res = await fetch(server.at("/api/stripe/webhook"), {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": `t=${t},v1=${v1}` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Plays Stripe's hosted Checkout page in `page`: every visit to checkout.stripe.com is
 * answered by a test page with a link back to `await returnTo(sessionId)` (Stripe's
 * success URL) and, with `cancelTo`, one that leaves without paying (its cancel URL).
 * Returns the list of visited Checkout URLs.
 */
export async function checkoutPage(page, returnTo, cancelTo) {
  const visits = [];
  await page.route("https://checkout.stripe.com/**", async (route) => {
    visits.push(route.request().url());
    const session = new URL(route.request().url()).pathname.split("/").pop();
    await route.fulfill({
      status: 200,
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><title>Checkout (test)</title><main><h1>Checkout (test)</h1><p><a href="${await returnTo(session)}">Return to the society</a></p>${cancelTo ? `<p><a href="${await cancelTo(session)}">Go back without paying</a></p>` : ""}</main></html>`,
    });
  });
  return visits;
}
