// The booking pages' calls to the Go API (docs/events.md, "JSON API"), as the visitor:
// reads for the loaders, one function per form for the actions. Signed-in members'
// posts carry the form's CSRF token (memberCall); a visitor's posts (a booking without
// an account, an emailed link's token, a booking opened with its `key`) are stateless.
import { data, type RouterContextProvider } from "react-router";
import { formFailure, getAuth, memberCall, memberRead, text } from "../auth/index.server";
import { hasScope } from "../auth";
import { callApi, failureText, getApi } from "../../lib/api.server";
import type { ApiResult } from "../../lib/api-result";
import type { FormResult } from "../../lib/form-result";
import { bookingRequestFromForm } from "./booking-form";
import type { AttendeeList, Booking, BookingSettings, EventBooking, EventStateSummary } from "./booking-types";
import { settingsBodyFromForm, type SettingsValues } from "./settings-form";

type Context = Readonly<RouterContextProvider>;

export interface BookingResult extends FormResult {
  booking?: Booking;
  /** Stripe Checkout's page, where the browser goes next. */
  checkoutUrl?: string | null;
}

const encode = encodeURIComponent;
const REF = /^[A-Za-z0-9-]{1,40}$/;

/** Only Stripe's hosted page (https), or a local test peer: a page never sends a visitor somewhere it cannot name. */
export function isCheckoutUrl(url: string | null | undefined): url is string {
  return Boolean(url && (/^https:\/\//.test(url) || /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)));
}

/** Editors and admins manage bookings. */
export function isStaff(context: Context): boolean {
  const user = getAuth(context).state.user;
  return Boolean(user && (user.role === "editor" || user.role === "admin" || hasScope(user, "editor") || hasScope(user, "admin")));
}

function logFailure(what: string, done: ApiResult<unknown>): void {
  if (!done.ok && done.status !== 404) console.error(`[events] ${failureText(what, done)}`);
}

/** The event's booking state for this visitor; null when it has none or the API failed (logged). */
export async function loadEventBooking(context: Context, uid: string, visitor?: { booking: string; key: string } | null): Promise<EventBooking | null> {
  // A visitor's own booking comes with its key (Stripe's return, their emails' links).
  const query = visitor ? `?${new URLSearchParams({ booking: visitor.booking, key: visitor.key })}` : "";
  const done = await getApi<EventBooking>(getAuth(context), `/api/events/${encode(uid)}/booking${query}`);
  logFailure("GET /api/events/{uid}/booking", done);
  return done.ok ? done.body : null;
}

/** Every upcoming bookable event's state by uid ({} when the API failed, logged). */
export async function loadBookingStates(context: Context): Promise<Record<string, EventStateSummary>> {
  const done = await getApi<{ events: EventStateSummary[] }>(getAuth(context), "/api/events/booking-states", { session: false });
  logFailure("GET /api/events/booking-states", done);
  const out: Record<string, EventStateSummary> = {};
  if (done.ok) for (const e of done.body.events ?? []) out[e.uid] = e;
  return out;
}

/** The upcoming bookable events, soonest first (the join page). */
export async function loadBookableEvents(context: Context): Promise<EventStateSummary[]> {
  const states = await loadBookingStates(context);
  return Object.values(states)
    .filter((e) => !e.cancelled && e.state !== "past" && e.state !== "not_bookable")
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at));
}

function bookingPath(ref: string, key: string | null, tail = ""): string {
  return `/api/bookings/${encode(ref)}${tail}${key ? `?key=${encode(key)}` : ""}`;
}

/**
 * A booking: the member's own (session), or anyone's with the key from its emails; with
 * the Checkout page where a held booking can still be paid.
 */
export async function loadBooking(context: Context, ref: string, key: string | null): Promise<{ booking: Booking; checkoutUrl: string | null } | null> {
  if (!REF.test(ref)) return null;
  const auth = getAuth(context);
  const done = await getApi<{ booking: Booking; checkout_url?: string | null }>(auth, bookingPath(ref, key), key ? { session: false } : {});
  logFailure("GET /api/bookings/{ref}", done);
  if (!done.ok) return null;
  const url = done.body.checkout_url ?? null;
  return { booking: done.body.booking, checkoutUrl: isCheckoutUrl(url) ? url : null };
}

export async function loadMyBookings(context: Context): Promise<{ upcoming: Booking[]; past: Booking[] } | null> {
  return memberRead<{ upcoming: Booking[]; past: Booking[] }>(getAuth(context), "/api/bookings");
}

/** POST /api/events/{uid}/bookings from step 2 of the booking form. */
export async function createBooking(context: Context, uid: string, form: FormData): Promise<BookingResult> {
  const intent = "book";
  const auth = getAuth(context);
  const signedIn = auth.state.loggedIn;
  const { request, values } = bookingRequestFromForm(form, signedIn);
  const path = `/api/events/${encode(uid)}/bookings`;
  const done = signedIn
    ? await memberCall<{ booking: Booking; checkout_url: string | null }>(auth, form, { method: "POST", path, json: request, expect: [200, 201] })
    : await callApi<{ booking: Booking; checkout_url: string | null }>(auth, "POST", path, { json: request, session: false, expect: [200, 201] });
  if (!done.ok) {
    if (!signedIn) logFailure(`POST ${path}`, done);
    // 409: the member has a booking for this event already (the API names it).
    if (done.status === 409) return { ok: false, intent, message: done.message ?? "You already have a booking for this event.", values };
    return { ...formFailure(done), intent, values };
  }
  return { ok: true, intent, booking: done.body?.booking, checkoutUrl: done.body?.checkout_url ?? null };
}

/** An emailed link's token: the visitor's confirmation, or a waiting-list offer taken. */
export async function redeemToken(context: Context, form: FormData, what: "confirm" | "offer"): Promise<BookingResult> {
  const intent = what;
  const path = what === "confirm" ? "/api/bookings/confirm" : "/api/bookings/offers/accept";
  const done = await callApi<{ booking: Booking; checkout_url: string | null }>(getAuth(context), "POST", path, {
    json: { token: text(form, "token") },
    session: false,
    expect: [200],
  });
  if (!done.ok) {
    logFailure(`POST ${path}`, done);
    return { ...formFailure(done), intent };
  }
  return { ok: true, intent, booking: done.body?.booking, checkoutUrl: done.body?.checkout_url ?? null };
}

/** Cancels a booking (the member's own, or with its key). */
export async function cancelBooking(context: Context, form: FormData): Promise<BookingResult> {
  const intent = "cancel";
  const ref = text(form, "ref");
  const key = text(form, "key") || null;
  if (!REF.test(ref)) return { ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." };
  const auth = getAuth(context);
  const path = bookingPath(ref, key, "/cancel");
  const done = key
    ? await callApi<{ booking: Booking }>(auth, "POST", path, { json: {}, session: false, expect: [200] })
    : await memberCall<{ booking: Booking }>(auth, form, { method: "POST", path, json: {}, expect: [200] });
  if (!done.ok) {
    if (key) logFailure("POST /api/bookings/{ref}/cancel", done);
    const failure = formFailure(done);
    // The API names the booking's own refusal ("already cancelled", "has started") on `booking`.
    return { ...failure, intent, target: ref, message: failure.errors?.booking?.join(" ") ?? failure.message };
  }
  const b = done.body?.booking;
  return { ok: true, intent, target: ref, booking: b, message: b?.status === "refunded" ? "Your booking is cancelled and your payment is being refunded." : "Your booking is cancelled." };
}

/** The action of a page whose one form cancels a booking (the booking's page, your bookings): 422 when it fails. */
export async function cancelBookingAction({ request, context }: { request: Request; context: Context }) {
  const form = await request.formData();
  if (text(form, "intent") !== "cancel") return data({ ok: false, message: "Something was missing from the form. Please reload the page and try again." }, { status: 422 });
  const result = await cancelBooking(context, form);
  return data(result, { status: result.ok ? 200 : 422 });
}

// ---------------------------------------------------------------------------------
// Editors

const admin = (uid: string, tail = "") => `/api/admin/events/${encode(uid)}${tail}`;

export async function loadSettings(context: Context, uid: string): Promise<BookingSettings | null> {
  return memberRead<BookingSettings>(getAuth(context), admin(uid, "/booking-settings"));
}

export async function loadAttendees(context: Context, uid: string): Promise<AttendeeList | null> {
  return memberRead<AttendeeList>(getAuth(context), admin(uid, "/attendees"));
}

export interface ManageResult extends BookingResult {
  settingsValues?: SettingsValues;
}

type Handler = (context: Context, uid: string, form: FormData, intent: string) => Promise<ManageResult>;

/** The forms of /sog-events/{uid}/manage. */
export const manageHandlers: Record<string, Handler> = {
  async settings(context, uid, form, intent) {
    const { body, errors, values } = settingsBodyFromForm(form);
    if (!body) return { ok: false, intent, errors, settingsValues: values };
    const done = await memberCall<BookingSettings>(getAuth(context), form, { method: "PUT", path: admin(uid, "/booking-settings"), json: body });
    if (!done.ok) return { ...formFailure(done), intent, settingsValues: values };
    return { ok: true, intent, message: "The booking settings are saved." };
  },

  async "check-in"(context, uid, form, intent) {
    const ref = text(form, "ref");
    const attended = text(form, "attended") === "true";
    if (!REF.test(ref)) return { ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." };
    const done = await memberCall<{ booking: Booking }>(getAuth(context), form, {
      method: "POST",
      path: admin(uid, `/attendees/${encode(ref)}/check-in`),
      json: { attended },
    });
    if (!done.ok) {
      const failure = formFailure(done);
      return { ...failure, intent, target: ref, message: failure.errors?.booking?.join(" ") ?? failure.message };
    }
    const who = done.body?.booking.name ?? ref;
    return { ok: true, intent, target: ref, booking: done.body?.booking, message: attended ? `${who} is checked in.` : `${who} is no longer checked in.` };
  },

  async message(context, uid, form, intent) {
    const subject = text(form, "subject").trim();
    const body = text(form, "text").trim();
    const done = await memberCall<{ sent: number }>(getAuth(context), form, { method: "POST", path: admin(uid, "/message"), json: { subject, text: body } });
    if (!done.ok) return { ...formFailure(done), intent, values: { subject, text: body } };
    const sent = done.body?.sent ?? 0;
    return { ok: true, intent, message: `Your message is on its way to ${sent} ${sent === 1 ? "booker" : "bookers"}.` };
  },

  async cancel(context, uid, form, intent) {
    const message = text(form, "message").trim();
    const done = await memberCall<{ cancelled: number; refunded: number }>(getAuth(context), form, { method: "POST", path: admin(uid, "/cancel"), json: { message } });
    if (!done.ok) {
      const failure = formFailure(done);
      return { ...failure, intent, values: { message }, message: failure.errors?.event?.join(" ") ?? failure.message };
    }
    const { cancelled = 0, refunded = 0 } = done.body ?? {};
    return {
      ok: true,
      intent,
      message: `The event is cancelled. ${cancelled} ${cancelled === 1 ? "booking was" : "bookings were"} cancelled and everyone was told; ${refunded} ${refunded === 1 ? "payment is" : "payments are"} being refunded.`,
    };
  },
};
