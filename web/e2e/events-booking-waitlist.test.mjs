// Event bookings without an account: the demo's "Researching London
// ancestors" day has two free places in person. The demo member takes both; a visitor
// finds it fully booked, joins the waiting list with their name and email, confirms by
// the mailed link, and when the member cancels is offered the place by email and takes
// it. Also: the whole booking form by keyboard alone, and without JavaScript. Mail is
// read from the server's <data>/mail/*.eml. Chromium against the real binary, axe on
// every page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";
import { mailedLink } from "./mail.mjs";
import { apiGet, demoAccounts } from "./events-helpers.mjs";

const ctx = setup({ name: "events-booking-waitlist" });
const UID = "researching-london-ancestors-february-2027";
const EVENT = `/sog-events/${UID}`;
const OPEN_DAY = "/sog-events/family-history-open-day-may-2027";

describe("the waiting list", () => {
  test("full → a visitor joins the list and confirms by email → a cancellation offers them the place → they take it", { timeout: 180_000 }, async () => {
    // The member books both places (free: confirmed at once).
    const member = await ctx.newPage();
    await signIn(ctx, member, (await demoAccounts(ctx.server)).member, EVENT);
    await waitForHydration(member);
    const before = await apiGet(member, `/api/events/${UID}/booking`);
    assert.equal(before.modes.in_person.left, 2);
    await member.locator("section.booking-panel").getByRole("link", { name: /^Book\b/ }).click();
    await member.getByLabel(/^Free admission: /).selectOption("2");
    await member.getByRole("button", { name: "Continue" }).click();
    await member.getByLabel("Name on ticket 2 (Free admission)").fill("Edith Member");
    await member.getByRole("button", { name: "Book", exact: true }).click();
    await member.waitForURL((u) => u.pathname === `${EVENT}/booked`);
    await member.getByText(/You.re booked\./).waitFor();
    await checkA11y(member, `${EVENT}/booked (free)`);

    // A visitor finds it full and joins the waiting list.
    const email = `waiting-${Date.now()}@example.org`;
    // On a phone: no page of the journey scrolls sideways.
    const visitor = await ctx.newPage({ viewport: { width: 390, height: 844 } });
    const narrow = async (what) => {
      const width = await visitor.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${what} is ${width}px wide at 390px`);
    };
    await ctx.visit(visitor, EVENT);
    await narrow(EVENT);
    const box = visitor.locator("section.booking-panel");
    await box.getByText("Fully booked", { exact: true }).waitFor();
    await box.getByRole("link", { name: /^Join the waiting list/ }).click();
    await visitor.waitForURL((u) => u.pathname === `${EVENT}/book`);
    await visitor.getByText("This event is fully booked. You can join the waiting list.").waitFor();
    await visitor.getByLabel(/^Free admission: /).selectOption("1");
    await visitor.getByRole("button", { name: "Continue" }).click();
    await visitor.getByText("In person: fully booked, so you will join the waiting list").waitFor();
    await visitor.getByLabel("Name on ticket 1 (Free admission)").fill("Walter Waiting");
    await visitor.getByLabel("Your name").fill("Walter Waiting");
    await visitor.getByLabel("Your email address").fill(email);
    await checkA11y(visitor, `${EVENT}/book (waiting list, step 2)`);
    await narrow(`${EVENT}/book (step 2)`);
    await visitor.getByRole("button", { name: "Join the waiting list" }).click();
    await visitor.getByRole("heading", { name: "Check your email to confirm" }).waitFor();
    await visitor.getByText(email).waitFor();
    await checkA11y(visitor, `${EVENT}/book (check your email)`);

    // The mailed link confirms the address: on the list.
    await ctx.visit(visitor, await mailedLink(ctx.server, email, "/sog-events/bookings/confirm?token="));
    await checkA11y(visitor, "/sog-events/bookings/confirm");
    await visitor.getByRole("button", { name: "Confirm my booking" }).click();
    await visitor.getByText(/You.re on the waiting list\./).waitFor();
    await visitor.getByText(/^On the waiting list/).waitFor();
    await checkA11y(visitor, "/sog-events/bookings/confirm (waiting)");

    // The member cancels; the place is offered to the visitor by email.
    await ctx.visit(member, "/user-account/bookings");
    await member.getByRole("link", { name: /^Cancel this booking/ }).click();
    await member.getByText("Your places will be offered to other people.").waitFor();
    await member.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await member.getByText("Your booking is cancelled.").waitFor();

    await ctx.visit(visitor, await mailedLink(ctx.server, email, "/sog-events/bookings/offer?token="));
    await visitor.getByRole("heading", { level: 1, name: "A place is free for you" }).waitFor();
    await checkA11y(visitor, "/sog-events/bookings/offer");
    await visitor.getByRole("button", { name: "Take the place" }).click();
    await visitor.getByText(/You.re booked\./).waitFor();
    await checkA11y(visitor, "/sog-events/bookings/offer (taken)");

    // The booking's own page (its key in the link, as in its emails) says so too.
    await visitor.getByRole("link", { name: "See or cancel this booking" }).click();
    await visitor.waitForURL((u) => u.pathname.startsWith("/sog-events/bookings/B-") && u.searchParams.has("key"));
    const mailed = new URL(await mailedLink(ctx.server, email, "/sog-events/bookings/B"));
    assert.equal(new URL(visitor.url()).pathname + new URL(visitor.url()).search, mailed.pathname + mailed.search, "the page's link is the emails' link");
    await visitor.locator("article.booking-card").getByText("Booked", { exact: true }).waitFor();
    assert.match(await visitor.locator("article.booking-card").innerText(), /Walter Waiting \(Free admission, Free\)/);
    await checkA11y(visitor, "/sog-events/bookings/{ref}?key=…");
    await narrow("/sog-events/bookings/{ref}");

    // The key is enough to cancel it, too (a visitor has no account).
    await visitor.getByRole("link", { name: /^Cancel this booking/ }).click();
    await visitor.getByRole("heading", { name: "Cancel this booking?" }).waitFor();
    await visitor.getByText("Your places will be offered to other people.").waitFor();
    await checkA11y(visitor, "/sog-events/bookings/{ref}?key=…&cancel=1");
    await visitor.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await visitor.getByText("Your booking is cancelled.").waitFor();
    await visitor.locator("article.booking-card").getByText("Cancelled", { exact: true }).waitFor();
    assert.equal((await apiGet(visitor, `/api/events/${UID}/booking`)).modes.in_person.left, 2, "both places are free again");
  });
});

describe("the booking form", () => {
  test("by keyboard alone: to the form, the tickets, names and email, the API's error at its field, then done", { timeout: 120_000 }, async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, OPEN_DAY);
    await waitForHydration(page);
    const focused = () => page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.tagName.toLowerCase()}|${el.getAttribute("name") ?? ""}|${(el.textContent ?? "").trim().slice(0, 40)}` : "";
    });
    /** Tabs forward until `want` matches what has focus. */
    async function tabTo(want, limit = 80) {
      for (let i = 0; i < limit; i++) {
        await page.keyboard.press("Tab");
        if (want.test(await focused())) return;
      }
      assert.fail(`Tab never reached ${want} (last: ${await focused()})`);
    }

    await tabTo(/^a\|\|Book/);
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === `${OPEN_DAY}/book`);
    await waitForHydration(page);
    await tabTo(/^select\|qty\.free\|/);
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.getByLabel(/^Free admission: /).inputValue(), "1");
    await tabTo(/^button\|\|Continue/);
    await page.keyboard.press("Enter");

    await page.getByRole("heading", { name: "Your tickets" }).waitFor();
    await tabTo(/^input\|tickets\.0\.name\|/);
    await page.keyboard.type("Kay Board");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Kay Board");
    await page.keyboard.press("Tab");
    assert.match(await focused(), /^input\|email\|/);
    await page.keyboard.type("not an address");
    await page.keyboard.press("Enter");

    // The API refuses the address: the message is next to the field, which has focus.
    const emailField = page.getByLabel("Your email address");
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "email" && document.activeElement.getAttribute("aria-invalid") === "true");
    const describedBy = (await emailField.getAttribute("aria-describedby")).split(" ");
    const errorText = await page.locator(`#${describedBy.at(-1)}`).innerText();
    assert.match(errorText, /^Error:/);
    await page.getByRole("heading", { name: "There is a problem" }).waitFor();
    await checkA11y(page, `${OPEN_DAY}/book (email refused)`);
    ctx.expectProblem(page, { url: /\/book\.data/, status: 422 }, "the test sends an address the API refuses");

    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(`kay-${Date.now()}@example.org`);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Check your email to confirm" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "check-email");
  });

  test("without JavaScript: both steps are plain forms", { timeout: 90_000 }, async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `${OPEN_DAY}/book`);
    await page.getByLabel(/^Free admission: /).selectOption("2");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((u) => u.searchParams.get("qty.free") === "2");
    await checkA11y(page, `${OPEN_DAY}/book?qty.free=2 (no JavaScript)`);
    // Nothing typed: the API's messages at each field, the first with autofocus.
    ctx.expectProblem(page, { url: /\/book(\?|$)/, status: 422 }, "the test posts the form empty");
    await page.getByRole("button", { name: "Book", exact: true }).click();
    await page.getByRole("heading", { name: "There is a problem" }).waitFor();
    assert.equal(await page.locator('[aria-invalid="true"]').first().getAttribute("autofocus"), "");
    await checkA11y(page, `${OPEN_DAY}/book (errors, no JavaScript)`);
    await page.getByLabel("Name on ticket 1 (Free admission)").fill("Nora Script");
    await page.getByLabel("Name on ticket 2 (Free admission)").fill("Ned Script");
    await page.getByLabel("Your name").fill("Nora Script");
    await page.getByLabel("Your email address").fill(`nora-${Date.now()}@example.org`);
    await page.getByRole("button", { name: "Book", exact: true }).click();
    await page.getByRole("heading", { name: "Check your email to confirm" }).waitFor();
  });
});
