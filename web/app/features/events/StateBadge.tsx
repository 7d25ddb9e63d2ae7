import type { Badge } from "./booking-text";

/** An event's booking state as a small badge of words (never colour alone). */
export function StateBadge({ badge }: { badge: Badge | null | undefined }) {
  if (!badge) return null;
  return <span className={`booking-badge booking-badge--${badge.tone}`}>{badge.text}</span>;
}
