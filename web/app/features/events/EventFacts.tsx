import type { EventListItem } from "./events";
import { EventWhen } from "./EventWhen";

/** When, where and how to attend, as a description list. */
export function EventFacts({ event, className = "" }: { event: Pick<EventListItem, "when" | "location" | "attendance" | "happeningNow">; className?: string }) {
  return (
    <dl className={`event-facts ${className}`.trim()}>
      <div className="event-facts__row">
        <dt>When</dt>
        <dd>
          <EventWhen when={event.when} />
          {event.happeningNow ? <strong className="event-tag event-tag--now"> Happening now</strong> : null}
        </dd>
      </div>
      {event.location ? (
        <div className="event-facts__row">
          <dt>Where</dt>
          <dd>{event.location}</dd>
        </div>
      ) : null}
      {/* "Attend: Online" would only repeat "Where: Online". */}
      {event.attendance && event.attendance.toLowerCase() !== event.location?.trim().toLowerCase() ? (
        <div className="event-facts__row">
          <dt>Attend</dt>
          <dd>{event.attendance}</dd>
        </div>
      ) : null}
    </dl>
  );
}
