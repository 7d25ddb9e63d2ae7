import { Form, Link } from "react-router";
import { ATTENDANCE_LABELS, type Attendance, type EventFilters as Filters, type MonthOptionGroup } from "./events";

interface EventFiltersProps {
  action: string;
  filters: Filters;
  monthOptions: MonthOptionGroup[];
  filtered: boolean;
}

const ATTENDANCE_CHOICES: { value: Attendance | ""; label: string }[] = [
  { value: "", label: "Any" },
  { value: "online", label: ATTENDANCE_LABELS.online },
  { value: "in-person", label: ATTENDANCE_LABELS["in-person"] },
];

/**
 * The list's filters: a plain GET form, so it works without JavaScript (the
 * server filters by the query string); with JavaScript React Router submits
 * it as a client-side navigation to the same URL.
 */
export function EventFilters({ action, filters, monthOptions, filtered }: EventFiltersProps) {
  // A key per filter set resets the uncontrolled fields when the URL changes
  // (e.g. "Clear filters", or a calendar month link).
  const key = `${filters.q}|${filters.month ?? ""}|${filters.attendance ?? ""}`;
  return (
    <Form method="get" action={action} className="event-filters" role="search" aria-labelledby="event-filters-title" key={key}>
      <h2 id="event-filters-title" className="event-filters__title">
        Find an event
      </h2>
      <div className="event-filters__fields">
        <div className="field">
          <label htmlFor="event-filter-q">Title contains</label>
          <input id="event-filter-q" name="q" type="search" defaultValue={filters.q} maxLength={100} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="event-filter-month">Month</label>
          <select id="event-filter-month" name="month" defaultValue={filters.month ?? ""}>
            <option value="">Any month</option>
            {monthOptions.map((group) => (
              <optgroup key={group.year} label={group.year}>
                {group.months.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <fieldset className="field field--choices">
          <legend>How you attend</legend>
          {ATTENDANCE_CHOICES.map((choice) => (
            <label key={choice.value || "any"} className="choice">
              <input type="radio" name="attendance" value={choice.value} defaultChecked={(filters.attendance ?? "") === choice.value} />
              {choice.label}
            </label>
          ))}
        </fieldset>
      </div>
      <div className="event-filters__actions">
        <button type="submit" className="button button--primary">
          Show events
        </button>
        {filtered ? (
          <Link to={action} className="button">
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
