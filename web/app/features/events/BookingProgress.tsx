import { usePendingReload } from "../../lib/pending-reload";
import type { Booking } from "./booking-types";

/** How many times the page asks again after Stripe's return before it stops. */
const POLLS = 10;

/**
 * After Stripe Checkout: "processing" until the webhook has confirmed the booking. The
 * page never says a payment went through before the API does; it asks again a few
 * times, then says an email will follow.
 */
export function BookingProgress({ booking }: { booking: Booking | null }) {
  const waiting = !booking || (booking.status === "held" && booking.awaiting === "payment");
  const polls = usePendingReload(waiting, POLLS);

  if (!waiting && booking) {
    const text =
      booking.status === "confirmed" || booking.status === "attended"
        ? "You’re booked. We have emailed you the confirmation with a calendar invitation."
        : booking.status === "waitlisted"
          ? "You’re on the waiting list. We will email you if a place becomes free."
          : null;
    return text ? (
      <div role="status" className="booking-processing">
        <p>
          <strong>{text}</strong>
        </p>
      </div>
    ) : null;
  }
  return (
    <div role="status" className="booking-processing">
      <p>
        <strong>We are processing your payment.</strong>{" "}
        {polls >= POLLS || !booking
          ? "This is taking longer than usual. We will email you as soon as your payment is confirmed; you do not need to pay again."
          : "This page will show your booking as confirmed once the payment is confirmed."}
      </p>
    </div>
  );
}
