import { Link } from "react-router";
import type { CalendarMonth } from "./event-calendar";
import { monthLabel } from "./london-time";

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

interface EventCalendarProps {
  calendar: CalendarMonth;
  links: { previous: string | null; next: string | null; thisMonth: string | null };
}

/**
 * One month of events as a table (rendered on the server, no script needed):
 * a caption naming the month, weekday column headers, each day's events as
 * links, and links to the previous and next months.
 */
export function EventCalendar({ calendar, links }: EventCalendarProps) {
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
                        <ul role="list" className="event-calendar__events">
                          {day.events.map((event) => (
                            <li key={event.href}>
                              <Link to={event.href}>
                                <span className="event-calendar__time">{event.time}</span> {event.title}
                              </Link>
                            </li>
                          ))}
                        </ul>
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
