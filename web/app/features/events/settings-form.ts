// The booking settings form of /sog-events/{uid}/manage: the values it shows and the
// body it becomes (PUT /api/admin/events/{uid}/booking-settings). Editors type prices
// in pounds and pence (sent in minor units through parseMoney, never a float) and
// times as London wall-clock times (sent as UTC instants). Field names are the API's
// keys, so its 422 errors land at their fields.
import type { FieldErrors } from "../../lib/form-result";
import { minorToDecimal, parseMoney } from "../membership";
import type { BookingSettings, SettingsBody, TicketTypeSetting } from "./booking-types";
import { londonParts, londonToUtc } from "./london-time";

const CURRENCY = "GBP";

/** Empty ticket type rows the form offers for new types (no script needed to add one). */
export const EMPTY_TICKET_ROWS = 2;

export const SETTINGS_FIELDS = [
  "enabled",
  "opens_at",
  "closes_at",
  "capacity_in_person",
  "capacity_online",
  "max_per_booking",
  "waitlist",
  "refund_cutoff_hours",
  "ticket_types",
  "online_link",
  "online_instructions",
] as const;

export const TICKET_FIELDS = ["key", "label", "price", "requires_scope", "early_bird_price", "early_bird_ends_at"] as const;

export interface TicketRowValues {
  key: string;
  label: string;
  price: string;
  /** "member" or "". */
  requires_scope: string;
  early_bird_price: string;
  early_bird_ends_at: string;
}

export interface SettingsValues {
  enabled: boolean;
  opens_at: string;
  closes_at: string;
  capacity_in_person: string;
  capacity_online: string;
  max_per_booking: string;
  waitlist: boolean;
  refund_cutoff_hours: string;
  online_link: string;
  online_instructions: string;
  ticket_types: TicketRowValues[];
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant as a `datetime-local` value in London time: "2026-12-02T19:00"; "" for none. */
export function londonLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const p = londonParts(date);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * A typed London date and time ("2026-12-02T19:00", or "2026-12-02 19:00", or a date
 * alone for midnight) as a UTC instant; null for empty, undefined when unreadable.
 */
export function parseLondonLocal(value: string): string | null | undefined {
  const text = value.trim();
  if (text === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0"].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  const date = londonToUtc(year, month, day, hour, minute);
  if (londonParts(date).day !== day && londonParts(new Date(date.getTime() - 3_600_000)).day !== day) return undefined;
  return date.toISOString().replace(/\.000Z$/, "Z");
}

/** What the form shows for saved settings (with empty rows for new ticket types). */
export function settingsValues(s: BookingSettings): SettingsValues {
  const rows: TicketRowValues[] = s.ticket_types.map((t) => ({
    key: t.key,
    label: t.label,
    price: minorToDecimal(t.price, 2),
    requires_scope: t.requires_scope,
    early_bird_price: t.early_bird_price === null ? "" : minorToDecimal(t.early_bird_price, 2),
    early_bird_ends_at: londonLocalInput(t.early_bird_ends_at),
  }));
  return {
    enabled: s.enabled,
    opens_at: londonLocalInput(s.opens_at),
    closes_at: londonLocalInput(s.closes_at),
    capacity_in_person: String(s.capacity_in_person),
    capacity_online: String(s.capacity_online),
    max_per_booking: String(s.max_per_booking),
    waitlist: s.waitlist,
    refund_cutoff_hours: String(s.refund_cutoff_hours),
    online_link: s.online_link,
    online_instructions: s.online_instructions,
    ticket_types: withEmptyRows(rows),
  };
}

function withEmptyRows(rows: TicketRowValues[]): TicketRowValues[] {
  const empty = (): TicketRowValues => ({ key: "", label: "", price: "", requires_scope: "", early_bird_price: "", early_bird_ends_at: "" });
  return [...rows, ...Array.from({ length: EMPTY_TICKET_ROWS }, empty)];
}

type Form = Pick<FormData, "get" | "keys">;

const field = (form: Form, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

/** The ticket rows posted (ticket_types.N.…), in order; rows left wholly empty or marked for removal are dropped. */
export function ticketRowsFromForm(form: Form): TicketRowValues[] {
  const indexes = new Set<number>();
  for (const key of form.keys()) {
    const m = /^ticket_types\.(\d{1,2})\.[a-z_]+$/.exec(key);
    if (m) indexes.add(Number(m[1]));
  }
  return [...indexes]
    .sort((a, b) => a - b)
    .filter((i) => !form.get(`ticket_types.${i}.remove`))
    .map((i) => ({
      key: field(form, `ticket_types.${i}.key`).toLowerCase(),
      label: field(form, `ticket_types.${i}.label`),
      price: field(form, `ticket_types.${i}.price`),
      requires_scope: form.get(`ticket_types.${i}.requires_scope`) ? "member" : "",
      early_bird_price: field(form, `ticket_types.${i}.early_bird_price`),
      early_bird_ends_at: field(form, `ticket_types.${i}.early_bird_ends_at`),
    }))
    .filter((r) => r.key || r.label || r.price || r.early_bird_price || r.early_bird_ends_at);
}

/** A whole number typed in a field, or null. */
function wholeNumber(input: string): number | null {
  if (!/^\d{1,7}$/.test(input)) return null;
  return Number(input);
}

export interface SettingsFormResult {
  /** The body to send when the form has no errors of its own. */
  body: SettingsBody | null;
  errors: FieldErrors;
  values: SettingsValues;
}

/**
 * The API body for the form. The form checks only what it turns into numbers and
 * instants (prices, counts, times); the API checks the rest. The errors of a ticket
 * row are keyed by its position in the body, as the API's are.
 */
export function settingsBodyFromForm(form: Form): SettingsFormResult {
  const errors: FieldErrors = {};
  const rows = ticketRowsFromForm(form);
  const values: SettingsValues = {
    enabled: Boolean(form.get("enabled")),
    opens_at: field(form, "opens_at"),
    closes_at: field(form, "closes_at"),
    capacity_in_person: field(form, "capacity_in_person") || "0",
    capacity_online: field(form, "capacity_online") || "0",
    max_per_booking: field(form, "max_per_booking"),
    waitlist: Boolean(form.get("waitlist")),
    refund_cutoff_hours: field(form, "refund_cutoff_hours") || "0",
    online_link: field(form, "online_link"),
    online_instructions: (form.get("online_instructions") as string | null)?.trim() ?? "",
    ticket_types: withEmptyRows(rows),
  };

  const instant = (name: "opens_at" | "closes_at", label: string) => {
    const parsed = parseLondonLocal(values[name]);
    if (parsed === undefined) errors[name] = [`Enter the ${label} as a date and time, such as 2026-12-01 09:00.`];
    return parsed ?? null;
  };
  const opens = instant("opens_at", "opening time");
  const closes = instant("closes_at", "closing time");

  const number = (name: "capacity_in_person" | "capacity_online" | "max_per_booking" | "refund_cutoff_hours", message: string) => {
    const n = wholeNumber(values[name]);
    if (n === null) errors[name] = [message];
    return n ?? 0;
  };
  const inPerson = number("capacity_in_person", "Enter the places in person as a whole number (0 if it is online only).");
  const online = number("capacity_online", "Enter the places online as a whole number (0 if it is in person only).");
  const perBooking = number("max_per_booking", "Enter the most tickets one booking may have, as a whole number.");
  const cutoff = number("refund_cutoff_hours", "Enter the hours as a whole number (0 refunds until the event starts).");

  const ticketTypes: TicketTypeSetting[] = rows.map((row, i) => {
    const at = (name: string) => `ticket_types.${i}.${name}`;
    let price = 0;
    if (row.price === "") errors[at("price")] = ["Enter the price, such as 5.00, or 0 for a free ticket."];
    else {
      const p = parseMoney(row.price, CURRENCY);
      if (p.ok) price = p.minor;
      else errors[at("price")] = [p.message];
    }
    let earlyBird: number | null = null;
    if (row.early_bird_price !== "") {
      const p = parseMoney(row.early_bird_price, CURRENCY);
      if (p.ok) earlyBird = p.minor;
      else errors[at("early_bird_price")] = [p.message];
    }
    const ends = parseLondonLocal(row.early_bird_ends_at);
    if (ends === undefined) errors[at("early_bird_ends_at")] = ["Enter the date and time the early-bird price ends, such as 2026-11-28 00:00."];
    return {
      key: row.key,
      label: row.label,
      price,
      requires_scope: row.requires_scope,
      early_bird_price: earlyBird,
      early_bird_ends_at: ends ?? null,
    };
  });

  if (Object.keys(errors).length) return { body: null, errors, values };
  return {
    body: {
      enabled: values.enabled,
      opens_at: opens,
      closes_at: closes,
      capacity_in_person: inPerson,
      capacity_online: online,
      max_per_booking: perBooking,
      waitlist: values.waitlist,
      refund_cutoff_hours: cutoff,
      ticket_types: ticketTypes,
      online_link: values.online_link,
      online_instructions: values.online_instructions,
    },
    errors,
    values,
  };
}
