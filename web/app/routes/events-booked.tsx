// /sog-events/{uid}/booked?ref=…[&key=…] (public): where Stripe Checkout returns and a
// member's free booking lands. Until the webhook has confirmed a paid booking the
// page says the payment is being processed and asks again (BookingProgress).
import { Link } from "react-router";
import type { Route } from "./+types/events-booked";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { BookingCard } from "../features/events/BookingCard";
import { BookingProgress } from "../features/events/BookingProgress";
import { ACCOUNT_BOOKINGS_PATH, bookingPagePath } from "../features/events/booking-paths";
import { loadBooking } from "../features/events/bookings.server";
import { isPlausibleUid } from "../features/events/events";
import { EventCrumbs } from "../features/events/EventCrumbs";
import bookingsCss from "../features/events/bookings.css?url";
import type { AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";

// Public: a visitor's booking is opened with the key from its emails.
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

// A booking is someone's own: never kept by the page cache, whoever asks.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ url, params, context }: Route.LoaderArgs) {
  if (!isPlausibleUid(params.slug)) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
  const ref = url.searchParams.get("ref") ?? "";
  const key = url.searchParams.get("key");
  const booking = ref ? ((await loadBooking(context, ref, key))?.booking ?? null) : null;
  return {
    uid: params.slug,
    booking: booking && booking.event_uid === params.slug ? booking : null,
    key,
    signedIn: getAuth(context).state.loggedIn,
  };
}

export const meta = privateMeta("Your booking");

export default function EventsBooked({ loaderData }: Route.ComponentProps) {
  const { uid, booking, key, signedIn } = loaderData;
  return (
    <>
      <EventCrumbs uid={uid} title={booking?.event_title ?? "The event"} />
      <h1>Your booking</h1>
      <BookingProgress booking={booking} />
      {booking ? <BookingCard booking={booking} headingLevel={2} /> : null}
      <p>
        {booking ? <Link to={bookingPagePath(booking.ref, key)}>Manage this booking</Link> : null}
        {booking && signedIn ? " or see " : null}
        {signedIn ? <Link to={ACCOUNT_BOOKINGS_PATH}>{booking ? "all your bookings" : "See all your bookings"}</Link> : null}
      </p>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
