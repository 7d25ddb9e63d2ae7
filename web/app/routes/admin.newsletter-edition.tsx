// /admin/newsletter/:id (editors and admins; others get the not-found page): one
// edition. Change it, preview it (the HTML as the email will look, and the plain
// text), send a test to yourself, send it now or schedule it, and follow the sending
// (sent and failed counts; the page asks again every few seconds while it sends).
import { useEffect } from "react";
import { data, Form, Link, useRevalidator } from "react-router";
import type { Route } from "./+types/admin.newsletter-edition";
import { CsrfField, ErrorSummary, Field, FormStatus, formStyles, SubmitButton, useSubmitting } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import {
  cancelSchedule,
  isStaff,
  loadAllLists,
  loadDocuments,
  loadEdition,
  loadFailedRecipients,
  loadPreview,
  sendEdition,
  sendTest,
  updateEdition,
  type NewsletterResult,
} from "../features/newsletter/api.server";
import { EditionFields } from "../features/newsletter/EditionFields";
import { EmailFrame } from "../features/newsletter/EmailFrame";
import { editable, parseWallTime, progressPercent, progressText, statusText } from "../features/newsletter/edition";
import styles from "../features/newsletter/newsletter.module.css";
import { londonToUtc } from "../features/events/london-time";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";
import { formatDateTime } from "../lib/dates";
import { resultFor } from "../lib/form-result";

// Sign-in required (the default); the loader and action answer 404 to anyone not an editor or admin.

const NOT_FOUND = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isStaff(context)) throw NOT_FOUND();
  const edition = await loadEdition(context, params.id);
  if (!edition) throw NOT_FOUND();
  const [preview, documents, lists, failed] = await Promise.all([
    loadPreview(context, edition.id),
    editable(edition) ? loadDocuments(context) : Promise.resolve([]),
    loadAllLists(context),
    edition.counts.failed > 0 ? loadFailedRecipients(context, edition.id) : Promise.resolve([]),
  ]);
  return { edition, preview, documents: documents ?? [], lists: lists ?? [], failed: failed ?? [] };
}

export const meta = privateMeta("Newsletter edition");

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isStaff(context)) throw NOT_FOUND();
  const edition = await loadEdition(context, params.id);
  if (!edition) throw NOT_FOUND();
  const form = await request.formData();
  const intent = text(form, "intent");
  let result: NewsletterResult;
  switch (intent) {
    case "update":
      result = await updateEdition(context, edition.id, form);
      break;
    case "test":
      result = await sendTest(context, edition.id, form);
      break;
    case "send":
      result =
        text(form, "confirm") === "yes"
          ? await sendEdition(context, edition.id, form, null)
          : { ok: false, intent, errors: { confirm: ["Tick the box to confirm that it should go to every subscriber now."] } };
      break;
    case "schedule": {
      const wall = parseWallTime(text(form, "date"), text(form, "time"));
      const values = { date: text(form, "date"), time: text(form, "time") };
      if (!wall) {
        result = { ok: false, intent, values, errors: { date: ["Enter the day as 2026-12-01 and the time as 09:00."] } };
      } else {
        const at = londonToUtc(wall.year, wall.month, wall.day, wall.hour, wall.minute);
        result = at.getTime() <= Date.now() ? { ok: false, intent, values, errors: { date: ["Choose a time in the future."] } } : await sendEdition(context, edition.id, form, at);
        if (!result.ok) result.values = values;
      }
      break;
    }
    case "cancel":
      result = await cancelSchedule(context, edition.id, form);
      break;
    default:
      result = { ok: false, intent, message: "Unknown action. Please reload the page and try again." };
  }
  return data(result, { status: result.ok ? 200 : 422 });
}

function Progress({ edition }: { edition: Route.ComponentProps["loaderData"]["edition"] }) {
  const percent = progressPercent(edition.counts);
  return (
    <section className={styles.section} aria-labelledby="progress">
      <h2 id="progress">Sending</h2>
      <p>
        <label htmlFor="progress-bar">{progressText(edition.counts)}</label>
      </p>
      <progress id="progress-bar" className={styles.progress} max={100} value={percent}>
        {percent}%
      </progress>
      {edition.status === "sending" ? (
        <p>
          Emails go out a few hundred a minute; this page updates itself. <Link to=".">Refresh now</Link>
        </p>
      ) : null}
    </section>
  );
}

export default function AdminNewsletterEdition({ loaderData, actionData }: Route.ComponentProps) {
  const { edition, preview, documents, lists, failed } = loaderData;
  const result = actionData as NewsletterResult | undefined;
  const busy = useSubmitting();
  const revalidator = useRevalidator();
  const moving = edition.status === "sending" || edition.status === "scheduled";
  useEffect(() => {
    if (!moving) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => window.clearInterval(timer);
  }, [moving, revalidator]);

  const updateResult = resultFor(result, "update") as NewsletterResult | undefined;
  const testResult = resultFor(result, "test");
  const sendResult = resultFor(result, "send");
  const scheduleResult = resultFor(result, "schedule");
  const cancelResult = resultFor(result, "cancel");
  const listName = lists.find((l) => l.slug === edition.list)?.name ?? edition.list;

  return (
    <>
      <p>
        <Link to="/admin/newsletter">All editions</Link>
      </p>
      <h1>{edition.subject || `Edition ${edition.id}`}</h1>
      <p>
        <strong>{statusText(edition.status)}</strong>
        {edition.status === "scheduled" && edition.scheduled_at ? ` to go on ${formatDateTime(edition.scheduled_at)} (UK time)` : ""}
        {edition.status === "sent" && edition.sent_at ? ` on ${formatDateTime(edition.sent_at)}` : ""}. To the subscribers of {listName}.
      </p>

      <FormStatus result={sendResult} />
      {edition.status === "sending" || edition.status === "sent" ? <Progress edition={edition} /> : null}
      {failed.length ? (
        <section className={styles.section} aria-labelledby="failed">
          <h2 id="failed">Addresses that failed</h2>
          <ScrollTable label="Addresses that failed" columns={["Address", "What the mail server said"]} className={styles.tableWrap} tableClassName={styles.table}>
            <tbody>
              {failed.map((r) => (
                <tr key={r.email}>
                  <td>{r.email}</td>
                  <td>{r.error || "—"}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </section>
      ) : null}

      <section className={styles.section} aria-labelledby="preview">
        <h2 id="preview">Preview</h2>
        {preview ? (
          <>
            <p>
              Subject: <strong>{preview.subject}</strong>
            </p>
            <EmailFrame html={preview.html} title="Preview of the email" />
            <details>
              <summary>The plain-text version</summary>
              <pre className={styles.plain}>{preview.text}</pre>
            </details>
          </>
        ) : (
          <p>The preview cannot be shown just now.</p>
        )}
        <Form method="post" className={formStyles.form}>
          <CsrfField />
          <FormStatus result={testResult} />
          {testResult && !testResult.ok ? (
            <p role="alert" className={formStyles.error}>
              {testResult.message}
            </p>
          ) : null}
          <button type="submit" name="intent" value="test" className={`button ${formStyles.button}`} disabled={busy}>
            Send a test to me
          </button>
        </Form>
      </section>

      {editable(edition) ? (
        <>
          <section className={styles.section} aria-labelledby="send">
            <h2 id="send">Send</h2>
            <FormStatus result={cancelResult ?? scheduleResult} />
            {edition.status === "scheduled" ? (
              <Form method="post" className={formStyles.form}>
                <CsrfField />
                <p>It will go on {formatDateTime(edition.scheduled_at)} (UK time) unless you stop it.</p>
                <button type="submit" name="intent" value="cancel" className={`button ${formStyles.button}`} disabled={busy}>
                  Do not send it then
                </button>
              </Form>
            ) : null}
            <ErrorSummary result={sendResult ?? scheduleResult} fields={["confirm", "date", "time"]} idPrefix="send" />
            <Form method="post" className={formStyles.form} noValidate aria-labelledby="send-now">
              <h3 id="send-now">Send it now</h3>
              <CsrfField />
              <input type="hidden" name="intent" value="send" />
              <div className={sendResult?.errors?.confirm ? `${formStyles.checkbox} ${formStyles.fieldError}` : formStyles.checkbox}>
                <input
                  type="checkbox"
                  id="send-confirm"
                  name="confirm"
                  value="yes"
                  aria-invalid={sendResult?.errors?.confirm ? true : undefined}
                  aria-describedby={sendResult?.errors?.confirm ? "send-confirm-error" : undefined}
                />
                <label htmlFor="send-confirm">Yes, send it to every subscriber of {listName} now</label>
              </div>
              {sendResult?.errors?.confirm ? (
                <p id="send-confirm-error" className={formStyles.error}>
                  {sendResult.errors.confirm.join(" ")}
                </p>
              ) : null}
              <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={busy}>
                Send now
              </button>
            </Form>
            <Form method="post" className={formStyles.form} noValidate aria-labelledby="send-later">
              <h3 id="send-later">Or schedule it</h3>
              <CsrfField />
              <input type="hidden" name="intent" value="schedule" />
              <Field name="date" idPrefix="send" type="date" label="Day" hint="UK time." defaultValue={scheduleResult?.values?.date ?? ""} errors={scheduleResult?.errors?.date} />
              <Field name="time" idPrefix="send" type="time" label="Time" defaultValue={scheduleResult?.values?.time ?? "09:00"} errors={scheduleResult?.errors?.time} />
              <button type="submit" className={`button ${formStyles.button}`} disabled={busy}>
                Schedule
              </button>
            </Form>
          </section>

          <section className={styles.section} aria-labelledby="change">
            <h2 id="change">Change the edition</h2>
            <FormStatus result={updateResult} />
            <ErrorSummary result={updateResult} fields={["list", "document", "subject", "sections"]} idPrefix="edit" />
            <Form method="post" className={formStyles.form} noValidate aria-labelledby="change">
              <CsrfField />
              <input type="hidden" name="intent" value="update" />
              <EditionFields
                key={JSON.stringify(edition)}
                lists={lists}
                documents={documents}
                values={
                  updateResult && !updateResult.ok
                    ? (updateResult.values ?? {})
                    : { list: edition.list, document: edition.document, subject: edition.subject, sections: edition.sections.join(",") }
                }
                errors={updateResult?.errors}
                idPrefix="edit"
              />
              <div className={formStyles.actions}>
                <SubmitButton busy={busy}>
                  Save changes
                </SubmitButton>
              </div>
            </Form>
          </section>
        </>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
