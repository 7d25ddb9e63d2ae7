import { Form, Link } from "react-router";
import { CsrfField, formStyles } from "../../components/forms/Forms";
import type { Booking } from "./booking-types";
import { bookingStatusText, cancelConsequence, dateTimeText, MODE_LABELS, priceText } from "./booking-text";
import { formatTimeRange } from "./london-time";
import { EventWhen } from "./EventWhen";
import { eventPath } from "./booking-paths";

interface BookingCardProps {
  booking: Booking;
  headingLevel?: 2 | 3;
  /** The page that asks "are you sure?" for this booking; none: no cancel button. */
  cancelHref?: string | null;
}

/** A booking: event, when, status, tickets and attendees, total, joining details, calendar file. */
export function BookingCard({ booking: b, headingLevel = 3, cancelHref }: BookingCardProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const Subheading = headingLevel === 2 ? "h3" : "h4";
  const when = formatTimeRange(new Date(b.event_starts_at), b.event_ends_at ? new Date(b.event_ends_at) : null);
  const live = b.status === "confirmed" || b.status === "attended" || b.status === "held" || b.status === "waitlisted";
  return (
    <article className="booking-card" aria-labelledby={`booking-${b.ref}-title`}>
      <Heading id={`booking-${b.ref}-title`} className="booking-card__title">
        <Link to={eventPath(b.event_uid)}>{b.event_title}</Link>
      </Heading>
      <dl className="booking-card__facts">
        <div className="booking-card__row">
          <dt>When</dt>
          <dd>
            <EventWhen when={when} />
          </dd>
        </div>
        {b.event_location ? (
          <div className="booking-card__row">
            <dt>Where</dt>
            <dd>{b.event_location}</dd>
          </div>
        ) : null}
        <div className="booking-card__row">
          <dt>Booking</dt>
          <dd>{b.ref}</dd>
        </div>
        <div className="booking-card__row">
          <dt>Status</dt>
          <dd>
            <strong>{bookingStatusText(b)}</strong>
          </dd>
        </div>
        <div className="booking-card__row">
          <dt>Attending</dt>
          <dd>{MODE_LABELS[b.mode] ?? b.mode}</dd>
        </div>
        <div className="booking-card__row">
          <dt>{b.tickets.length === 1 ? "Ticket" : "Tickets"}</dt>
          <dd>
            <ul className="booking-card__tickets">
              {b.tickets.map((t, i) => (
                <li key={i}>
                  {t.name} ({t.label}, {priceText(t.price, b.currency)})
                </li>
              ))}
            </ul>
          </dd>
        </div>
        {b.total > 0 ? (
          <div className="booking-card__row">
            <dt>Total</dt>
            <dd>
              {priceText(b.total, b.currency)}
              {b.paid ? " (paid)" : ""}
            </dd>
          </div>
        ) : null}
      </dl>
      {b.status === "waitlisted" && b.offer_expires_at ? (
        <p>
          <strong>A place is free for you.</strong> Take it with the link in the email we sent you before {dateTimeText(b.offer_expires_at)}; after that it
          goes to the next person on the list.
        </p>
      ) : null}
      {b.status === "held" && b.awaiting === "email" ? (
        <p>Press the link in the email we sent to {b.email} to confirm this booking.</p>
      ) : null}
      {b.joining ? (
        <div className="booking-card__joining">
          <Subheading className="booking-card__subtitle">How to join online</Subheading>
          {b.joining.link ? (
            <p>
              <a href={b.joining.link} rel="noopener noreferrer">
                Join the event online<span className="visually-hidden">: {b.event_title}</span>
              </a>
            </p>
          ) : null}
          {b.joining.instructions ? <p className="booking-card__instructions">{b.joining.instructions}</p> : null}
        </div>
      ) : null}
      {live ? (
        <ul role="list" className="booking-card__actions">
          {b.status !== "waitlisted" && b.ics_url ? (
            <li>
              {/* A file download, not a page: a plain link. */}
              <a href={b.ics_url} className="button booking-button" download>
                Add to your calendar (.ics)<span className="visually-hidden">: {b.event_title}</span>
              </a>
            </li>
          ) : null}
          {cancelHref && b.can_cancel ? (
            <li>
              <Link to={cancelHref} className="button booking-button">
                {b.status === "waitlisted" ? "Leave the waiting list" : "Cancel this booking"}
                <span className="visually-hidden">: {b.event_title}</span>
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </article>
  );
}

interface CancelConfirmProps {
  booking: Booking;
  /** The event's refund rule, stated before the booker decides. */
  refundRule: string;
  /** The visitor's key, when the booking was opened with one. */
  bookingKey?: string | null;
  /** Where "Keep my booking" goes. */
  backHref: string;
  busy: boolean;
  error?: string;
}

/** "Are you sure?": what cancelling means (refund or not), and the button that does it. */
export function CancelConfirm({ booking: b, refundRule, bookingKey, backHref, busy, error }: CancelConfirmProps) {
  const leaving = b.status === "waitlisted";
  return (
    <section className="booking-confirm" aria-labelledby="cancel-title">
      <h2 id="cancel-title" tabIndex={-1}>
        {leaving ? "Leave the waiting list?" : "Cancel this booking?"}
      </h2>
      <p>
        {b.event_title}, booking {b.ref}.
      </p>
      <p>
        <strong>{cancelConsequence(b, refundRule)}</strong>
      </p>
      {error ? (
        <p role="alert" className={formStyles.error}>
          {error}
        </p>
      ) : null}
      <Form method="post" className={formStyles.form}>
        <CsrfField />
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="ref" value={b.ref} />
        {bookingKey ? <input type="hidden" name="key" value={bookingKey} /> : null}
        <div className={formStyles.actions}>
          <button type="submit" className={`button ${formStyles.danger} ${formStyles.button} booking-button`} disabled={busy}>
            {busy ? "Cancelling…" : leaving ? "Yes, leave the waiting list" : "Yes, cancel my booking"}
          </button>
          <Link to={backHref} className="button booking-button">
            {leaving ? "Stay on the list" : "No, keep my booking"}
          </Link>
        </div>
      </Form>
    </section>
  );
}
