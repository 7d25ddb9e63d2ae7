// The pages the booking emails link to, with a single-use token:
//   /sog-events/bookings/confirm?token=…  a visitor confirms their email address;
//   /sog-events/bookings/offer?token=…    someone on the waiting list takes a free place
//                                         (within 48 hours of the email).
// A button does it, so a mail scanner that opens links does not use the token up. A
// place to pay for goes on to Stripe Checkout; a free one is confirmed on the spot.
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/bookings-token";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { CsrfField, ErrorSummary, formStyles, useSubmitting } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { BookingCard } from "../features/events/BookingCard";
import { BookingProgress } from "../features/events/BookingProgress";
import { bookingKeyOf, bookingPagePath } from "../features/events/booking-paths";
import { isCheckoutUrl, redeemToken, type BookingResult } from "../features/events/bookings.server";
import { EVENTS_PATH } from "../features/events/events";
import bookingsCss from "../features/events/bookings.css?url";
import type { AuthHandle } from "../features/auth/access";
import { privateMeta } from "../features/auth/meta";

// Public: the token is the proof.
export const handle: AuthHandle = { auth: false };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: bookingsCss }];

const kindOf = (pathname: string) => (pathname.replace(/\/$/, "").endsWith("/offer") ? ("offer" as const) : ("confirm" as const));

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "", kind: kindOf(url.pathname) };
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  privateMeta(loaderData?.kind === "offer" ? "Take your place" : "Confirm your booking")({ error });

export async function action({ request, url, context }: Route.ActionArgs) {
  const result = await redeemToken(context, await request.formData(), kindOf(url.pathname));
  if (result.ok && result.checkoutUrl) {
    if (!isCheckoutUrl(result.checkoutUrl)) {
      return data({ ok: false, message: "Card payment could not be started. Please try again later." } satisfies BookingResult, { status: 502 });
    }
    throw redirect(result.checkoutUrl);
  }
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function BookingToken({ loaderData, actionData }: Route.ComponentProps) {
  const { token, kind } = loaderData;
  const result = actionData as BookingResult | undefined;
  const busy = useSubmitting();
  const offer = kind === "offer";
  const title = offer ? "A place is free for you" : "Confirm your booking";
  const booking = result?.ok ? result.booking : undefined;
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: EVENTS_PATH, label: "Events" }]} />
      <h1>{booking ? "Your booking" : title}</h1>
      {booking ? (
        <>
          <BookingProgress booking={booking} />
          <BookingCard booking={booking} headingLevel={2} />
          <p>
            <Link to={bookingPagePath(booking.ref, bookingKeyOf(booking))}>See or cancel this booking</Link> (the emails we send you link to it too).
          </p>
        </>
      ) : (
        <>
          <ErrorSummary result={result} fields={[]} />
          {token ? (
            <Form method="post" className={formStyles.form}>
              <CsrfField />
              <input type="hidden" name="token" value={token} />
              <p>
                {offer
                  ? "Someone has cancelled, so a place is free for you. Press the button to take it. If there is something to pay, you pay by card next; the place is held for you for 15 minutes while you do."
                  : "Press the button to confirm your email address and your booking."}
              </p>
              <div className={formStyles.actions}>
                <button type="submit" className={`button button--primary ${formStyles.button} booking-button`} disabled={busy}>
                  {busy ? "Please wait…" : offer ? "Take the place" : "Confirm my booking"}
                </button>
              </div>
            </Form>
          ) : (
            <p>This link is incomplete. Please open the link from the email again, or copy all of it into the address bar.</p>
          )}
        </>
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
