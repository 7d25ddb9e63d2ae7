// /admin/newsletter/lists (admins only; others get the not-found page): the lists,
// who may subscribe to each and how many confirmed subscribers it has; change a
// list, or add one.
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin.newsletter-lists";
import { CsrfField, ErrorSummary, Field, FormStatus, fieldId, formStyles, SubmitButton, useSubmitting } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { loadAdminLists, saveList, type NewsletterResult } from "../features/newsletter/api.server";
import { audienceText } from "../features/newsletter/lists";
import styles from "../features/newsletter/newsletter.module.css";
import { isAdmin } from "../features/membership/api.server";
import { privateMeta } from "../features/auth/meta";
import type { FieldErrors } from "../lib/form-result";
import { resultFor } from "../lib/form-result";

// Sign-in required (the default); the loader and action answer 404 to anyone not an admin.

function adminsOnly(context: Route.LoaderArgs["context"]) {
  if (!isAdmin(context)) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export async function loader({ context }: Route.LoaderArgs) {
  adminsOnly(context);
  const lists = await loadAdminLists(context);
  if (!lists) throw new Response("The lists could not be loaded just now", { status: 503 });
  return { lists };
}

export const meta = privateMeta("Newsletter lists");

export async function action({ request, context }: Route.ActionArgs) {
  adminsOnly(context);
  const result = await saveList(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

const FIELDS = ["slug", "name", "description", "audience", "scope"] as const;

function ListFields({ idPrefix, values, errors }: { idPrefix: string; values: Record<string, string>; errors?: FieldErrors }) {
  const audienceId = fieldId("audience", idPrefix);
  const audienceError = errors?.audience?.length ? `${audienceId}-error` : undefined;
  return (
    <>
      <Field name="name" idPrefix={idPrefix} label="Name of the list" defaultValue={values.name ?? ""} errors={errors?.name} />
      <Field name="description" idPrefix={idPrefix} label="Description" hint="One line, shown under the name in sign-up forms." defaultValue={values.description ?? ""} errors={errors?.description} />
      <div className={audienceError ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
        <label htmlFor={audienceId}>Who may subscribe</label>
        {audienceError ? (
          <p id={audienceError} className={formStyles.error}>
            {errors!.audience!.join(" ")}
          </p>
        ) : null}
        <select id={audienceId} name="audience" className={formStyles.input} defaultValue={values.audience ?? "public"} aria-describedby={audienceError}>
          <option value="public">Anyone</option>
          <option value="members">Members only</option>
        </select>
      </div>
      <Field
        name="scope"
        idPrefix={idPrefix}
        label="Scope a member needs (members-only lists)"
        hint="Usually “member”. Left empty, a members-only list needs “member”."
        defaultValue={values.scope ?? ""}
        errors={errors?.scope}
      />
    </>
  );
}

export default function AdminNewsletterLists({ loaderData, actionData }: Route.ComponentProps) {
  const { lists } = loaderData;
  const result = actionData as NewsletterResult | undefined;
  const busy = useSubmitting();
  const created = resultFor(result, "list-create") as NewsletterResult | undefined;
  return (
    <>
      <p>
        <Link to="/admin/newsletter">Newsletter editions</Link>
      </p>
      <h1>Newsletter lists</h1>
      <FormStatus result={result?.ok ? result : undefined} />
      <ScrollTable label="Newsletter lists" columns={["List", "Who may subscribe", "Subscribers"]} className={styles.tableWrap} tableClassName={styles.table}>
        <tbody>
          {lists.map((l) => (
            <tr key={l.slug}>
              <td>
                {l.name} <span className={styles.meta}>({l.slug})</span>
              </td>
              <td>{audienceText(l)}</td>
              <td>{l.subscribers}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      {lists.map((l) => {
        const mine = resultFor(result, "list-update", l.slug) as NewsletterResult | undefined;
        const failed = mine && !mine.ok ? mine : undefined;
        const prefix = `list-${l.slug}`;
        return (
          <details key={l.slug} open={Boolean(failed)} className={styles.section}>
            <summary>Change “{l.name}”</summary>
            <ErrorSummary result={failed} fields={FIELDS} idPrefix={prefix} />
            <Form method="post" className={formStyles.form} noValidate aria-label={`Change the list “${l.name}”`}>
              <CsrfField />
              <input type="hidden" name="intent" value="list-update" />
              <input type="hidden" name="slug" value={l.slug} />
              <ListFields idPrefix={prefix} values={failed?.values ?? { name: l.name, description: l.description, audience: l.audience, scope: l.scope }} errors={failed?.errors} />
              <div className={formStyles.actions}>
                <SubmitButton busy={busy}>
                  Save “{l.name}”
                </SubmitButton>
              </div>
            </Form>
          </details>
        );
      })}

      <section className={styles.section} aria-labelledby="add-list">
        <h2 id="add-list">Add a list</h2>
        <ErrorSummary result={created && !created.ok ? created : undefined} fields={FIELDS} idPrefix="new-list" />
        <Form method="post" className={formStyles.form} noValidate aria-labelledby="add-list">
          <CsrfField />
          <input type="hidden" name="intent" value="list-create" />
          <Field
            name="slug"
            idPrefix="new-list"
            label="Slug"
            hint="Lower-case letters, digits and hyphens, as in family-news. It never changes."
            defaultValue={created && !created.ok ? (created.values?.slug ?? "") : ""}
            errors={created && !created.ok ? created.errors?.slug : undefined}
          />
          <ListFields idPrefix="new-list" values={created && !created.ok ? (created.values ?? {}) : {}} errors={created && !created.ok ? created.errors : undefined} />
          <div className={formStyles.actions}>
            <SubmitButton busy={busy}>
              Add the list
            </SubmitButton>
          </div>
        </Form>
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
