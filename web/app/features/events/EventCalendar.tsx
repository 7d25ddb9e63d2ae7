import { Link } from "react-router";
import { agendaDays, type CalendarEntry, type CalendarMonth } from "./event-calendar";
import { monthLabel } from "./london-time";
import type { Badge } from "./booking-text";
import { StateBadge } from "./StateBadge";

/** Weekday headings: short on screen, the whole word for screen readers ("Mon" + "day"). */
const WEEKDAYS: [string, string][] = [
  ["Mon", "day"],
  ["Tue", "sday"],
  ["Wed", "nesday"],
  ["Thu", "rsday"],
  ["Fri", "day"],
  ["Sat", "urday"],
  ["Sun", "day"],
];

/** A day's events as links with their booking state, in the table and the agenda alike. */
function DayEvents({ events, badges }: { events: CalendarEntry[]; badges: Record<string, Badge> }) {
  return (
    <ul role="list" className="event-calendar__events">
      {events.map((event) => (
        <li key={event.href}>
          <Link to={event.href}>
            <span className="event-calendar__time">{event.time}</span> {event.title}
          </Link>{" "}
          <StateBadge badge={badges[event.href]} />
        </li>
      ))}
    </ul>
  );
}

interface EventCalendarProps {
  calendar: CalendarMonth;
  links: { previous: string | null; next: string | null; thisMonth: string | null };
  /** Booking state badges by event path. */
  badges?: Record<string, Badge>;
}

/**
 * One month of events as a table (rendered on the server, no script needed):
 * a caption naming the month, weekday column headers, each day's events as
 * links, and links to the previous and next months. Narrow screens, where
 * seven columns do not fit, get the same month as an agenda of the days with
 * events instead (events.css switches between the two).
 */
export function EventCalendar({ calendar, links, badges = {} }: EventCalendarProps) {
  const agenda = agendaDays(calendar);
  return (
    <section id="calendar" className="event-calendar section" aria-labelledby="event-calendar-title">
      <h2 id="event-calendar-title">Calendar</h2>
      <nav className="event-calendar__nav" aria-label="Calendar months">
        <ul role="list">
          <li>
            {links.previous && calendar.previous ? (
              <Link to={links.previous} className="button" rel="prev">
                <span aria-hidden="true">←</span>
                <span className="visually-hidden">Previous month: </span>
                {monthLabel(calendar.previous)}
              </Link>
            ) : null}
          </li>
          <li>
            {links.thisMonth ? (
              <Link to={links.thisMonth} className="button">
                This month
              </Link>
            ) : null}
          </li>
          <li>
            {links.next && calendar.next ? (
              <Link to={links.next} className="button" rel="next">
                <span className="visually-hidden">Next month: </span>
                {monthLabel(calendar.next)}
                <span aria-hidden="true">→</span>
              </Link>
            ) : null}
          </li>
        </ul>
      </nav>
      <div className="event-agenda">
        <h3 className="event-agenda__title">
          {calendar.label}
          <span className="event-calendar__count">{calendar.eventDays === 0 ? " — no events" : ""}</span>
        </h3>
        {agenda.length ? (
          <ol role="list" className="event-agenda__days">
            {agenda.map((day) => (
              <li
                key={day.date}
                className={day.today ? "event-agenda__day event-calendar__cell--today" : "event-agenda__day"}
                aria-current={day.today ? "date" : undefined}
              >
                <p className="event-agenda__date">
                  <time dateTime={day.date}>{day.label}</time>
                  {day.today ? <span className="event-calendar__today"> (today)</span> : null}
                </p>
                <DayEvents events={day.events} badges={badges} />
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      {/* Wide tables may scroll sideways on small screens; the region can take focus so keyboards can scroll it. */}
      <div className="event-calendar__scroll" role="region" aria-labelledby="event-calendar-caption" tabIndex={0}>
        <table className="event-calendar__table">
          <caption id="event-calendar-caption">
            {calendar.label}
            <span className="event-calendar__count">
              {calendar.eventDays === 0
                ? " — no events"
                : ` — events on ${calendar.eventDays} ${calendar.eventDays === 1 ? "day" : "days"}`}
            </span>
          </caption>
          <thead>
            <tr>
              {WEEKDAYS.map(([short, rest]) => (
                <th scope="col" key={short}>
                  {short}
                  <span className="visually-hidden">{rest}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {calendar.weeks.map((week, w) => (
              <tr key={w}>
                {week.map((day, d) =>
                  day ? (
                    <td
                      key={day.date}
                      className={[
                        "event-calendar__cell",
                        day.events.length ? "event-calendar__cell--events" : "",
                        day.today ? "event-calendar__cell--today" : "",
                      ]
                        .filter(Boolean)
                        .join(" ")}
                      aria-current={day.today ? "date" : undefined}
                    >
                      <span className="event-calendar__day">
                        <time dateTime={day.date}>{day.day}</time>
                        {day.today ? <span className="event-calendar__today"> Today</span> : null}
                      </span>
                      {day.events.length ? (
                        <DayEvents events={day.events} badges={badges} />
                      ) : null}
                    </td>
                  ) : (
                    <td key={`empty-${w}-${d}`} className="event-calendar__cell event-calendar__cell--empty" />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
