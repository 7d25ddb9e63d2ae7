// The two steps of the booking form (booking-form.ts has their rules). Both are plain
// forms: step 1 a GET (the choice lands in the URL), step 2 a POST to the route's
// action. Errors show at their fields and in a summary; focus goes to the first.
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { CsrfField, ErrorSummary, ErrorText, Field, fieldId, formStyles, usePageForm } from "../../components/forms/Forms";
import { firstErrorField, type FieldErrors, type FormResult } from "../../lib/form-result";
import { bookingFields, QTY_PREFIX, ticketsTotal, type TicketChoice, type TicketRow } from "./booking-form";
import { MODE_LABELS, modeLines, offeredModes, priceText, ticketPriceText } from "./booking-text";
import type { AttendanceMode, EventBooking } from "./booking-types";
import { BookingSubmit } from "./BookingSubmit";

/** Step 1: how to attend and how many tickets of each type (a GET form). */
export function TicketStep({ event, choice, action }: { event: EventBooking; choice: TicketChoice; action: string }) {
  const errors: FieldErrors = choice.errors;
  const result: FormResult | undefined = Object.keys(errors).length ? { ok: false, errors } : undefined;
  const { formRef } = usePageForm(result);
  const modes = offeredModes(event);
  const lines = Object.fromEntries(modeLines(event).map((l) => [l.mode, l.text]));
  const qtyFields = event.ticket_types.map((t) => QTY_PREFIX + t.key);
  const first = firstErrorField(errors, ["mode", "tickets", ...qtyFields]);
  const max = event.max_per_booking;
  const modeErrorId = `${fieldId("mode")}-error`;
  const ticketsErrorId = `${fieldId("tickets")}-error`;
  return (
    <Form method="get" action={action} ref={formRef} className="booking-form" noValidate>
      <ErrorSummary result={result} fields={["mode", "tickets", ...qtyFields]} />
      {modes.length > 1 ? (
        <fieldset id={fieldId("mode")} className="booking-fieldset" aria-describedby={errors.mode ? modeErrorId : undefined}>
          <legend>How will you attend?</legend>
          <ErrorText id={modeErrorId} errors={errors.mode} />
          {modes.map((m, i) => (
            <label key={m} className="booking-choice">
              <input
                type="radio"
                name="mode"
                value={m}
                defaultChecked={choice.mode === m}
                autoFocus={first === "mode" && i === 0}
                aria-invalid={errors.mode ? true : undefined}
              />
              <span>
                {MODE_LABELS[m]} ({lines[m]?.toLowerCase()})
              </span>
            </label>
          ))}
        </fieldset>
      ) : modes.length === 1 ? (
        <>
          <input type="hidden" name="mode" value={modes[0]} />
          <p>
            <strong>{MODE_LABELS[modes[0]!]}:</strong> {lines[modes[0]!]?.toLowerCase()}.
          </p>
        </>
      ) : null}
      <fieldset id={fieldId("tickets")} className="booking-fieldset" aria-describedby={errors.tickets ? ticketsErrorId : `${fieldId("tickets")}-hint`}>
        <legend>How many tickets?</legend>
        <p id={`${fieldId("tickets")}-hint`} className={formStyles.hint}>
          Up to {max} {max === 1 ? "ticket" : "tickets"} in one booking. You give each person’s name next.
        </p>
        <ErrorText id={ticketsErrorId} errors={errors.tickets} />
        {event.ticket_types.map((t) => {
          const name = QTY_PREFIX + t.key;
          const id = fieldId(name);
          const errorId = errors[name]?.length ? `${id}-error` : undefined;
          const noteId = t.note ? `${id}-note` : undefined;
          return (
            <div key={t.key} className={errors[name]?.length ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
              <label htmlFor={id}>
                {t.label}: {ticketPriceText(t, event.currency)}
              </label>
              {t.note ? (
                <p id={noteId} className={formStyles.hint}>
                  {t.note}
                </p>
              ) : null}
              <ErrorText id={`${id}-error`} errors={errors[name]} />
              <select
                id={id}
                name={name}
                className="booking-select"
                defaultValue={String(choice.counts[t.key] ?? 0)}
                disabled={!t.eligible}
                autoFocus={first === name || (first === "tickets" && t === event.ticket_types.find((x) => x.eligible))}
                aria-describedby={[noteId, errorId].filter(Boolean).join(" ") || undefined}
                aria-invalid={errorId ? true : undefined}
              >
                {Array.from({ length: max + 1 }, (_, n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </fieldset>
      <BookingSubmit>Continue</BookingSubmit>
    </Form>
  );
}

interface NamesStepProps {
  event: EventBooking;
  mode: AttendanceMode;
  rows: TicketRow[];
  counts: Record<string, number>;
  signedIn: boolean;
  /** The signed-in member's name, offered for the first ticket. */
  defaultName: string;
  result: FormResult | undefined;
  /** Step 1 with this choice, to change it. */
  changeHref: string;
}

/** Step 2: a name for each ticket, a visitor's own name and email, and the button that books. */
export function NamesStep({ event, mode, rows, counts, signedIn, defaultName, result, changeHref }: NamesStepProps) {
  const failed = result && !result.ok ? result : undefined;
  const { formRef, busy } = usePageForm(failed);
  const errors = failed?.errors ?? {};
  const values = failed?.values ?? {};
  const fields = bookingFields(rows, signedIn);
  const first = firstErrorField(errors, fields);
  const total = ticketsTotal(rows);
  const waitlist = event.modes[mode]?.state === "waitlist";
  const label = busy ? "Booking…" : waitlist ? "Join the waiting list" : total > 0 ? `Continue to payment (${priceText(total, event.currency)})` : "Book";
  return (
    <Form method="post" ref={formRef} className="booking-form" noValidate>
      <ErrorSummary result={failed} fields={fields} />
      <CsrfField />
      <input type="hidden" name="mode" value={mode} />
      <section aria-labelledby="your-tickets" id={fieldId("tickets")}>
        <h2 id="your-tickets">Your tickets</h2>
        <ul className="booking-summary">
          <li>
            <strong>{MODE_LABELS[mode]}</strong>
            {waitlist ? ": fully booked, so you will join the waiting list" : ""}
          </li>
          {event.ticket_types
            .filter((t) => counts[t.key])
            .map((t) => (
              <li key={t.key}>
                {counts[t.key]} × {t.label} at {priceText(t.price, event.currency)}
              </li>
            ))}
        </ul>
        <p className="booking-total">Total: {priceText(total, event.currency)}</p>
        <ErrorText id={`${fieldId("tickets")}-error`} errors={errors.tickets} />
        <p>
          <Link to={changeHref}>Change your tickets</Link>
        </p>
      </section>
      <fieldset className="booking-fieldset">
        <legend>Who is coming?</legend>
        {rows.map((row) => (
          <div key={row.index}>
            <input type="hidden" name={`tickets.${row.index}.type`} value={row.type} />
            <ErrorText id={`${fieldId(`tickets.${row.index}.type`)}-error`} errors={errors[`tickets.${row.index}.type`]} />
            <Field
              name={`tickets.${row.index}.name`}
              label={`Name on ticket ${row.index + 1} (${row.label})`}
              autoComplete={row.index === 0 && signedIn ? "name" : "off"}
              defaultValue={values[`tickets.${row.index}.name`] ?? (row.index === 0 ? defaultName : "")}
              errors={errors[`tickets.${row.index}.name`]}
              autoFocus={first === `tickets.${row.index}.name`}
            />
          </div>
        ))}
      </fieldset>
      {!signedIn ? (
        <fieldset className="booking-fieldset">
          <legend>About you</legend>
          <Field name="name" label="Your name" autoComplete="name" defaultValue={values.name} errors={errors.name} autoFocus={first === "name"} />
          <Field
            name="email"
            label="Your email address"
            type="email"
            autoComplete="email"
            spellCheck={false}
            hint="We will email you a link to confirm your booking. We keep your places for an hour while you do."
            defaultValue={values.email}
            errors={errors.email}
            autoFocus={first === "email"}
          />
        </fieldset>
      ) : null}
      {waitlist ? (
        <p>If a place becomes free we will email you, and you will have 48 hours to take it{total > 0 ? " and pay" : ""}.</p>
      ) : total > 0 ? (
        <p>You pay by card on Stripe’s secure payment page{signedIn ? "" : ", after you have confirmed your email address"}. Your places are held for 15 minutes while you pay.</p>
      ) : null}
      {event.refund_rule ? <p className="booking-panel__rule">{event.refund_rule}</p> : null}
      <BookingSubmit busy={busy}>{label}</BookingSubmit>
    </Form>
  );
}

/** After a visitor books: check your email. Focus moves to the heading. */
export function CheckEmail({ email, waitlisted }: { email: string; waitlisted: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const navigation = useNavigation();
  const focused = useRef(false);
  useEffect(() => {
    // Once the submission's navigation has ended, and after the site shell's own
    // after-navigation focus (a parent's effect of the same commit).
    if (navigation.state !== "idle" || focused.current) return;
    const timer = window.setTimeout(() => {
      focused.current = true;
      heading.current?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [navigation.state]);
  return (
    <section className="booking-processing" aria-labelledby="check-email">
      <h2 id="check-email" ref={heading} tabIndex={-1}>
        Check your email to confirm
      </h2>
      <p>
        We have sent an email to <strong>{email}</strong>. Press the link in it within an hour to confirm your{" "}
        {waitlisted ? "place on the waiting list" : "booking"}. Until then {waitlisted ? "you are not on the list" : "your places are only held"}.
      </p>
      <p>If the email has not arrived in a few minutes, look in your spam or junk folder.</p>
    </section>
  );
}

