// Where the booking pages are (app/routes.ts): the event's booking form, the page
// Stripe Checkout returns to, the editors' page, a booking's own page and the pages
// the emails link to.
import { EVENTS_PATH } from "./events";

export const BOOKINGS_PATH = `${EVENTS_PATH}/bookings`;
export const ACCOUNT_BOOKINGS_PATH = "/user-account/bookings";

export const bookPath = (uid: string) => `${EVENTS_PATH}/${encodeURIComponent(uid)}/book`;
export const managePath = (uid: string) => `${EVENTS_PATH}/${encodeURIComponent(uid)}/manage`;
export const eventPath = (uid: string) => `${EVENTS_PATH}/${encodeURIComponent(uid)}`;

/** A booking's own page; visitors' links carry the key from their emails. */
export function bookingPagePath(ref: string, key?: string | null): string {
  return `${BOOKINGS_PATH}/${encodeURIComponent(ref)}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
}

/** Stripe Checkout's success page for a booking (the API names it in the session). */
export function bookedPath(uid: string, ref: string, key?: string | null): string {
  const params = new URLSearchParams({ ref });
  if (key) params.set("key", key);
  return `${EVENTS_PATH}/${encodeURIComponent(uid)}/booked?${params}`;
}

/** The key a visitor's links carry, as the API puts it on the booking's `ics_url`; null for none. */
export function bookingKeyOf(booking: { ics_url?: string | null }): string | null {
  if (!booking.ics_url) return null;
  return new URL(booking.ics_url, "http://localhost").searchParams.get("key");
}
