// After a return from Stripe Checkout the webhook may not have confirmed the payment
// yet: the page asks the server again a few times rather than guess.
import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";

const POLL_INTERVAL_MS = 2_000;

/**
 * While `waiting`, reloads the page's data every two seconds, at most `most` times.
 * Answers how many times it has asked, so the page can say when it has stopped.
 */
export function usePendingReload(waiting: boolean, most: number): number {
  const revalidator = useRevalidator();
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!waiting || polls >= most || revalidator.state !== "idle") return;
    const timer = window.setTimeout(() => {
      setPolls((n) => n + 1);
      void revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, most, polls, revalidator]);
  return polls;
}
