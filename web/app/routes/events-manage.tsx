// /sog-events/{uid}/manage (editors and admins; anyone else gets 404): attendees with
// check-in (first, for a phone at the door), the CSV export, a message to everyone
// booked, the booking settings, and cancelling the event (?cancel-event=1 asks first).
import { data, Link } from "react-router";
import type { Route } from "./+types/events-manage";
import { OnThisPage } from "../components/OnThisPage";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { AttendeeCards, CancelEventForm, MessageForm, SettingsForm } from "../features/events/ManageBookings";
import { managePath } from "../features/events/booking-paths";
import { isStaff, loadAttendees, loadSettings, manageHandlers, type ManageResult } from "../features/events/bookings.server";
import { settingsValues } from "../features/events/settings-form";
import { isPlausibleUid } from "../features/events/events";
import { EventCrumbs } from "../features/events/EventCrumbs";
import { formatLondonDate, formatLondonClock } from "../features/events/london-time";
import bookingsCss from "../features/events/bookings.css?url";
import eventsCss from "../features/events/events.css?url";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";
import { resultFor } from "../lib/form-result";

// Sign-in required (the default); the loader and action answer 404 to anyone not staff.
const notFound = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: eventsCss },
  { rel: "stylesheet", href: bookingsCss },
];

export async function loader({ url, params, context }: Route.LoaderArgs) {
  if (!isStaff(context) || !isPlausibleUid(params.slug)) throw notFound();
  const [settings, attendees] = await Promise.all([loadSettings(context, params.slug), loadAttendees(context, params.slug)]);
  if (!settings || !attendees) throw notFound();
  const query = (url.searchParams.get("q") ?? "").trim();
  const needle = query.toLowerCase();
  const bookings = needle
    ? attendees.bookings.filter(
        (b) => b.ref.toLowerCase().includes(needle) || b.name.toLowerCase().includes(needle) || b.tickets.some((t) => t.name.toLowerCase().includes(needle)),
      )
    : attendees.bookings;
  return {
    uid: params.slug,
    settings,
    values: settingsValues(settings),
    attendees: { ...attendees, bookings },
    query,
    askingCancel: url.searchParams.has("cancel-event") && !settings.cancelled_at,
  };
}

export const meta = privateMeta("Manage bookings");

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isStaff(context) || !isPlausibleUid(params.slug)) throw notFound();
  const form = await request.formData();
  const intent = text(form, "intent");
  const handler = manageHandlers[intent];
  if (!handler) return data({ ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." }, { status: 422 });
  const result = await handler(context, params.slug, form, intent);
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function EventsManage({ loaderData, actionData }: Route.ComponentProps) {
  const { uid, settings, values, attendees, query, askingCancel } = loaderData;
  const result = actionData as ManageResult | undefined;
  const settingsResult = resultFor(result, "settings") as ManageResult | undefined;
  const starts = new Date(attendees.event.starts_at);
  const here = managePath(uid);
  return (
    <>
      <EventCrumbs uid={uid} title={attendees.event.title} />
      <h1>Bookings: {attendees.event.title}</h1>
      <p className="lead">
        {formatLondonDate(starts)}, {formatLondonClock(starts)}
        {settings.cancelled_at ? ". This event has been cancelled." : ""}
      </p>
      <OnThisPage
        className="events-contents"
        links={[
          { href: "#attendees", label: "Attendees and check-in" },
          { href: "#message", label: "Message everyone" },
          { href: "#settings", label: "Booking settings" },
          ...(settings.cancelled_at ? [] : [{ href: "#cancel-event", label: "Cancel the event" }]),
        ]}
      />

      <section id="attendees" className="manage-section" aria-labelledby="attendees-title">
        <h2 id="attendees-title">Attendees and check-in</h2>
        <p>
          {/* A file download, not a page: a plain link to the API. */}
          <a href={`/api/admin/events/${encodeURIComponent(uid)}/attendees.csv`} download>
            Download the attendee list (CSV)
          </a>
        </p>
        <AttendeeCards list={attendees} query={query} />
      </section>

      <section id="message" className="manage-section" aria-labelledby="message-title">
        <h2 id="message-title">Message everyone booked</h2>
        <p>One email to each person with a booking (not the waiting list).</p>
        <MessageForm result={resultFor(result, "message")} />
      </section>

      <section id="settings" className="manage-section" aria-labelledby="settings-title">
        <h2 id="settings-title">Booking settings</h2>
        <SettingsForm values={settingsResult && !settingsResult.ok && settingsResult.settingsValues ? settingsResult.settingsValues : values} result={settingsResult} taken={settings.taken} />
      </section>

      {!settings.cancelled_at || resultFor(result, "cancel") ? (
        <section id="cancel-event" className="manage-section" aria-labelledby="cancel-event-title">
          <h2 id="cancel-event-title">Cancel the event</h2>
          {resultFor(result, "cancel")?.ok ? (
            <p role="status">{resultFor(result, "cancel")!.message}</p>
          ) : askingCancel || resultFor(result, "cancel") ? (
            <CancelEventForm result={resultFor(result, "cancel")} backHref={here} />
          ) : (
            <p>
              <Link to={`${here}?cancel-event=1#cancel-event`} className="button booking-button">
                Cancel the event…
              </Link>
            </p>
          )}
        </section>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
