// /admin/newsletter (editors and admins; others get the not-found page): the editions,
// newest first, with their status and progress, and a new edition made from a
// content document of type `newsletter`.
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.newsletter";
import { CsrfField, ErrorSummary, formStyles, usePageForm } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { createEdition, isStaff, loadAllLists, loadDocuments, loadEditions, type NewsletterResult } from "../features/newsletter/api.server";
import { EditionFields } from "../features/newsletter/EditionFields";
import { progressText, SECTIONS, statusText } from "../features/newsletter/edition";
import styles from "../features/newsletter/newsletter.module.css";
import { isAdmin } from "../features/membership/api.server";
import { privateMeta } from "../features/auth/meta";
import { formatDateTime } from "../lib/dates";

// Sign-in required (the default); the loader and action answer 404 to anyone not an editor or admin.

function staffOnly(context: Route.LoaderArgs["context"]) {
  if (!isStaff(context)) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export async function loader({ context }: Route.LoaderArgs) {
  staffOnly(context);
  const [editions, documents, lists] = await Promise.all([loadEditions(context), loadDocuments(context), loadAllLists(context)]);
  if (!editions || !documents || !lists) throw new Response("The newsletter could not be loaded just now", { status: 503 });
  return { editions, documents, lists, admin: isAdmin(context) };
}

export const meta = privateMeta("Newsletter editions");

export async function action({ request, context }: Route.ActionArgs) {
  staffOnly(context);
  const result = await createEdition(context, await request.formData());
  if (result.ok && result.edition) throw redirect(`/admin/newsletter/${result.edition.id}`);
  return data(result, { status: 422 });
}

const FIELDS = ["list", "document", "subject", "sections"] as const;

export default function AdminNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const { editions, documents, lists, admin } = loaderData;
  const result = actionData as NewsletterResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const listName = (slug: string) => lists.find((l) => l.slug === slug)?.name ?? slug;
  return (
    <>
      <h1>Newsletter editions</h1>
      <p>
        An edition is made from a content document of type “newsletter”. Preview it, send a test to yourself, then send it or
        schedule it. Sent editions of public lists appear in the <Link to="/newsletter">archive</Link>.
      </p>
      {admin ? (
        <p>
          <Link to="/admin/newsletter/lists">Lists and their subscribers</Link>
        </p>
      ) : null}
      {editions.length === 0 ? (
        <p>There are no editions yet.</p>
      ) : (
        <ScrollTable label="Editions" caption="Editions, newest first" columns={["Subject", "List", "Status", "Progress"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {editions.map((e) => (
              <tr key={e.id}>
                <td>
                  <Link to={`/admin/newsletter/${e.id}`}>{e.subject || `Edition ${e.id}`}</Link>
                </td>
                <td>{listName(e.list)}</td>
                <td>
                  {statusText(e.status)}
                  {e.status === "scheduled" && e.scheduled_at ? ` for ${formatDateTime(e.scheduled_at)}` : ""}
                  {e.status === "sent" && e.sent_at ? ` on ${formatDateTime(e.sent_at)}` : ""}
                </td>
                <td>{e.status === "sending" || e.status === "sent" ? progressText(e.counts) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}

      <section className={styles.section} aria-labelledby="new-edition">
        <h2 id="new-edition">New edition</h2>
        {documents.length === 0 ? (
          <p>There is no content document of type “newsletter” yet. Write one in the content editor first.</p>
        ) : (
          <>
            <ErrorSummary result={result} fields={FIELDS} idPrefix="new" />
            <Form method="post" ref={formRef} className={formStyles.form} noValidate aria-labelledby="new-edition">
              <CsrfField />
              <EditionFields
                lists={lists}
                documents={documents}
                values={result?.values ?? { sections: SECTIONS.map((s) => s.value).join(",") }}
                errors={result?.errors}
                idPrefix="new"
              />
              <div className={formStyles.actions}>
                <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={busy}>
                  Create the edition
                </button>
              </div>
            </Form>
          </>
        )}
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
