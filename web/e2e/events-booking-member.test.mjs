// Event bookings, a member paying: the demo's online DNA talk has a members'
// price. A visitor sees the places left, the price they would pay and why the members'
// price is not theirs, and the same state as a badge in the events list and calendar.
// The demo member books a members'-price ticket, is sent to Stripe Checkout (stripe-mock
// behind the server; the hosted page played by a test page), comes back to
// "processing" until the signed checkout.session.completed reaches the webhook, sees
// the booking in the account area (.ics, joining details) and cancels it, told the
// refund rule first. A visitor pays too, confirming their address first, and their key
// from the emails and Stripe's return opens their booking without an account.
// Chromium against the real binary, axe on every page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";
import { checkoutPage, deliverWebhook, useStripeMock } from "./stripe.mjs";
import { apiGet, demoAccounts } from "./events-helpers.mjs";
import { mailedLink } from "./mail.mjs";

const stripe = await useStripeMock();
const ctx = setup({ name: "events-booking-member", env: stripe.env });
/** Where Stripe sends the browser back: the URLs lineage gave the newest Checkout Session. */
const successUrl = () => stripe.checkouts.at(-1).success_url;
const cancelUrl = () => stripe.checkouts.at(-1).cancel_url;
const UID = "dna-introduction-december-2026";
const EVENT = `/sog-events/${UID}`;
const GBP = (minor) => `£${(minor / 100).toFixed(2)}`;

describe("the booking state for visitors", () => {
  test("the event page shows places left and prices with the members' price explained; the list and calendar show a badge", { timeout: 90_000 }, async () => {
    const page = await ctx.newPage();
    const state = await apiGet(page, `/api/events/${UID}/booking`);
    assert.equal(state.state, "open");
    const member = state.ticket_types.find((t) => t.key === "member");
    const visitor = state.ticket_types.find((t) => t.key === "visitor");
    assert.equal(member.eligible, false);

    await ctx.visit(page, EVENT);
    const box = page.locator("section.booking-panel");
    await box.getByRole("heading", { name: "Booking" }).waitFor();
    await box.getByText("Places available").waitFor();
    assert.match(await box.locator("dl").innerText(), new RegExp(`Online\\s+${state.modes.online.left} places left`));
    const prices = await box.locator(".booking-prices").innerText();
    assert.match(prices, new RegExp(`Member: ${GBP(member.price).replace(".", "\\.")}`));
    assert.match(prices, /Members' price: sign in as a member to choose it\./);
    assert.match(prices, new RegExp(`Visitor: ${GBP(visitor.price).replace(".", "\\.")}`));
    await box.getByRole("link", { name: /^Book\b/ }).waitFor();
    await box.getByText(state.refund_rule).waitFor();

    // The list's card and the calendar of December 2026 carry the same state.
    await ctx.visit(page, "/sog-events");
    const card = page.locator(".event-card", { has: page.locator(`a[href="${EVENT}"]`) });
    assert.equal((await card.locator(".booking-badge").innerText()).trim(), `Booking open: ${state.modes.online.left} places left`);
    await ctx.visit(page, "/sog-events?month=2026-12");
    const inCalendar = page.locator(".event-calendar__table li", { has: page.locator(`a[href="${EVENT}"]`) });
    assert.match(await inCalendar.locator(".booking-badge").innerText(), /Booking open/);

    // The join page lists the bookable events under its content.
    await ctx.visit(page, "/sog-events/join");
    const bookable = page.locator("section", { has: page.getByRole("heading", { name: "Upcoming events you can book" }) });
    await bookable.getByRole("link", { name: state.title, exact: true }).waitFor();
  });
});

describe("a member books at the members' price and pays by card", () => {
  test("book → Checkout → processing until the signed webhook → booked → the account's bookings → cancel with a refund", { timeout: 180_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);
    const page = await ctx.newPage();
    const visits = await checkoutPage(page, successUrl);
    await signIn(ctx, page, accounts.member, EVENT);
    await waitForHydration(page);

    const state = await apiGet(page, `/api/events/${UID}/booking`);
    const member = state.ticket_types.find((t) => t.key === "member");
    assert.equal(member.eligible, true, "the demo member's membership is in force");
    const box = page.locator("section.booking-panel");
    await box.getByText("You get the members’ price because your membership is active.").waitFor();
    await checkA11y(page, `${EVENT} (member)`);
    await box.getByRole("link", { name: /^Book\b/ }).click();

    // Step 1: one members' ticket (online is the only way to attend).
    await page.waitForURL((u) => u.pathname === `${EVENT}/book`);
    await page.getByRole("heading", { level: 1, name: `Book: ${state.title}` }).waitFor();
    await checkA11y(page, `${EVENT}/book (member, step 1)`);
    await page.getByLabel(/^Member: /).selectOption("1");
    await page.getByRole("button", { name: "Continue" }).click();

    // Step 2: the attendee's name is the member's; the total is the members' price.
    await page.getByRole("heading", { name: "Your tickets" }).waitFor();
    assert.ok((await page.getByLabel("Name on ticket 1 (Member)").inputValue()).length > 0, "the member's name is offered");
    await page.getByText(`Total: ${GBP(member.price)}`).waitFor();
    await checkA11y(page, `${EVENT}/book (member, step 2)`);
    await page.getByRole("button", { name: `Continue to payment (${GBP(member.price)})` }).click();

    // Off to Checkout with the booking held; back before the webhook: processing.
    await page.getByRole("heading", { name: "Checkout (test)" }).waitFor();
    assert.equal(visits.length, 1);
    const held = (await apiGet(page, "/api/bookings")).upcoming.find((b) => b.event_uid === UID);
    assert.equal(held.status, "held");
    assert.equal(held.awaiting, "payment");
    assert.equal(held.total, member.price);
    await page.getByRole("link", { name: "Return to the society" }).click();
    await page.waitForURL((u) => u.pathname === `${EVENT}/booked`);
    await page.getByText("We are processing your payment.").waitFor();
    const own = await page.context().request.get(page.url());
    assert.equal(own.headers()["cache-control"], "private, no-store", "a booking's page is never kept by the page cache");
    assert.equal(await page.getByText(/You.re booked/).count(), 0, "never booked before the webhook says so");
    await checkA11y(page, `${EVENT}/booked (processing)`);

    // Until then the booking's page offers the payment again, until the hold ends.
    await ctx.visit(page, `/sog-events/bookings/${held.ref}`);
    const pay = page.getByRole("link", { name: `Complete your payment (${GBP(held.total)})` });
    assert.match(await pay.getAttribute("href"), /^https:\/\/checkout\.stripe\.com\//);
    await page.getByText("Waiting for payment", { exact: true }).waitFor();
    await page.goBack();
    await page.getByText("We are processing your payment.").waitFor();

    const delivered = await deliverWebhook(ctx.server, {
      id: `evt_booking_${Date.now()}`,
      type: "checkout.session.completed",
      data: {
        object: {
          id: `cs_test_booking_${Date.now()}`,
          object: "checkout.session",
          mode: "payment",
          payment_status: "paid",
          status: "complete",
          client_reference_id: held.ref,
          metadata: { kind: "booking", booking_id: held.ref },
          amount_total: held.total,
          currency: "gbp",
          customer: "cus_e2e",
          customer_details: { email: accounts.member.email },
          payment_intent: `pi_booking_${Date.now()}`,
        },
      },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const booked = page.getByText(/You.re booked\./);
    const slow = page.getByText("This is taking longer than usual.", { exact: false });
    await booked.or(slow).waitFor({ timeout: 40_000 });
    // A loaded machine can outlast the page's polls; a reload then shows the same.
    if (await slow.isVisible()) await ctx.visit(page, `${EVENT}/booked?ref=${held.ref}`);
    await booked.waitFor();
    await checkA11y(page, `${EVENT}/booked (confirmed)`);

    // The event page now names the member's booking instead of offering "Book".
    await ctx.visit(page, EVENT);
    await box.getByRole("link", { name: `Booking ${held.ref}: Booked` }).waitFor();
    assert.equal(await box.getByRole("link", { name: /^Book\b/ }).count(), 0);

    // The account area, reached from the account menu.
    await page.locator("header").getByText("Your account").click();
    await page.getByRole("link", { name: "Event bookings" }).click();
    await page.waitForURL((u) => u.pathname === "/user-account/bookings");
    const card = page.locator("article.booking-card", { has: page.getByText(held.ref, { exact: true }) });
    await card.getByText("Booked", { exact: true }).waitFor();
    assert.match(await card.innerText(), new RegExp(`\\(Member, ${GBP(member.price).replace(".", "\\.")}\\)`));
    // The joining details are for people holding an online booking.
    await card.getByRole("link", { name: /^Join the event online/ }).waitFor();
    await checkA11y(page, "/user-account/bookings");
    const ics = await page.context().request.get(await card.getByRole("link", { name: /Add to your calendar/ }).getAttribute("href"));
    assert.equal(ics.status(), 200);
    assert.match(ics.headers()["content-type"], /^text\/calendar/);
    assert.match(await ics.text(), /BEGIN:VCALENDAR[\s\S]*BEGIN:VEVENT/);

    // Cancel: first the refund rule, then the refund.
    await card.getByRole("link", { name: /^Cancel this booking/ }).click();
    await page.getByRole("heading", { name: "Cancel this booking?" }).waitFor();
    await page.getByText(`You will be refunded ${GBP(member.price)} to the card you paid with. ${state.refund_rule}`).waitFor();
    await checkA11y(page, "/user-account/bookings?cancel=… (confirm)");
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await page.getByText(/Your booking is cancelled/).waitFor();
    const past = page.locator("section", { has: page.getByRole("heading", { name: "Past and cancelled" }) });
    await past.getByText(new RegExp(`${held.ref}\\): Cancelled`)).waitFor();
    await checkA11y(page, "/user-account/bookings (cancelled)");
    const after = await apiGet(page, `/api/bookings/${held.ref}`);
    assert.ok(["refunded", "cancelled"].includes(after.booking.status), after.booking.status);
    assert.equal((await apiGet(page, `/api/events/${UID}/booking`)).modes.online.left, state.modes.online.left, "the place is free again");
  });
});

/** Stripe's checkout.session.completed for a booking, as the webhook gets it. */
function paidEvent(booking, email) {
  const n = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  return {
    id: `evt_booking_${n}`,
    type: "checkout.session.completed",
    data: {
      object: {
        id: `cs_test_booking_${n}`,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        status: "complete",
        client_reference_id: booking.ref,
        metadata: { kind: "booking", booking_id: booking.ref },
        amount_total: booking.total,
        currency: "gbp",
        customer: "cus_e2e_visitor",
        customer_details: { email },
        payment_intent: `pi_booking_${n}`,
      },
    },
  };
}

describe("a visitor pays by card", () => {
  test("book with name and email → confirm by email → Checkout, left unpaid → their booking from the event page → pay → booked", { timeout: 180_000 }, async () => {
    const email = `payer-${Date.now()}@example.org`;
    const page = await ctx.newPage();
    await checkoutPage(page, successUrl, cancelUrl);
    const state = await apiGet(page, `/api/events/${UID}/booking`);
    const visitor = state.ticket_types.find((t) => t.key === "visitor");

    await ctx.visit(page, `${EVENT}/book`);
    await page.getByLabel(/^Visitor: /).selectOption("1");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Name on ticket 1 (Visitor)").fill("Petra Payer");
    await page.getByLabel("Your name").fill("Petra Payer");
    await page.getByLabel("Your email address").fill(email);
    await page.getByRole("button", { name: `Continue to payment (${GBP(visitor.price)})` }).click();
    await page.getByRole("heading", { name: "Check your email to confirm" }).waitFor();

    // The mailed link confirms the address and goes on to Checkout, whose return URLs
    // carry the visitor's key (they have no account).
    await ctx.visit(page, await mailedLink(ctx.server, email, "/sog-events/bookings/confirm?token="));
    await page.getByRole("button", { name: "Confirm my booking" }).click();
    await page.getByRole("heading", { name: "Checkout (test)" }).waitFor();
    const success = new URL(successUrl());
    const ref = success.searchParams.get("ref");
    const key = success.searchParams.get("key");
    assert.ok(ref && key, `the success URL names the booking and its key: ${success}`);

    // Back without paying: the event page (private: it shows their booking) leads to it.
    await page.getByRole("link", { name: "Go back without paying" }).click();
    await page.waitForURL((u) => u.pathname === EVENT && u.searchParams.get("payment") === "cancelled");
    await page.getByText("You left the payment page before paying").waitFor();
    const back = await page.context().request.get(page.url());
    assert.equal(back.headers()["cache-control"], "private, no-store");
    await checkA11y(page, `${EVENT}?payment=cancelled`);
    await page.locator("section.booking-panel").getByRole("link", { name: `Booking ${ref}: Waiting for payment` }).waitFor();
    await page.getByRole("link", { name: "See your booking" }).click();
    await page.waitForURL((u) => u.pathname === `/sog-events/bookings/${ref}`);
    await page.getByRole("link", { name: `Complete your payment (${GBP(visitor.price)})` }).click();

    // Paid this time: processing until the webhook, then booked.
    await page.getByRole("heading", { name: "Checkout (test)" }).waitFor();
    await page.getByRole("link", { name: "Return to the society" }).click();
    await page.waitForURL((u) => u.pathname === `${EVENT}/booked`);
    await page.getByText("We are processing your payment.").waitFor();
    const held = (await apiGet(page, `/api/bookings/${ref}?key=${encodeURIComponent(key)}`)).booking;
    const delivered = await deliverWebhook(ctx.server, paidEvent(held, email));
    assert.equal(delivered.status, 200, delivered.text);
    const booked = page.getByText(/You.re booked\./);
    const slow = page.getByText("This is taking longer than usual.", { exact: false });
    await booked.or(slow).waitFor({ timeout: 40_000 });
    if (await slow.isVisible()) await ctx.visit(page, `${EVENT}/booked?ref=${ref}&key=${encodeURIComponent(key)}`);
    await booked.waitFor();
    await page.locator("article.booking-card").getByText("Booked", { exact: true }).waitFor();
    await checkA11y(page, `${EVENT}/booked (visitor, confirmed)`);
  });
});
