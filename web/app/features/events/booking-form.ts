// The booking form of /sog-events/{uid}/book, in two steps that both work without
// JavaScript. Step 1 is a GET form (how to attend, how many tickets of each type:
// `mode`, `qty.<type>`), so its choice is in the URL; step 2 has one name field per
// ticket and, for visitors, their own name and email, and posts
// `tickets.N.type`/`tickets.N.name` — the API's own keys, so its 422 errors land at
// their fields.
import type { FieldErrors } from "../../lib/form-result";
import type { AttendanceMode, EventBooking, TicketType } from "./booking-types";
import { offeredModes } from "./booking-text";

export const QTY_PREFIX = "qty.";

export interface TicketChoice {
  mode: AttendanceMode | null;
  /** Ticket type key → how many. */
  counts: Record<string, number>;
  total: number;
  /** Whether step 1 was sent (any count in the URL). */
  chosen: boolean;
  errors: FieldErrors;
}

export interface TicketRow {
  index: number;
  type: string;
  label: string;
  price: number;
  /** Which ticket of its type: 1, 2… */
  number: number;
}

const isMode = (v: string | null): v is AttendanceMode => v === "in_person" || v === "online";

/** Step 1's choice as the URL holds it, checked against what the event offers this visitor. */
export function ticketChoice(params: URLSearchParams, event: Pick<EventBooking, "modes" | "ticket_types" | "max_per_booking">): TicketChoice {
  const errors: FieldErrors = {};
  const offered = offeredModes(event);
  const modeParam = params.get("mode");
  let mode: AttendanceMode | null = offered.length === 1 ? offered[0]! : null;
  if (isMode(modeParam) && offered.includes(modeParam)) mode = modeParam;

  const counts: Record<string, number> = {};
  let chosen = false;
  let total = 0;
  for (const type of event.ticket_types) {
    const raw = params.get(QTY_PREFIX + type.key);
    if (raw === null) continue;
    chosen = true;
    const value = raw.trim();
    if (value === "" || value === "0") continue;
    if (!/^\d{1,3}$/.test(value)) {
      errors[QTY_PREFIX + type.key] = ["Choose how many tickets, as a number."];
      continue;
    }
    const n = Number(value);
    if (!type.eligible) {
      errors[QTY_PREFIX + type.key] = [type.note || `${type.label} tickets are not open to you.`];
      continue;
    }
    counts[type.key] = n;
    total += n;
  }
  if (!chosen) return { mode, counts, total, chosen, errors: {} };
  if (mode === null) errors.mode = [offered.length ? "Choose how you will attend." : "This event is not taking bookings."];
  if (!Object.keys(errors).some((k) => k.startsWith(QTY_PREFIX))) {
    if (total === 0) errors.tickets = ["Choose at least one ticket."];
    else if (total > event.max_per_booking) {
      errors.tickets = [`You can book at most ${event.max_per_booking} ${event.max_per_booking === 1 ? "ticket" : "tickets"} at a time.`];
    }
  }
  return { mode, counts, total, chosen, errors };
}

/** One row per ticket, in the order of the event's ticket types. */
export function ticketRows(counts: Record<string, number>, types: readonly Pick<TicketType, "key" | "label" | "price">[]): TicketRow[] {
  const rows: TicketRow[] = [];
  for (const type of types) {
    for (let i = 1; i <= (counts[type.key] ?? 0); i++) {
      rows.push({ index: rows.length, type: type.key, label: type.label, price: type.price, number: i });
    }
  }
  return rows;
}

export function ticketsTotal(rows: readonly Pick<TicketRow, "price">[]): number {
  return rows.reduce((sum, r) => sum + r.price, 0);
}

/** The URL of step 1 with a choice filled in (the "Change your tickets" link). */
export function choiceQuery(choice: Pick<TicketChoice, "mode" | "counts">): string {
  const params = new URLSearchParams();
  if (choice.mode) params.set("mode", choice.mode);
  for (const [key, n] of Object.entries(choice.counts)) params.set(QTY_PREFIX + key, String(n));
  return params.toString();
}

export interface BookingRequest {
  mode: AttendanceMode | "";
  tickets: { type: string; name: string }[];
  name?: string;
  email?: string;
}

type Form = Pick<FormData, "get">;

const field = (form: Form, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

/** The most tickets a form may post (the API's own limit is lower). */
const MAX_ROWS = 50;

/**
 * Step 2's post as the API's request body, and the typed values to put back. The
 * API checks everything (counts, names, email); the form only gathers.
 */
export function bookingRequestFromForm(form: Form, signedIn: boolean): { request: BookingRequest; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const modeValue = field(form, "mode");
  const tickets: BookingRequest["tickets"] = [];
  for (let i = 0; i < MAX_ROWS; i++) {
    const type = form.get(`tickets.${i}.type`);
    if (typeof type !== "string") break;
    const name = field(form, `tickets.${i}.name`).replace(/\s+/g, " ");
    values[`tickets.${i}.name`] = name;
    tickets.push({ type: type.trim(), name });
  }
  const request: BookingRequest = { mode: isMode(modeValue) ? modeValue : "", tickets };
  if (!signedIn) {
    request.name = field(form, "name").replace(/\s+/g, " ");
    request.email = field(form, "email");
    values.name = request.name;
    values.email = request.email;
  }
  return { request, values };
}

/** Step 2's fields in the order the form shows them (error summary, focus). */
export function bookingFields(rows: readonly TicketRow[], signedIn: boolean): string[] {
  const fields = ["mode", "tickets"];
  for (const row of rows) fields.push(`tickets.${row.index}.type`, `tickets.${row.index}.name`);
  if (!signedIn) fields.push("name", "email");
  return fields;
}
