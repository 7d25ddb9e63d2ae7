// /user-account/bookings (sign-in required): the member's upcoming and past event
// bookings, each with its calendar file, the joining details of online bookings and
// cancelling (?cancel={ref} asks first, stating the event's refund rule).
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/user-account.bookings";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { FormStatus } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { BookingCard, CancelConfirm } from "../features/events/BookingCard";
import { ACCOUNT_BOOKINGS_PATH } from "../features/events/booking-paths";
import { bookingStatusText } from "../features/events/booking-text";
import { cancelBookingAction, loadEventBooking, loadMyBookings, type BookingResult } from "../features/events/bookings.server";
import { EVENTS_PATH } from "../features/events/events";
import { formatLondonDate } from "../features/events/london-time";
import bookingsCss from "../features/events/bookings.css?url";
import { privateMeta } from "../features/auth/meta";

// Sign-in required: the default, so no `handle.auth`.

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

export async function loader({ url, context }: Route.LoaderArgs) {
  const mine = await loadMyBookings(context);
  if (!mine) throw new Response("Your bookings could not be loaded just now", { status: 503 });
  const cancelRef = url.searchParams.get("cancel");
  const asking = cancelRef ? (mine.upcoming.find((b) => b.ref === cancelRef && b.can_cancel) ?? null) : null;
  const event = asking && !asking.refund_rule ? await loadEventBooking(context, asking.event_uid) : null;
  return {
    upcoming: mine.upcoming,
    past: mine.past,
    asking,
    refundRule: asking?.refund_rule ?? event?.refund_rule ?? "",
  };
}

export const meta = privateMeta("Your bookings");

export const action = (args: Route.ActionArgs) => cancelBookingAction(args);

export default function UserBookings({ loaderData, actionData }: Route.ComponentProps) {
  const { upcoming, past, asking, refundRule } = loaderData;
  const result = actionData as BookingResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "cancel";
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/user-account", label: "Your account" }]} />
      <h1>Your bookings</h1>
      <FormStatus result={result?.ok ? result : undefined} />
      {asking && !result?.ok ? (
        <CancelConfirm
          booking={asking}
          refundRule={refundRule}
          backHref={ACCOUNT_BOOKINGS_PATH}
          busy={busy}
          error={result && !result.ok ? result.message : undefined}
        />
      ) : null}
      <section aria-labelledby="upcoming-bookings" className="section">
        <h2 id="upcoming-bookings">Upcoming</h2>
        {upcoming.length ? (
          <ul role="list" className="booking-list">
            {upcoming.map((b) => (
              <li key={b.ref}>
                <BookingCard booking={b} cancelHref={`${ACCOUNT_BOOKINGS_PATH}?cancel=${encodeURIComponent(b.ref)}`} />
              </li>
            ))}
          </ul>
        ) : (
          <p>
            You have no upcoming bookings. <Link to={EVENTS_PATH}>See what’s on</Link>.
          </p>
        )}
      </section>
      <section aria-labelledby="past-bookings" className="section">
        <h2 id="past-bookings">Past and cancelled</h2>
        {past.length ? (
          <ul className="booking-past">
            {past.map((b) => (
              <li key={b.ref}>
                <Link to={`/sog-events/${encodeURIComponent(b.event_uid)}`}>{b.event_title}</Link>, {formatLondonDate(new Date(b.event_starts_at))} (
                {b.ref}): {bookingStatusText(b)}
              </li>
            ))}
          </ul>
        ) : (
          <p>No past bookings.</p>
        )}
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
