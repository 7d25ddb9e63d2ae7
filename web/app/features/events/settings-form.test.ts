import { describe, expect, test } from "vitest";
import type { BookingSettings } from "./booking-types";
import { londonLocalInput, parseLondonLocal, settingsBodyFromForm, settingsValues, ticketRowsFromForm } from "./settings-form";
import { formData as form } from "../../lib/form-data.test-support";

const BASE: [string, string][] = [
  ["enabled", "on"],
  ["opens_at", "2026-11-01T09:00"],
  ["closes_at", "2026-12-02 18:00"],
  ["capacity_in_person", "0"],
  ["capacity_online", "5"],
  ["max_per_booking", "4"],
  ["waitlist", "on"],
  ["refund_cutoff_hours", "48"],
  ["online_link", "https://meet.example.org/dna"],
  ["online_instructions", "Join ten minutes early.\n"],
  ["ticket_types.0.key", "member"],
  ["ticket_types.0.label", "Member"],
  ["ticket_types.0.price", "5"],
  ["ticket_types.0.requires_scope", "on"],
  ["ticket_types.0.early_bird_price", "£3.50"],
  ["ticket_types.0.early_bird_ends_at", "2026-11-28T00:00"],
  ["ticket_types.1.key", "Visitor"],
  ["ticket_types.1.label", "Visitor"],
  ["ticket_types.1.price", "8.00"],
  ["ticket_types.1.early_bird_price", ""],
  ["ticket_types.1.early_bird_ends_at", ""],
  ["ticket_types.2.key", ""],
  ["ticket_types.2.label", ""],
  ["ticket_types.2.price", ""],
];

describe("London times in the form", () => {
  test("an instant as a datetime-local value, in GMT and in BST", () => {
    expect(londonLocalInput("2026-12-02T19:00:00Z")).toBe("2026-12-02T19:00");
    expect(londonLocalInput("2026-06-20T13:00:00Z")).toBe("2026-06-20T14:00");
    expect(londonLocalInput(null)).toBe("");
  });

  test("a typed London time as a UTC instant; empty is none; nonsense is refused", () => {
    expect(parseLondonLocal("2026-12-02T19:00")).toBe("2026-12-02T19:00:00Z");
    expect(parseLondonLocal("2026-06-20 14:00")).toBe("2026-06-20T13:00:00Z");
    expect(parseLondonLocal("2026-06-20")).toBe("2026-06-19T23:00:00Z");
    expect(parseLondonLocal("")).toBeNull();
    expect(parseLondonLocal("next Tuesday")).toBeUndefined();
    expect(parseLondonLocal("2026-02-31T10:00")).toBeUndefined();
  });
});

describe("settingsBodyFromForm", () => {
  test("pounds and pence become minor units, London times UTC, rows left empty are dropped", () => {
    const { body, errors } = settingsBodyFromForm(form(BASE));
    expect(errors).toEqual({});
    expect(body).toEqual({
      enabled: true,
      opens_at: "2026-11-01T09:00:00Z",
      closes_at: "2026-12-02T18:00:00Z",
      capacity_in_person: 0,
      capacity_online: 5,
      max_per_booking: 4,
      waitlist: true,
      refund_cutoff_hours: 48,
      ticket_types: [
        { key: "member", label: "Member", price: 500, requires_scope: "member", early_bird_price: 350, early_bird_ends_at: "2026-11-28T00:00:00Z" },
        { key: "visitor", label: "Visitor", price: 800, requires_scope: "", early_bird_price: null, early_bird_ends_at: null },
      ],
      online_link: "https://meet.example.org/dna",
      online_instructions: "Join ten minutes early.",
    });
  });

  test("unchecked boxes are off; a row marked for removal goes", () => {
    const entries = BASE.filter(([k]) => k !== "enabled" && k !== "waitlist");
    entries.push(["ticket_types.0.remove", "on"]);
    const { body } = settingsBodyFromForm(form(entries));
    expect(body?.enabled).toBe(false);
    expect(body?.waitlist).toBe(false);
    expect(body?.ticket_types.map((t) => t.key)).toEqual(["visitor"]);
  });

  test("the form's own errors are keyed as the API's, by the row's place in the body, and nothing is sent", () => {
    const entries = BASE.map(([k, v]): [string, string] =>
      k === "ticket_types.1.price" ? [k, "8.505"] : k === "capacity_online" ? [k, "five"] : k === "opens_at" ? [k, "soon"] : [k, v],
    );
    entries.push(["ticket_types.0.remove", "on"]);
    const { body, errors, values } = settingsBodyFromForm(form(entries));
    expect(body).toBeNull();
    expect(errors).toEqual({
      opens_at: ["Enter the opening time as a date and time, such as 2026-12-01 09:00."],
      capacity_online: ["Enter the places online as a whole number (0 if it is in person only)."],
      "ticket_types.0.price": ["Give at most 2 digits after the decimal point."],
    });
    // The typed values go back, the rows renumbered as the errors are, with empty rows for new types.
    expect(values.ticket_types[0]).toMatchObject({ key: "visitor", price: "8.505" });
    expect(values.ticket_types).toHaveLength(3);
    expect(values.capacity_online).toBe("five");
  });

  test("a ticket row without a price asks for one", () => {
    const { errors } = settingsBodyFromForm(form([...BASE.filter(([k]) => k !== "ticket_types.1.price"), ["ticket_types.1.price", ""]]));
    expect(errors).toEqual({ "ticket_types.1.price": ["Enter the price, such as 5.00, or 0 for a free ticket."] });
  });
});

describe("settingsValues", () => {
  test("saved settings as the form shows them, with two empty rows to add types", () => {
    const saved: BookingSettings = {
      uid: "dna", exists: true, enabled: true, opens_at: null, closes_at: "2026-12-02T18:00:00Z",
      capacity_in_person: 0, capacity_online: 5, max_per_booking: 4, waitlist: true, refund_cutoff_hours: 48,
      ticket_types: [{ key: "member", label: "Member", price: 500, requires_scope: "member", early_bird_price: 300, early_bird_ends_at: "2026-11-28T00:00:00Z" }],
      online_link: "", online_instructions: "", cancelled_at: null, taken: { in_person: 0, online: 2 },
    };
    const v = settingsValues(saved);
    expect(v.closes_at).toBe("2026-12-02T18:00");
    expect(v.opens_at).toBe("");
    expect(v.ticket_types[0]).toEqual({ key: "member", label: "Member", price: "5.00", requires_scope: "member", early_bird_price: "3.00", early_bird_ends_at: "2026-11-28T00:00" });
    expect(v.ticket_types).toHaveLength(3);
    // And they read back as the same settings.
    const entries: [string, string][] = [["enabled", "on"], ["waitlist", "on"], ["closes_at", v.closes_at], ["capacity_online", "5"], ["max_per_booking", "4"], ["refund_cutoff_hours", "48"]];
    v.ticket_types.forEach((t, i) => {
      for (const [k, val] of Object.entries(t)) if (k !== "requires_scope") entries.push([`ticket_types.${i}.${k}`, val]);
      if (t.requires_scope) entries.push([`ticket_types.${i}.requires_scope`, "on"]);
    });
    expect(settingsBodyFromForm(form(entries)).body?.ticket_types).toEqual(saved.ticket_types);
    expect(ticketRowsFromForm(form(entries))).toHaveLength(1);
  });
});
