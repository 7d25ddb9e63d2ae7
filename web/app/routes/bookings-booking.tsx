// /sog-events/bookings/{ref}[?key=…] (public: the emails' links carry the booking's key;
// a member opens their own without one): a booking with its tickets, calendar file,
// joining details for online bookings, and cancelling it (?cancel=1 asks first, stating
// the event's refund rule).
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/bookings-booking";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { FormStatus } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { BookingCard, CancelConfirm } from "../features/events/BookingCard";
import { ACCOUNT_BOOKINGS_PATH, bookingPagePath } from "../features/events/booking-paths";
import { dateTimeText, priceText } from "../features/events/booking-text";
import { cancelBookingAction, loadBooking, loadEventBooking, type BookingResult } from "../features/events/bookings.server";
import { EVENTS_PATH } from "../features/events/events";
import bookingsCss from "../features/events/bookings.css?url";
import type { AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";

// Public: visitors have no account; the key in the link is their proof.
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

// A booking is someone's own: never kept by the page cache, whoever asks.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ url, params, context }: Route.LoaderArgs) {
  const key = url.searchParams.get("key");
  const found = await loadBooking(context, params.ref, key);
  // The API answers 404 both for no such booking and for no right to see it.
  if (!found) throw new Response("This booking could not be found", { status: 404, statusText: "Not Found" });
  const { booking, checkoutUrl } = found;
  const asking = url.searchParams.has("cancel") && booking.can_cancel;
  const event = asking && !booking.refund_rule ? await loadEventBooking(context, booking.event_uid) : null;
  return {
    booking,
    key,
    asking,
    refundRule: booking.refund_rule ?? event?.refund_rule ?? "",
    // A booking held for payment can still be paid until its hold ends.
    payHref: booking.status === "held" && booking.awaiting === "payment" ? checkoutUrl : null,
    signedIn: getAuth(context).state.loggedIn,
  };
}

export const meta = privateMeta("Your booking");

export const action = (args: Route.ActionArgs) => cancelBookingAction(args);

export default function BookingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, key, asking, refundRule, payHref, signedIn } = loaderData;
  const result = actionData as BookingResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "cancel";
  const here = bookingPagePath(booking.ref, key);
  return (
    <>
      <Breadcrumbs
        items={[
          { to: "/", label: "Home" },
          signedIn ? { to: ACCOUNT_BOOKINGS_PATH, label: "Your bookings" } : { to: EVENTS_PATH, label: "Events" },
        ]}
      />
      <h1>Booking {booking.ref}</h1>
      <FormStatus result={result?.ok ? result : undefined} />
      {asking && !result?.ok ? (
        <CancelConfirm booking={booking} refundRule={refundRule} bookingKey={key} backHref={here} busy={busy} error={result && !result.ok ? result.message : undefined} />
      ) : null}
      {payHref ? (
        <div className="booking-processing">
          <p>
            <strong>Your booking is not paid yet.</strong>{" "}
            {booking.hold_expires_at ? `We hold your places until ${dateTimeText(booking.hold_expires_at)}.` : ""}
          </p>
          <p>
            {/* Stripe's page, not ours: a plain link. */}
            <a href={payHref} className="button button--primary booking-button">
              Complete your payment ({priceText(booking.total, booking.currency)})
            </a>
          </p>
        </div>
      ) : null}
      <BookingCard booking={booking} headingLevel={2} cancelHref={asking ? null : `${here}${key ? "&" : "?"}cancel=1`} />
      {signedIn ? (
        <p>
          <Link to={ACCOUNT_BOOKINGS_PATH}>All your bookings</Link>
        </p>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
