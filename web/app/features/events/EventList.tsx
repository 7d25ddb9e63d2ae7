import { Link } from "react-router";
import { demotedHeadings, RichText } from "../content";
import type { EventListItem } from "./events";
import { EventFacts } from "./EventFacts";
import type { Badge } from "./booking-text";
import { StateBadge } from "./StateBadge";

interface EventListProps {
  events: EventListItem[];
  /** What to say when there are none. */
  empty: string;
  headingLevel?: 2 | 3;
  /** Booking state badges by event path. */
  badges?: Record<string, Badge>;
}

/** Events as a list of linked cards: title, when, where, summary. */
export function EventList({ events, empty, headingLevel = 3, badges = {} }: EventListProps) {
  if (events.length === 0) return <p className="empty-state">{empty}</p>;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="card-list card-list--list event-list" role="list">
      {events.map((event) => (
        <li key={event.id} className="card event-card">
          <div className="card__body">
            <Heading className="card__title">
              <Link to={event.href}>{event.title}</Link>
            </Heading>
            <EventFacts event={event} />
            {badges[event.href] ? (
              <p className="booking-badge-line">
                <StateBadge badge={badges[event.href]} />
              </p>
            ) : null}
            {event.summary ? (
              <div className="card__summary">
                <RichText field={event.summary} components={demotedHeadings} />
              </div>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
