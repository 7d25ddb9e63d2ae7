// Event bookings, the editors' side on a phone (390 px wide): the demo
// editor opens an event's manage page from the event, finds the attendee the demo
// member booked, checks them in with a big button and undoes it, downloads the CSV,
// messages everyone booked, edits the booking settings (prices typed in pounds and
// pence, the form's and the API's errors at their fields) and cancels another event
// after a confirmation step. A member who is not an editor gets 404 there. Chromium
// against the real binary, axe on every page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, signIn, waitForHydration } from "./harness.mjs";
import { mails } from "./mail.mjs";
import { apiGet, demoAccounts } from "./events-helpers.mjs";

const ctx = setup({ name: "events-booking-checkin" });
const UID = "family-history-open-day-may-2027";
const EVENT = `/sog-events/${UID}`;
const MANAGE = `${EVENT}/manage`;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The page does not scroll sideways. */
async function assertNoSidewaysScroll(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${what} is ${width}px wide at 390px`);
}

describe("editors manage an event's bookings on a phone", () => {
  test("check-in with big buttons, CSV, a message to everyone, the settings form, and no entry for members", { timeout: 180_000 }, async () => {
    const accounts = await demoAccounts(ctx.server);

    // The demo member books one free place.
    const member = await ctx.newPage();
    await signIn(ctx, member, accounts.member, `${EVENT}/book?qty.free=1`);
    const memberName = (await apiGet(member, "/api/user")).name;
    await member.getByRole("button", { name: "Book", exact: true }).click();
    await member.getByText(/You.re booked\./).waitFor();
    const ref = (await apiGet(member, "/api/bookings")).upcoming.find((b) => b.event_uid === UID).ref;
    // Not an editor: the manage page does not exist for them.
    await ctx.visit(member, MANAGE, { status: 404 });

    // The editor, on a phone, from the event page.
    const editor = await ctx.newPage(PHONE);
    await signIn(ctx, editor, accounts.editor, EVENT);
    await waitForHydration(editor);
    await editor.getByRole("link", { name: "Manage bookings and check people in" }).click();
    await editor.waitForURL((u) => u.pathname === MANAGE);
    await editor.getByRole("heading", { level: 1, name: /^Bookings: / }).waitFor();
    await assertNoSidewaysScroll(editor, MANAGE);
    await checkA11y(editor, `${MANAGE} (390 px)`);

    // Find the member by name; check them in with a thumb-sized button.
    await editor.getByLabel("Find a name or booking reference").fill(memberName);
    await editor.getByRole("button", { name: "Find" }).click();
    await editor.waitForURL((u) => u.searchParams.get("q") === memberName);
    const card = editor.locator("li.attendee", { has: editor.getByText(ref, { exact: false }) });
    assert.equal(await editor.locator("li.attendee").count(), 1);
    const checkIn = card.getByRole("button", { name: `Check in ${memberName}` });
    const box = await checkIn.boundingBox();
    assert.ok(box.height >= 48 && box.width >= 300, `the check-in button is ${box.width}×${box.height}`);
    await checkIn.tap();
    const undo = card.getByRole("button", { name: `Undo check-in for ${memberName}` });
    await undo.waitFor();
    assert.match(await card.getAttribute("class"), /attendee--in/);
    await editor.getByText("1 checked in").waitFor();
    const attendees = await apiGet(editor, `/api/admin/events/${UID}/attendees`);
    assert.equal(attendees.bookings.find((b) => b.ref === ref).status, "attended");
    await assertNoSidewaysScroll(editor, `${MANAGE} (checked in)`);
    await checkA11y(editor, `${MANAGE} (checked in, 390 px)`);
    await undo.tap();
    await card.getByRole("button", { name: `Check in ${memberName}` }).waitFor();
    assert.equal((await apiGet(editor, `/api/admin/events/${UID}/attendees`)).bookings.find((b) => b.ref === ref).status, "confirmed");

    // The attendee list as CSV.
    const csv = await editor.context().request.get(await editor.getByRole("link", { name: "Download the attendee list (CSV)" }).getAttribute("href"));
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()["content-type"], /^text\/csv/);
    assert.match(await csv.text(), new RegExp(`${ref}.*${memberName}`));

    // A message to everyone booked.
    const subject = `Parking at the open day ${Date.now()}`;
    await editor.getByLabel("Subject").fill(subject);
    await editor.getByRole("textbox", { name: "Message", exact: true }).fill("The car park is closed; please come by bus.");
    await editor.getByRole("button", { name: "Send to everyone booked" }).click();
    await editor.getByText("Your message is on its way to 1 booker.").waitFor();
    const deadline = Date.now() + 15_000;
    while (!mails(ctx.server).some((m) => m.text.includes(subject) && m.text.includes(accounts.member.email))) {
      assert.ok(Date.now() < deadline, "the member got the message");
      await new Promise((r) => setTimeout(r, 200));
    }

    // Settings: a place count that is not a number is refused by the form itself…
    ctx.expectProblem(editor, { url: /\/manage\.data/, status: 422 }, "the test saves a place count that is not a number");
    const places = editor.getByLabel("Places in person");
    await places.fill("lots");
    await editor.getByLabel("Short name (letters, digits and hyphens)").nth(1).fill("supporter");
    await editor.getByLabel("Name shown to people booking").nth(1).fill("Supporter");
    await editor.getByLabel("Price in pounds", { exact: true }).nth(1).fill("5.50");
    await editor.getByRole("button", { name: "Save the booking settings" }).click();
    await editor.getByText("Enter the places in person as a whole number (0 if it is online only).").first().waitFor();
    assert.equal(await places.getAttribute("aria-invalid"), "true");
    await checkA11y(editor, `${MANAGE} (settings refused)`);
    // …then saved: £5.50 goes to the API as 550 pence.
    await places.fill("60");
    await editor.getByRole("button", { name: "Save the booking settings" }).click();
    await editor.getByText("The booking settings are saved.").waitFor();
    const settings = await apiGet(editor, `/api/admin/events/${UID}/booking-settings`);
    assert.equal(settings.capacity_in_person, 60);
    assert.deepEqual(
      settings.ticket_types.map((t) => [t.key, t.price]),
      [
        ["free", 0],
        ["supporter", 550],
      ],
    );
    assert.equal(await editor.getByLabel("Price in pounds", { exact: true }).nth(1).inputValue(), "5.50");
    await assertNoSidewaysScroll(editor, `${MANAGE} (settings)`);
  });

  test("cancelling an event asks first, then tells everyone and closes bookings", { timeout: 120_000 }, async () => {
    const other = "/sog-events/dna-introduction-december-2026";
    // A visitor's view of the event is in the page cache before the cancel.
    const visitor = await ctx.newPage();
    await ctx.visit(visitor, other);
    await visitor.locator("section.booking-panel").getByText("Places available").waitFor();
    const again = await visitor.context().request.get(other);
    assert.equal(again.headers()["x-lineage-cache"], "hit", "the anonymous event page is cached");

    const editor = await ctx.newPage(PHONE);
    await signIn(ctx, editor, (await demoAccounts(ctx.server)).editor, `${other}/manage`);
    await editor.getByRole("link", { name: "Cancel the event…" }).click();
    await editor.getByRole("heading", { name: "Are you sure you want to cancel the event?" }).waitFor();
    await checkA11y(editor, `${other}/manage?cancel-event=1`);
    await editor.getByLabel("A note to everyone (optional)").fill("The speaker is unwell.");
    await editor.getByRole("button", { name: "Yes, cancel the event" }).click();
    await editor.getByText(/^The event is cancelled\./).waitFor();
    const state = await apiGet(editor, "/api/events/dna-introduction-december-2026/booking");
    assert.equal(state.cancelled, true);

    // Everyone sees it at once: the cancel purged the page cache.
    await ctx.visit(visitor, other);
    await visitor.locator("section.booking-panel").getByText("This event has been cancelled").waitFor();
    await ctx.visit(visitor, "/sog-events");
    const card = visitor.locator(".event-card", { has: visitor.locator(`a[href="${other}"]`) });
    assert.equal((await card.locator(".booking-badge").innerText()).trim(), "Cancelled");
  });
});
