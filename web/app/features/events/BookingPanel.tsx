import { Link } from "react-router";
import type { EventBooking } from "./booking-types";
import { bookingPanel, bookingStatusText, isActiveBooking, modeLines, ticketPriceText } from "./booking-text";
import { bookingPagePath, bookPath, eventPath, managePath } from "./booking-paths";
import { signInPath } from "../auth";

interface BookingPanelProps {
  event: EventBooking;
  /** The loader's "now" (ISO), so server and browser agree. */
  now: string;
  signedIn: boolean;
  staff: boolean;
  /** A visitor's key for their booking (from Stripe's return or their email), for its link. */
  bookingKey?: string | null;
}

/**
 * The event page's booking box: the state ("Places available", "Fully booked"…),
 * places left per way of attending, the prices this visitor pays (the members' price
 * explained), their own booking, and "Book" or "Join the waiting list".
 */
export function BookingPanel({ event, now, signedIn, staff, bookingKey }: BookingPanelProps) {
  const panel = bookingPanel(event, new Date(now));
  if (!panel) {
    return staff ? (
      <p className="booking-manage-link">
        <Link to={managePath(event.uid)}>Set up bookings for this event</Link>
      </p>
    ) : null;
  }
  const mine = event.my_bookings.filter(isActiveBooking);
  const showPrices = event.ticket_types.length > 0 && event.state !== "past" && !event.cancelled;
  const lines = event.state === "open" || event.state === "waitlist" ? modeLines(event) : [];
  return (
    <section className="booking-panel" aria-labelledby="booking-panel-title">
      <h2 id="booking-panel-title" className="booking-panel__title">
        Booking
      </h2>
      <p className="booking-panel__state">
        <strong>{panel.headline}</strong>
      </p>
      {panel.detail ? <p>{panel.detail}</p> : null}
      {lines.length ? (
        <dl className="booking-panel__modes">
          {lines.map((l) => (
            <div key={l.mode} className="booking-panel__row">
              <dt>{l.label}</dt>
              <dd>{l.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {showPrices ? (
        <>
          <h3 className="booking-panel__subtitle">Prices</h3>
          <ul className="booking-prices">
            {event.ticket_types.map((t) => (
              <li key={t.key}>
                <span className="booking-prices__label">{t.label}:</span> {ticketPriceText(t, event.currency)}
                {t.note ? <span className="booking-prices__note">{t.note}</span> : null}
                {!t.note && t.requires_scope === "member" && t.eligible ? (
                  <span className="booking-prices__note">You get the members’ price because your membership is active.</span>
                ) : null}
              </li>
            ))}
          </ul>
          {!signedIn && event.ticket_types.some((t) => t.requires_scope && !t.eligible) ? (
            <p>
              <Link to={signInPath(eventPath(event.uid))}>Sign in</Link> to book at the members’ price.
            </p>
          ) : null}
        </>
      ) : null}
      {panel.action && !event.card_payments && event.ticket_types.some((t) => t.eligible && t.price > 0) ? (
        <p>Paid tickets cannot be booked online just now: please contact the society to book one.</p>
      ) : null}
      {mine.length ? (
        <div className="booking-panel__mine">
          <h3 className="booking-panel__subtitle">Your booking</h3>
          <ul>
            {mine.map((b) => (
              <li key={b.ref}>
                <Link to={bookingPagePath(b.ref, signedIn ? null : bookingKey)}>
                  Booking {b.ref}: {bookingStatusText(b)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {panel.action && !mine.length ? (
        <p className="booking-panel__action">
          <Link to={bookPath(event.uid)} className="button button--primary booking-button">
            {panel.actionLabel}
            <span className="visually-hidden">: {event.title}</span>
          </Link>
        </p>
      ) : null}
      {event.refund_rule && panel.action ? <p className="booking-panel__rule">{event.refund_rule}</p> : null}
      {staff ? (
        <p className="booking-manage-link">
          <Link to={managePath(event.uid)}>Manage bookings and check people in</Link>
        </p>
      ) : null}
    </section>
  );
}
