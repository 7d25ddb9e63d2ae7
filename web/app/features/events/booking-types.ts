// The event bookings API's JSON (docs/events.md; internal/events). Money is in minor
// units with a currency, times are RFC 3339 UTC instants.

/** What an event takes, for the event page, the list and the calendar. */
export type EventBookingState = "open" | "waitlist" | "full" | "closed" | "not_bookable" | "past";

export type BookingStatus = "held" | "confirmed" | "waitlisted" | "cancelled" | "refunded" | "attended";

export type AttendanceMode = "in_person" | "online";

export const ATTENDANCE_MODES: readonly AttendanceMode[] = ["in_person", "online"];

export interface ModeState {
  capacity: number;
  left: number;
  state: "open" | "waitlist" | "full" | "not_offered";
}

/** A ticket type as the requester may buy it now. */
export interface TicketType {
  key: string;
  label: string;
  /** What this requester pays now (the early-bird price while it lasts). */
  price: number;
  regular_price: number;
  early_bird: boolean;
  early_bird_ends_at: string | null;
  requires_scope: string;
  eligible: boolean;
  /** Why it is not open to the requester (the members' price), or "". */
  note: string;
}

export interface Ticket {
  type: string;
  label: string;
  name: string;
  price: number;
}

export interface Booking {
  ref: string;
  event_uid: string;
  event_title: string;
  event_starts_at: string;
  event_ends_at: string | null;
  event_location: string | null;
  status: BookingStatus;
  /** What a held booking waits for. */
  awaiting: "payment" | "email" | null;
  hold_expires_at: string | null;
  /** Set while a place is offered to a waitlisted booking. */
  offer_expires_at: string | null;
  waitlist_position: number | null;
  cancel_reason: "booker" | "event_cancelled" | "hold_expired" | "offer_expired" | "unconfirmed" | null;
  mode: AttendanceMode;
  name: string;
  email: string;
  tickets: Ticket[];
  total: number;
  currency: string;
  paid: boolean;
  refunded_amount: number;
  /** A refund is owed and not yet made by Stripe. */
  refund_pending?: boolean;
  /** A visitor's email address is confirmed (always for accounts). */
  email_confirmed?: boolean;
  can_cancel: boolean;
  refund_if_cancelled: boolean;
  /** The event's refund rule, when the API sends it with the booking. */
  refund_rule?: string;
  /** Only for confirmed or attended online bookings. */
  joining: { link: string; instructions: string } | null;
  ics_url: string;
  created_at: string;
  updated_at: string;
  checked_in_at: string | null;
}

/** GET /api/events/{uid}/booking */
export interface EventBooking {
  uid: string;
  title: string;
  starts_at: string;
  ends_at: string | null;
  location: string | null;
  state: EventBookingState;
  cancelled: boolean;
  opens_at: string | null;
  closes_at: string | null;
  waitlist: boolean;
  max_per_booking: number;
  refund_rule: string;
  refund_cutoff_hours: number;
  modes: Record<AttendanceMode, ModeState>;
  ticket_types: TicketType[];
  currency: string;
  card_payments: boolean;
  my_bookings: Booking[];
}

/** One event of GET /api/events/booking-states. */
export interface EventStateSummary {
  uid: string;
  title: string;
  starts_at: string;
  state: EventBookingState;
  cancelled?: boolean;
  left: Record<AttendanceMode, number>;
  from_price: number;
  currency: string;
}

/** A ticket type as editors set it (GET/PUT /api/admin/events/{uid}/booking-settings). */
export interface TicketTypeSetting {
  key: string;
  label: string;
  price: number;
  requires_scope: string;
  early_bird_price: number | null;
  early_bird_ends_at: string | null;
}

/** The body of PUT /api/admin/events/{uid}/booking-settings: what editors set. */
export interface SettingsBody {
  enabled: boolean;
  opens_at: string | null;
  closes_at: string | null;
  capacity_in_person: number;
  capacity_online: number;
  max_per_booking: number;
  waitlist: boolean;
  refund_cutoff_hours: number;
  ticket_types: TicketTypeSetting[];
  online_link: string;
  online_instructions: string;
}

/** GET /api/admin/events/{uid}/booking-settings: what editors set, and what the room keeps. */
export interface BookingSettings extends SettingsBody {
  uid: string;
  exists: boolean;
  cancelled_at: string | null;
  taken: Record<AttendanceMode, number>;
}

/** GET /api/admin/events/{uid}/attendees */
export interface AttendeeList {
  event: { uid: string; title: string; starts_at: string; state: EventBookingState };
  counts: Record<"held" | "confirmed" | "waitlisted" | "attended" | "cancelled" | "refunded", number> & {
    places_taken: Record<AttendanceMode, number>;
  };
  bookings: Booking[];
}
