// What the booking pages say: prices, places left, an event's booking state as a
// panel or a badge, a booking's status, and what cancelling means. Pure, so the
// server and the browser print the same words.
import { formatMoney } from "../membership";
import type { AttendanceMode, Booking, EventBooking, EventStateSummary, TicketType } from "./booking-types";
import { formatLondonClock, formatLondonDate } from "./london-time";

/** "£3.00", or "Free" for nothing to pay. */
export function priceText(minor: number, currency: string): string {
  return minor === 0 ? "Free" : formatMoney(minor, currency);
}

export const MODE_LABELS: Record<AttendanceMode, string> = { in_person: "In person", online: "Online" };

/** "1 place left", "3 places left", "No places left". */
export function placesText(left: number): string {
  if (left <= 0) return "No places left";
  return left === 1 ? "1 place left" : `${left} places left`;
}

/** "Wednesday 2 December 2026 at 7pm" (London). */
export function dateTimeText(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${formatLondonDate(date)} at ${formatLondonClock(date)}`;
}

/** The modes an event offers (capacity above 0), in a fixed order. */
export function offeredModes(event: Pick<EventBooking, "modes">): AttendanceMode[] {
  return (["in_person", "online"] as const).filter((m) => (event.modes[m]?.capacity ?? 0) > 0);
}

export type PanelAction = "book" | "waitlist" | null;

export interface BookingPanel {
  /** The state in a few words: "Places available", "Fully booked"… */
  headline: string;
  /** A sentence more, or "". */
  detail: string;
  /** What the visitor can do: book, join the waiting list, or nothing. */
  action: PanelAction;
  /** The button's words. */
  actionLabel: string;
}

/**
 * The event page's booking panel, or null when the event takes no bookings at all
 * (then the page shows what it always did).
 */
export function bookingPanel(event: EventBooking, now: Date): BookingPanel | null {
  switch (event.state) {
    case "open":
      return { headline: "Places available", detail: "", action: "book", actionLabel: "Book" };
    case "waitlist":
      return {
        headline: "Fully booked",
        detail: "Join the waiting list: if a place becomes free we will email you, and you will have 48 hours to take it.",
        action: "waitlist",
        actionLabel: "Join the waiting list",
      };
    case "full":
      return { headline: "Fully booked", detail: "There is no waiting list for this event.", action: null, actionLabel: "" };
    case "closed": {
      const opens = event.opens_at ? new Date(event.opens_at) : null;
      if (opens && opens.getTime() > now.getTime()) {
        return { headline: `Bookings open on ${dateTimeText(event.opens_at)}`, detail: "", action: null, actionLabel: "" };
      }
      return { headline: "Bookings closed", detail: "", action: null, actionLabel: "" };
    }
    case "past":
      return { headline: "Bookings closed", detail: "This event has started.", action: null, actionLabel: "" };
    case "not_bookable":
      return event.cancelled
        ? { headline: "This event has been cancelled", detail: "", action: null, actionLabel: "" }
        : null;
    default:
      return null;
  }
}

/** Places left in each mode the event offers: "Online: 3 places left". */
export function modeLines(event: Pick<EventBooking, "modes">): { mode: AttendanceMode; label: string; text: string }[] {
  return offeredModes(event).map((mode) => {
    const m = event.modes[mode];
    const text = m.state === "open" ? placesText(m.left) : m.state === "waitlist" ? "Fully booked: waiting list" : "Fully booked";
    return { mode, label: MODE_LABELS[mode], text };
  });
}

/** A ticket type's price line: "£3.00 (early-bird price until …; then £5.00)". */
export function ticketPriceText(type: TicketType, currency: string): string {
  const now = priceText(type.price, currency);
  if (type.early_bird && type.regular_price !== type.price) {
    const until = dateTimeText(type.early_bird_ends_at);
    return `${now} (early-bird price${until ? ` until ${until}` : ""}; then ${priceText(type.regular_price, currency)})`;
  }
  return now;
}

export interface Badge {
  text: string;
  tone: "open" | "waitlist" | "closed";
}

/** The small badge of an event in the list, the calendar and the join page; null for none. */
export function stateBadge(event: Pick<EventStateSummary, "state" | "left" | "cancelled">): Badge | null {
  switch (event.state) {
    case "open": {
      const left = (event.left?.in_person ?? 0) + (event.left?.online ?? 0);
      return { text: `Booking open: ${placesText(left).toLowerCase()}`, tone: "open" };
    }
    case "waitlist":
      return { text: "Fully booked: waiting list", tone: "waitlist" };
    case "full":
      return { text: "Fully booked", tone: "closed" };
    case "closed":
      return { text: "Bookings closed", tone: "closed" };
    case "not_bookable":
      return event.cancelled ? { text: "Cancelled", tone: "closed" } : null;
    default:
      return null;
  }
}

/** "From £3.00" or "Free". */
export function fromPriceText(minor: number, currency: string): string {
  return minor === 0 ? "Free" : `From ${formatMoney(minor, currency)}`;
}

const CANCEL_REASONS: Record<NonNullable<Booking["cancel_reason"]>, string> = {
  booker: "Cancelled",
  event_cancelled: "Cancelled: the event was cancelled",
  hold_expired: "Cancelled: the payment was not made in time",
  offer_expired: "Cancelled: the offered place was not taken in time",
  unconfirmed: "Cancelled: the email address was not confirmed in time",
};

/** A booking's status in words. */
export function bookingStatusText(
  b: Pick<Booking, "status" | "awaiting" | "offer_expires_at" | "waitlist_position" | "cancel_reason" | "refunded_amount" | "currency" | "total" | "refund_pending">,
): string {
  switch (b.status) {
    case "confirmed":
      return "Booked";
    case "attended":
      return "Attended";
    case "held":
      return b.awaiting === "email" ? "Waiting for you to confirm your email address" : "Waiting for payment";
    case "waitlisted":
      if (b.offer_expires_at) return `A place is offered to you until ${dateTimeText(b.offer_expires_at)}`;
      return b.waitlist_position ? `On the waiting list (number ${b.waitlist_position})` : "On the waiting list";
    case "refunded":
      if (b.refund_pending) return `Cancelled: a refund of ${formatMoney(b.total - b.refunded_amount, b.currency)} is on its way`;
      return b.refunded_amount > 0 ? `Cancelled and refunded ${formatMoney(b.refunded_amount, b.currency)}` : "Cancelled and refunded";
    case "cancelled":
      return CANCEL_REASONS[b.cancel_reason ?? "booker"] ?? "Cancelled";
    default:
      return b.status;
  }
}

/** "2 tickets: Member (Ann Smith), Visitor (Bob Smith)". */
export function ticketsText(tickets: Pick<Booking["tickets"][number], "label" | "name">[]): string {
  const n = tickets.length;
  return `${n} ${n === 1 ? "ticket" : "tickets"}: ${tickets.map((t) => `${t.label} (${t.name})`).join(", ")}`;
}

/**
 * What cancelling a booking means for the booker, stating the event's refund rule
 * when it has one.
 */
export function cancelConsequence(b: Pick<Booking, "status" | "paid" | "total" | "currency" | "refund_if_cancelled">, rule: string): string {
  if (b.status === "waitlisted") return "You will leave the waiting list.";
  const ruleText = rule ? ` ${rule.trim().replace(/([^.!?])$/, "$1.")}` : "";
  if (b.status === "held") return `Your places will be given up.${ruleText}`;
  if (!b.paid || b.total === 0) return "Your places will be offered to other people.";
  if (b.refund_if_cancelled) return `You will be refunded ${formatMoney(b.total, b.currency)} to the card you paid with.${ruleText}`;
  return `It is too late for a refund: you will not get your ${formatMoney(b.total, b.currency)} back.${ruleText}`;
}

/** Bookings that hold places or a place in the queue (not cancelled or refunded). */
export function isActiveBooking(b: Pick<Booking, "status">): boolean {
  return b.status === "held" || b.status === "confirmed" || b.status === "attended" || b.status === "waitlisted";
}
