import { describe, expect, test } from "vitest";
import type { Booking, EventBooking, TicketType } from "./booking-types";
import {
  bookingPanel,
  bookingStatusText,
  cancelConsequence,
  fromPriceText,
  modeLines,
  placesText,
  priceText,
  stateBadge,
  ticketPriceText,
  ticketsText,
} from "./booking-text";

const NOW = new Date("2026-11-25T12:00:00Z");

function event(over: Partial<EventBooking> = {}): EventBooking {
  return {
    uid: "dna",
    title: "DNA",
    starts_at: "2026-12-02T19:00:00Z",
    ends_at: "2026-12-02T20:30:00Z",
    location: "Online",
    state: "open",
    cancelled: false,
    opens_at: null,
    closes_at: null,
    waitlist: true,
    max_per_booking: 4,
    refund_rule: "Full refund up to 48 hours before.",
    refund_cutoff_hours: 48,
    modes: { in_person: { capacity: 0, left: 0, state: "not_offered" }, online: { capacity: 5, left: 3, state: "open" } },
    ticket_types: [],
    currency: "GBP",
    card_payments: true,
    my_bookings: [],
    ...over,
  };
}

const booking = (over: Partial<Booking> = {}) =>
  ({
    status: "confirmed",
    awaiting: null,
    offer_expires_at: null,
    waitlist_position: null,
    cancel_reason: null,
    refunded_amount: 0,
    currency: "GBP",
    paid: true,
    total: 1100,
    refund_if_cancelled: true,
    ...over,
  }) as Booking;

describe("prices", () => {
  test("minor units as pounds and pence, nothing to pay as Free", () => {
    expect(priceText(300, "GBP")).toBe("£3.00");
    expect(priceText(0, "GBP")).toBe("Free");
    expect(fromPriceText(250, "GBP")).toBe("From £2.50");
    expect(fromPriceText(0, "GBP")).toBe("Free");
  });

  test("an early-bird price says until when and what it becomes", () => {
    const type: TicketType = {
      key: "member", label: "Member", price: 200, regular_price: 300, early_bird: true,
      early_bird_ends_at: "2026-11-28T00:00:00Z", requires_scope: "member", eligible: true, note: "",
    };
    expect(ticketPriceText(type, "GBP")).toBe("£2.00 (early-bird price until Saturday 28 November 2026 at midnight; then £3.00)");
    expect(ticketPriceText({ ...type, early_bird: false, price: 300 }, "GBP")).toBe("£3.00");
  });
});

describe("places", () => {
  test("counts in words", () => {
    expect(placesText(0)).toBe("No places left");
    expect(placesText(1)).toBe("1 place left");
    expect(placesText(12)).toBe("12 places left");
  });

  test("only the modes the event offers, with their own state", () => {
    const e = event({
      modes: { in_person: { capacity: 3, left: 0, state: "waitlist" }, online: { capacity: 5, left: 3, state: "open" } },
    });
    expect(modeLines(e)).toEqual([
      { mode: "in_person", label: "In person", text: "Fully booked: waiting list" },
      { mode: "online", label: "Online", text: "3 places left" },
    ]);
    expect(modeLines(event()).map((l) => l.mode)).toEqual(["online"]);
  });
});

describe("the event page's panel", () => {
  test.each([
    ["open", "Places available", "book", "Book"],
    ["waitlist", "Fully booked", "waitlist", "Join the waiting list"],
    ["full", "Fully booked", null, ""],
    ["past", "Bookings closed", null, ""],
  ] as const)("%s → %s", (state, headline, action, label) => {
    const panel = bookingPanel(event({ state }), NOW)!;
    expect(panel.headline).toBe(headline);
    expect(panel.action).toBe(action);
    expect(panel.actionLabel).toBe(label);
  });

  test("closed: when bookings open later, it says when; after closing, that they closed", () => {
    expect(bookingPanel(event({ state: "closed", opens_at: "2026-11-30T09:00:00Z" }), NOW)!.headline).toBe(
      "Bookings open on Monday 30 November 2026 at 9am",
    );
    expect(bookingPanel(event({ state: "closed", opens_at: "2026-11-01T09:00:00Z", closes_at: "2026-11-20T09:00:00Z" }), NOW)!.headline).toBe(
      "Bookings closed",
    );
  });

  test("an event without bookings has no panel; a cancelled one says so", () => {
    expect(bookingPanel(event({ state: "not_bookable" }), NOW)).toBeNull();
    expect(bookingPanel(event({ state: "not_bookable", cancelled: true }), NOW)!.headline).toBe("This event has been cancelled");
  });
});

describe("badges", () => {
  test("the list's and calendar's words for each state", () => {
    expect(stateBadge({ state: "open", left: { in_person: 1, online: 2 } })).toEqual({ text: "Booking open: 3 places left", tone: "open" });
    expect(stateBadge({ state: "waitlist", left: { in_person: 0, online: 0 } })?.text).toBe("Fully booked: waiting list");
    expect(stateBadge({ state: "full", left: { in_person: 0, online: 0 } })?.text).toBe("Fully booked");
    expect(stateBadge({ state: "closed", left: { in_person: 0, online: 0 } })?.text).toBe("Bookings closed");
    expect(stateBadge({ state: "not_bookable", left: { in_person: 0, online: 0 }, cancelled: true })?.text).toBe("Cancelled");
    expect(stateBadge({ state: "not_bookable", left: { in_person: 0, online: 0 } })).toBeNull();
    expect(stateBadge({ state: "past", left: { in_person: 0, online: 0 } })).toBeNull();
  });
});

describe("a booking's status", () => {
  test.each([
    [{ status: "confirmed" }, "Booked"],
    [{ status: "attended" }, "Attended"],
    [{ status: "held", awaiting: "payment" }, "Waiting for payment"],
    [{ status: "held", awaiting: "email" }, "Waiting for you to confirm your email address"],
    [{ status: "waitlisted", waitlist_position: 2 }, "On the waiting list (number 2)"],
    [{ status: "waitlisted", offer_expires_at: "2026-11-27T12:00:00Z" }, "A place is offered to you until Friday 27 November 2026 at midday"],
    [{ status: "refunded", refunded_amount: 1100 }, "Cancelled and refunded £11.00"],
    [{ status: "refunded", refund_pending: true }, "Cancelled: a refund of £11.00 is on its way"],
    [{ status: "cancelled", cancel_reason: "event_cancelled" }, "Cancelled: the event was cancelled"],
    [{ status: "cancelled", cancel_reason: "hold_expired" }, "Cancelled: the payment was not made in time"],
    [{ status: "cancelled", cancel_reason: "booker" }, "Cancelled"],
  ] as [Partial<Booking>, string][])("%o → %s", (over, text) => {
    expect(bookingStatusText(booking(over))).toBe(text);
  });

  test("tickets with their attendees", () => {
    expect(ticketsText([{ label: "Member", name: "Ann Smith" }, { label: "Visitor", name: "Bob Smith" }])).toBe(
      "2 tickets: Member (Ann Smith), Visitor (Bob Smith)",
    );
    expect(ticketsText([{ label: "Free", name: "Ann" }])).toBe("1 ticket: Free (Ann)");
  });
});

describe("what cancelling means", () => {
  const rule = "Full refund if you cancel at least 48 hours before the event starts";
  test("a paid booking before the cutoff is refunded, and the rule is stated", () => {
    expect(cancelConsequence(booking(), rule)).toBe(
      "You will be refunded £11.00 to the card you paid with. Full refund if you cancel at least 48 hours before the event starts.",
    );
  });
  test("after the cutoff there is no refund", () => {
    expect(cancelConsequence(booking({ refund_if_cancelled: false }), rule)).toBe(
      "It is too late for a refund: you will not get your £11.00 back. Full refund if you cancel at least 48 hours before the event starts.",
    );
  });
  test("free bookings and the waiting list", () => {
    expect(cancelConsequence(booking({ paid: false, total: 0 }), rule)).toBe("Your places will be offered to other people.");
    expect(cancelConsequence(booking({ status: "waitlisted" }), rule)).toBe("You will leave the waiting list.");
  });
});
