// The editors' booking tools of /sog-events/{uid}/manage: attendees with check-in
// (cards and big buttons, for a phone at the door), the booking settings form,
// a message to everyone booked, and cancelling the event after a confirmation step.
// Every form is a plain post with an `intent`; check-in posts with a fetcher, so the
// list stays where it was.
import { useRef, type ReactNode } from "react";
import { Form, Link, useFetcher } from "react-router";
import { Checkbox, CsrfField, ErrorSummary, ErrorText, Field, FieldShell, fieldId, formStyles, FormStatus, useFocusFirstError } from "../../components/forms/Forms";
import type { FormResult } from "../../lib/form-result";
import type { AttendeeList, Booking } from "./booking-types";
import { bookingStatusText, MODE_LABELS } from "./booking-text";
import { SETTINGS_FIELDS, TICKET_FIELDS, type SettingsValues } from "./settings-form";
import { BookingSubmit } from "./BookingSubmit";

// ---------------------------------------------------------------------------------
// Attendees and check-in

function CheckInButton({ booking }: { booking: Booking }) {
  const fetcher = useFetcher<FormResult>();
  const attended = booking.status === "attended";
  const failed = fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  return (
    <fetcher.Form method="post">
      <CsrfField />
      <input type="hidden" name="intent" value="check-in" />
      <input type="hidden" name="ref" value={booking.ref} />
      <input type="hidden" name="attended" value={attended ? "false" : "true"} />
      <button
        type="submit"
        className={`button ${attended ? "" : "button--primary"} ${formStyles.button} attendee__button`}
        disabled={fetcher.state !== "idle"}
      >
        {attended ? `Undo check-in for ${booking.name}` : `Check in ${booking.name}`}
      </button>
      <p role="status" className="visually-hidden">
        {fetcher.state === "idle" && fetcher.data?.ok ? fetcher.data.message : ""}
      </p>
      {failed ? (
        <p role="alert" className={formStyles.error}>
          {failed.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

export function AttendeeCards({ list, query }: { list: AttendeeList; query: string }) {
  const { counts } = list;
  return (
    <>
      <ul role="list" className="attendee-counts">
        <li>{counts.confirmed} booked</li>
        <li>{counts.attended} checked in</li>
        <li>{counts.waitlisted} waiting</li>
        {counts.held ? <li>{counts.held} held</li> : null}
        <li>
          {counts.cancelled + counts.refunded} cancelled
        </li>
      </ul>
      <Form method="get" className="event-filters" role="search" aria-label="Find an attendee">
        <div className="field">
          <label htmlFor="attendee-q">Find a name or booking reference</label>
          <input id="attendee-q" name="q" type="search" defaultValue={query} autoComplete="off" />
        </div>
        <div className="event-filters__actions">
          <button type="submit" className="button booking-button">
            Find
          </button>
          {query ? (
            <Link to="?" className="button booking-button">
              Show everyone
            </Link>
          ) : null}
        </div>
      </Form>
      {list.bookings.length ? (
        <ul role="list" className="attendee-list">
          {list.bookings.map((b) => (
            <li key={b.ref} className={b.status === "attended" ? "attendee attendee--in" : "attendee"}>
              <h3 className="attendee__name">{b.name}</h3>
              <p className="attendee__meta">
                {b.ref} · {MODE_LABELS[b.mode] ?? b.mode} · {bookingStatusText(b)}
              </p>
              <ul className="attendee__tickets">
                {b.tickets.map((t, i) => (
                  <li key={i}>
                    {t.name} ({t.label})
                  </li>
                ))}
              </ul>
              {b.status === "confirmed" || b.status === "attended" ? <CheckInButton booking={b} /> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>{query ? "No booking matches that name or reference." : "No bookings yet."}</p>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------
// Settings

interface SettingsFormProps {
  values: SettingsValues;
  result: FormResult | undefined;
  taken: { in_person: number; online: number };
}

const TICKET_LABELS: Record<(typeof TICKET_FIELDS)[number], string> = {
  key: "Short name (letters, digits and hyphens)",
  label: "Name shown to people booking",
  price: "Price in pounds",
  requires_scope: "Members only (needs an active membership)",
  early_bird_price: "Early-bird price in pounds (optional)",
  early_bird_ends_at: "Early-bird price ends (London time)",
};

export function SettingsForm({ values, result, taken }: SettingsFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const failed = result && !result.ok ? result : undefined;
  useFocusFirstError(formRef, failed);
  const errors = failed?.errors ?? {};
  const rowFields = values.ticket_types.flatMap((_, i) => TICKET_FIELDS.map((f) => `ticket_types.${i}.${f}`));
  const fields = [...SETTINGS_FIELDS, ...rowFields];
  const num = (name: keyof SettingsValues, label: string, hint?: ReactNode) => (
    <Field name={name} label={label} hint={hint} inputMode="numeric" defaultValue={String(values[name])} errors={errors[name]} autoComplete="off" />
  );
  const londonTime = (name: "opens_at" | "closes_at", label: string, hint: string) => (
    <Field name={name} type="datetime-local" label={label} hint={hint} defaultValue={values[name]} errors={errors[name]} />
  );
  return (
    <Form method="post" ref={formRef} className="booking-form" noValidate>
      <CsrfField />
      <input type="hidden" name="intent" value="settings" />
      <ErrorSummary result={failed} fields={fields} />
      <FormStatus result={result?.ok ? result : undefined} />
      <Checkbox name="enabled" label="Take bookings for this event" defaultChecked={values.enabled} />
      {londonTime("opens_at", "Bookings open (London time, optional)", "Leave empty to open bookings now.")}
      {londonTime("closes_at", "Bookings close (London time, optional)", "Leave empty to take bookings until the event starts.")}
      {num("capacity_in_person", "Places in person", `0 if it is online only. Taken now: ${taken.in_person}.`)}
      {num("capacity_online", "Places online", `0 if it is in person only. Taken now: ${taken.online}.`)}
      {num("max_per_booking", "Most tickets in one booking")}
      <Checkbox name="waitlist" label="Offer a waiting list when it is full" defaultChecked={values.waitlist} />
      {num("refund_cutoff_hours", "Refunds until this many hours before the event", "0 refunds a cancellation up to the start.")}
      <fieldset id={fieldId("ticket_types")} className="booking-fieldset">
        <legend>Ticket types</legend>
        <ErrorText id={`${fieldId("ticket_types")}-error`} errors={errors.ticket_types} />
        <p className={formStyles.hint}>Fill in an empty row to add a type. Prices of 0 are free tickets.</p>
        {values.ticket_types.map((row, i) => (
          <div key={i} className="manage-tickets" role="group" aria-labelledby={`ticket-row-${i}`}>
            <h3 id={`ticket-row-${i}`} className="booking-card__subtitle">
              {row.label ? `Ticket type: ${row.label}` : `New ticket type ${i + 1 - values.ticket_types.filter((r) => r.label).length}`}
            </h3>
            <Field name={`ticket_types.${i}.key`} label={TICKET_LABELS.key} defaultValue={row.key} errors={errors[`ticket_types.${i}.key`]} autoComplete="off" spellCheck={false} />
            <Field name={`ticket_types.${i}.label`} label={TICKET_LABELS.label} defaultValue={row.label} errors={errors[`ticket_types.${i}.label`]} autoComplete="off" />
            <Field name={`ticket_types.${i}.price`} label={TICKET_LABELS.price} inputMode="decimal" defaultValue={row.price} errors={errors[`ticket_types.${i}.price`]} autoComplete="off" />
            <ErrorText id={`${fieldId(`ticket_types.${i}.requires_scope`)}-error`} errors={errors[`ticket_types.${i}.requires_scope`]} />
            <Checkbox name={`ticket_types.${i}.requires_scope`} label={TICKET_LABELS.requires_scope} defaultChecked={row.requires_scope === "member"} />
            <Field
              name={`ticket_types.${i}.early_bird_price`}
              label={TICKET_LABELS.early_bird_price}
              inputMode="decimal"
              defaultValue={row.early_bird_price}
              errors={errors[`ticket_types.${i}.early_bird_price`]}
              autoComplete="off"
            />
            <Field
              name={`ticket_types.${i}.early_bird_ends_at`}
              type="datetime-local"
              label={TICKET_LABELS.early_bird_ends_at}
              defaultValue={row.early_bird_ends_at}
              errors={errors[`ticket_types.${i}.early_bird_ends_at`]}
            />
            {row.key ? <Checkbox name={`ticket_types.${i}.remove`} label={`Remove this ticket type`} /> : null}
          </div>
        ))}
      </fieldset>
      <Field
        name="online_link"
        type="url"
        label="Link to join online (optional)"
        hint="Shown only to people holding an online booking, and emailed the day before."
        defaultValue={values.online_link}
        errors={errors.online_link}
        autoComplete="off"
        spellCheck={false}
      />
      <FieldShell name="online_instructions" label="Instructions for joining online (optional)" errors={errors.online_instructions}>
        {(control) => <textarea name="online_instructions" className="manage-textarea" defaultValue={values.online_instructions} {...control} />}
      </FieldShell>
      <BookingSubmit>Save the booking settings</BookingSubmit>
    </Form>
  );
}

// ---------------------------------------------------------------------------------
// Message everyone, cancel the event

export function MessageForm({ result }: { result: FormResult | undefined }) {
  const formRef = useRef<HTMLFormElement>(null);
  const failed = result && !result.ok ? result : undefined;
  useFocusFirstError(formRef, failed);
  const errors = failed?.errors ?? {};
  return (
    <Form method="post" ref={formRef} className="booking-form" noValidate>
      <CsrfField />
      <input type="hidden" name="intent" value="message" />
      <ErrorSummary result={failed} fields={["subject", "text"]} idPrefix="message" />
      <FormStatus result={result?.ok ? result : undefined} />
      <Field name="subject" label="Subject" idPrefix="message" defaultValue={failed?.values?.subject} errors={errors.subject} autoComplete="off" />
      <FieldShell name="text" label="Message" idPrefix="message" errors={errors.text}>
        {(control) => <textarea name="text" className="manage-textarea" defaultValue={failed?.values?.text} {...control} />}
      </FieldShell>
      <BookingSubmit>Send to everyone booked</BookingSubmit>
    </Form>
  );
}

export function CancelEventForm({ result, backHref }: { result: FormResult | undefined; backHref: string }) {
  const failed = result && !result.ok ? result : undefined;
  const noteId = fieldId("message", "cancel");
  return (
    <div className="booking-confirm">
      <h3 id="cancel-event-confirm">Are you sure you want to cancel the event?</h3>
      <p>
        Everyone booked or on the waiting list is told by email (with a calendar cancellation), and every card payment is refunded. This cannot be
        undone.
      </p>
      {failed?.message ? (
        <p role="alert" className={formStyles.error}>
          {failed.message}
        </p>
      ) : null}
      <Form method="post" className={formStyles.form}>
        <CsrfField />
        <input type="hidden" name="intent" value="cancel" />
        <div className={formStyles.field}>
          <label htmlFor={noteId}>A note to everyone (optional)</label>
          <textarea id={noteId} name="message" className="manage-textarea" defaultValue={failed?.values?.message} />
        </div>
        <div className={formStyles.actions}>
          <button type="submit" className={`button ${formStyles.danger} ${formStyles.button} booking-button`}>
            Yes, cancel the event
          </button>
          <Link to={backHref} className="button booking-button">
            No, keep it
          </Link>
        </div>
      </Form>
    </div>
  );
}
