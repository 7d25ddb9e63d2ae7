import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import type { Booking } from "./booking-types";

/** How many times the page asks again after Stripe's return before it stops. */
const POLLS = 10;
const POLL_INTERVAL_MS = 2_000;

/**
 * After Stripe Checkout: "processing" until the webhook has confirmed the booking. The
 * page never says a payment went through before the API does; it asks again a few
 * times, then says an email will follow.
 */
export function BookingProgress({ booking }: { booking: Booking | null }) {
  const revalidator = useRevalidator();
  const [polls, setPolls] = useState(0);
  const waiting = !booking || (booking.status === "held" && booking.awaiting === "payment");
  useEffect(() => {
    if (!waiting || polls >= POLLS || revalidator.state !== "idle") return;
    const timer = window.setTimeout(() => {
      setPolls((n) => n + 1);
      void revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, polls, revalidator]);

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
