import { describe, expect, test } from "vitest";
import type { EventBooking, TicketType } from "./booking-types";
import { bookingFields, bookingRequestFromForm, choiceQuery, ticketChoice, ticketRows, ticketsTotal } from "./booking-form";
import { formData as form } from "../../lib/form-data.test-support";

const type = (key: string, price: number, over: Partial<TicketType> = {}): TicketType => ({
  key, label: key[0]!.toUpperCase() + key.slice(1), price, regular_price: price, early_bird: false,
  early_bird_ends_at: null, requires_scope: "", eligible: true, note: "", ...over,
});

const EVENT: Pick<EventBooking, "modes" | "ticket_types" | "max_per_booking"> = {
  modes: { in_person: { capacity: 3, left: 3, state: "open" }, online: { capacity: 5, left: 0, state: "waitlist" } },
  ticket_types: [
    type("member", 300, { requires_scope: "member", eligible: false, note: "Members' price: sign in as a member to choose it." }),
    type("visitor", 800),
    type("concession", 500),
  ],
  max_per_booking: 4,
};

const params = (q: string) => new URLSearchParams(q);

describe("ticketChoice (step 1)", () => {
  test("nothing chosen yet: no errors", () => {
    expect(ticketChoice(params(""), EVENT)).toMatchObject({ chosen: false, total: 0, errors: {} });
  });

  test("counts by type and the mode", () => {
    const c = ticketChoice(params("mode=in_person&qty.member=0&qty.visitor=2&qty.concession=1"), EVENT);
    expect(c).toEqual({ mode: "in_person", counts: { visitor: 2, concession: 1 }, total: 3, chosen: true, errors: {} });
  });

  test("the mode is required when the event offers both, and not asked when it offers one", () => {
    expect(ticketChoice(params("qty.visitor=1"), EVENT).errors).toEqual({ mode: ["Choose how you will attend."] });
    const online = { ...EVENT, modes: { ...EVENT.modes, in_person: { capacity: 0, left: 0, state: "not_offered" as const } } };
    expect(ticketChoice(params("qty.visitor=1"), online).mode).toBe("online");
    expect(ticketChoice(params("mode=in_person&qty.visitor=1"), online).mode).toBe("online");
  });

  test("no tickets, too many, a members' price not open to the visitor, a count that is not a number", () => {
    expect(ticketChoice(params("mode=online&qty.visitor=0"), EVENT).errors).toEqual({ tickets: ["Choose at least one ticket."] });
    expect(ticketChoice(params("mode=online&qty.visitor=3&qty.concession=2"), EVENT).errors).toEqual({
      tickets: ["You can book at most 4 tickets at a time."],
    });
    expect(ticketChoice(params("mode=online&qty.member=1"), EVENT).errors).toEqual({
      "qty.member": ["Members' price: sign in as a member to choose it."],
    });
    expect(ticketChoice(params("mode=online&qty.visitor=two"), EVENT).errors).toEqual({ "qty.visitor": ["Choose how many tickets, as a number."] });
  });

  test("the choice goes back into step 1's URL", () => {
    expect(choiceQuery({ mode: "online", counts: { visitor: 2 } })).toBe("mode=online&qty.visitor=2");
  });
});

describe("ticket rows (step 2)", () => {
  test("one row per ticket in the order of the types, numbered within their type, and the total", () => {
    const rows = ticketRows({ concession: 1, visitor: 2 }, EVENT.ticket_types);
    expect(rows.map((r) => [r.index, r.type, r.number])).toEqual([
      [0, "visitor", 1],
      [1, "visitor", 2],
      [2, "concession", 1],
    ]);
    expect(ticketsTotal(rows)).toBe(2100);
    expect(bookingFields(rows, false)).toEqual([
      "mode", "tickets", "tickets.0.type", "tickets.0.name", "tickets.1.type", "tickets.1.name", "tickets.2.type", "tickets.2.name", "name", "email",
    ]);
    expect(bookingFields(rows, true)).not.toContain("email");
  });
});

describe("bookingRequestFromForm", () => {
  const ENTRIES: [string, string][] = [
    ["mode", "online"],
    ["tickets.0.type", "visitor"],
    ["tickets.0.name", "  Ann   Smith "],
    ["tickets.1.type", "concession"],
    ["tickets.1.name", "Bob Smith"],
    ["name", " Ann Smith"],
    ["email", " ann@example.org "],
  ];

  test("a visitor's booking: tickets with names, and their own name and email", () => {
    const { request, values } = bookingRequestFromForm(form(ENTRIES), false);
    expect(request).toEqual({
      mode: "online",
      tickets: [
        { type: "visitor", name: "Ann Smith" },
        { type: "concession", name: "Bob Smith" },
      ],
      name: "Ann Smith",
      email: "ann@example.org",
    });
    expect(values).toEqual({ "tickets.0.name": "Ann Smith", "tickets.1.name": "Bob Smith", name: "Ann Smith", email: "ann@example.org" });
  });

  test("signed in: the account's name and email are the API's to use", () => {
    const { request } = bookingRequestFromForm(form(ENTRIES), true);
    expect(request).not.toHaveProperty("email");
    expect(request).not.toHaveProperty("name");
  });

  test("an unknown mode is sent empty, for the API to refuse at its field", () => {
    expect(bookingRequestFromForm(form([["mode", "by-pigeon"]]), true).request).toEqual({ mode: "", tickets: [] });
  });
});
