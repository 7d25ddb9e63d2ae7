// /sog-events/{uid}/book (public: visitors book with their name and email): the
// booking form in two steps (features/events/BookingForm.tsx). A booking with
// something to pay goes to Stripe Checkout, which returns to /sog-events/{uid}/booked;
// a member's free booking goes there at once; a visitor is asked to confirm by email.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/events-book";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { CheckEmail, NamesStep, TicketStep } from "../features/events/BookingForm";
import { choiceQuery, ticketChoice, ticketRows } from "../features/events/booking-form";
import { bookingPanel, bookingStatusText, isActiveBooking } from "../features/events/booking-text";
import { bookedPath, bookingPagePath, bookPath, eventPath } from "../features/events/booking-paths";
import { createBooking, isCheckoutUrl, loadEventBooking, type BookingResult } from "../features/events/bookings.server";
import { isPlausibleUid } from "../features/events/events";
import { EventCrumbs } from "../features/events/EventCrumbs";
import { EventWhen } from "../features/events/EventWhen";
import { formatTimeRange } from "../features/events/london-time";
import bookingsCss from "../features/events/bookings.css?url";
import { signInPath, type AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

// Public: visitors book too (with their name and email).
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  if (!isPlausibleUid(params.slug)) throw notFound();
  const event = await loadEventBooking(context, params.slug);
  if (!event) throw notFound();
  const auth = getAuth(context);
  const now = new Date();
  const choice = ticketChoice(url.searchParams, event);
  const changing = url.searchParams.has("change");
  const step = choice.chosen && !changing && !Object.keys(choice.errors).length && choice.mode ? 2 : 1;
  const here = url.pathname + url.search;
  return {
    event,
    now: now.toISOString(),
    panel: bookingPanel(event, now),
    choice,
    step,
    rows: step === 2 ? ticketRows(choice.counts, event.ticket_types) : [],
    changeHref: `${bookPath(event.uid)}?${choiceQuery(choice)}&change=1`,
    signedIn: auth.state.loggedIn,
    defaultName: auth.state.user?.name ?? "",
    signIn: signInPath(here),
    mine: event.my_bookings.filter(isActiveBooking),
    seo: pageSeo({ request, url }, { title: `Book: ${event.title}`, description: null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isPlausibleUid(params.slug)) throw notFound();
  const result = await createBooking(context, params.slug, await request.formData());
  if (result.ok && result.checkoutUrl) {
    if (!isCheckoutUrl(result.checkoutUrl)) {
      return data({ ok: false, intent: "book", message: "Card payment could not be started. Please try again later." } satisfies BookingResult, { status: 502 });
    }
    throw redirect(result.checkoutUrl);
  }
  if (result.ok && result.booking && getAuth(context).state.loggedIn) throw redirect(bookedPath(params.slug, result.booking.ref));
  return data(result, { status: result.ok ? 201 : 422 });
}

export default function EventsBook({ loaderData, actionData }: Route.ComponentProps) {
  const { event, panel, choice, step, rows, changeHref, signedIn, defaultName, signIn, mine } = loaderData;
  const result = actionData as BookingResult | undefined;
  const when = formatTimeRange(new Date(event.starts_at), event.ends_at ? new Date(event.ends_at) : null);
  const open = event.state === "open" || event.state === "waitlist";
  const booked = result?.ok ? result.booking : undefined;

  return (
    <>
      <EventCrumbs uid={event.uid} title={event.title} />
      <h1>Book: {event.title}</h1>
      <p className="lead">
        <EventWhen when={when} />
        {event.location ? `, ${event.location}` : ""}
      </p>
      {booked ? (
        <CheckEmail email={booked.email} waitlisted={booked.status === "waitlisted"} />
      ) : mine.length ? (
        <section aria-labelledby="have-booking">
          <h2 id="have-booking">You have booked this event already</h2>
          <ul>
            {mine.map((b) => (
              <li key={b.ref}>
                <Link to={bookingPagePath(b.ref)}>
                  Booking {b.ref}: {bookingStatusText(b)}
                </Link>
              </li>
            ))}
          </ul>
          <p>To change who is coming, cancel that booking and book again.</p>
        </section>
      ) : !open ? (
        <>
          <p>
            <strong>{panel?.headline ?? "This event is not taking bookings."}</strong>
          </p>
          <p>
            <Link to={eventPath(event.uid)}>Back to the event</Link>
          </p>
        </>
      ) : (
        <>
          {!signedIn ? (
            <p>
              Have an account? <Link to={signIn}>Sign in</Link> first to book with it
              {event.ticket_types.some((t) => t.requires_scope) ? " (members pay the members’ price)" : ""}. Or book below with your name and
              email address.
            </p>
          ) : null}
          {event.state === "waitlist" ? <p>This event is fully booked. You can join the waiting list.</p> : null}
          {step === 2 && choice.mode ? (
            <NamesStep
              event={event}
              mode={choice.mode}
              rows={rows}
              counts={choice.counts}
              signedIn={signedIn}
              defaultName={defaultName}
              result={result}
              changeHref={changeHref}
            />
          ) : (
            <TicketStep event={event} choice={choice} action={bookPath(event.uid)} />
          )}
        </>
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
