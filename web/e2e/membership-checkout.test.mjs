// Membership by card: a registered user meets the paywall on a members-only
// record, picks a plan on /subscribe, is sent to Stripe Checkout — stripe-mock makes the
// session; the browser's visit to checkout.stripe.com is answered by a test page — and
// returns to "processing" until the signed checkout.session.completed event reaches
// the webhook; then the record opens. In Chromium against the real binary, axe on
// every page visited.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { addUser, checkA11y, getJSON, setup, signIn } from "./harness.mjs";
import { checkoutPage, deliverWebhook, useStripeMock } from "./stripe.mjs";

const HUB = "/research-hub/our-collections";
const ctx = setup({ name: "membership-checkout", env: (await useStripeMock()).env });

const api = (p) => getJSON(ctx, p);

describe("card payment through Stripe Checkout", () => {
  test("teaser → /subscribe → a plan → Checkout → processing until the signed webhook → the whole record", { timeout: 180_000 }, async () => {
    const { card_payments: cards } = await api("/api/membership/plans");
    assert.equal(cards, true, "card payments are on with a Stripe key");
    const [result] = (await api("/api/research/search?collection=wills-index&sort=date&limit=1")).results;
    assert.ok(result?.teaser, "the demo's wills are members-only");
    const record = `${HUB}/records/${result.id}`;

    const email = addUser(ctx, "registered", "Cara Card");
    const page = await ctx.newPage();
    // Stripe's hosted page, played by a test page: the member "pays" and comes back.
    const checkoutVisits = await checkoutPage(page, (session) =>
      ctx.server.at(`/user-account/membership?checkout=success&session_id=${encodeURIComponent(session)}`),
    );

    await signIn(ctx, page, { email }, record);
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
    const delivered = await deliverWebhook(ctx.server, {
      id: `evt_e2e_${Date.now()}`,
      type: "checkout.session.completed",
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
