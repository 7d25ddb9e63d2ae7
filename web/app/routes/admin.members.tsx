// /admin/members (admins only; others get the not-found page): search members by name,
// email, number or status; export them as CSV; import the society's list from a CSV
// with a dry-run report of what would change, then a confirmation.
import { useRef } from "react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/admin.members";
import { CsrfField, ErrorSummary, Field, FieldShell, FormStatus, formStyles, SelectField, useFocusFirstError } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { importMembers, isAdmin, loadMembers, type MembershipResult } from "../features/membership/api.server";
import { dateText, statusText } from "../features/membership/plan-text";
import { STATUSES } from "../features/membership/types";
import styles from "../features/membership/membership.module.css";
import { privateMeta } from "../features/auth/meta";

// Sign-in required (the default); the loader and action answer 404 to anyone not an admin.

const PAGE_SIZE = 50;

function adminsOnly(context: Route.LoaderArgs["context"]) {
  if (!isAdmin(context)) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
}

export async function loader({ url, context }: Route.LoaderArgs) {
  adminsOnly(context);
  const list = await loadMembers(context, url);
  if (!list) throw new Response("The members could not be loaded just now", { status: 503 });
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  return {
    members: list.members ?? [],
    total: list.total,
    q: url.searchParams.get("q") ?? "",
    status: url.searchParams.get("status") ?? "",
    page,
  };
}

export const meta = privateMeta("Members");

export async function action({ request, context }: Route.ActionArgs) {
  adminsOnly(context);
  const result = await importMembers(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

function ImportSection() {
  const result = useActionData<typeof action>() as MembershipResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod !== undefined;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, result && !result.ok ? result : undefined);
  const report = result?.report;
  const dryRunDone = result?.ok && result.intent === "import" && result.csv;
  const imported = result?.ok && result.intent === "import-confirm";
  const fileErrors = result && !result.ok ? result.errors?.file : undefined;

  return (
    <section className={styles.section} aria-labelledby="import">
      <h2 id="import">Import members from a CSV file</h2>
      <p>
        The file needs a header line with the columns name, email, plan and paid_until (as 2026-10-01), and may have number and
        concession. First you see what would change; nothing is imported until you confirm, and a file with any bad row imports
        nothing.
      </p>
      {result && !result.ok ? <ErrorSummary result={result.errors && Object.keys(result.errors).length ? result : { ok: false, message: result.message }} fields={["file"]} idPrefix="import" /> : null}
      {report?.errors?.length ? (
        <ScrollTable label="Rows with errors" captionShown columns={["Line", "Column", "Problem"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {report.errors.map((e) => (
              <tr key={`${e.line}-${e.column}-${e.message}`}>
                <td>{e.line}</td>
                <td>{e.column}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {dryRunDone && report ? (
        <Form method="post" className={formStyles.form} aria-labelledby="dry-run">
          <h3 id="dry-run">What the import would do</h3>
          <FormStatus>
            <p>
              It would add {report.would_add} {report.would_add === 1 ? "member" : "members"} and update {report.would_update}. Nothing
              has been imported yet.
            </p>
          </FormStatus>
          <CsrfField />
          <input type="hidden" name="intent" value="import-confirm" />
          <input type="hidden" name="csv" value={result.csv} />
          <div className={formStyles.actions}>
            <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={busy}>
              Import these members
            </button>
            <Link to="/admin/members">Cancel</Link>
          </div>
        </Form>
      ) : null}
      {imported ? (
        <FormStatus>
          <p>
            Imported: {report?.would_add ?? 0} added, {report?.would_update ?? 0} updated.
          </p>
        </FormStatus>
      ) : null}
      {!dryRunDone ? (
        <Form method="post" encType="multipart/form-data" ref={formRef} className={formStyles.form} noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="import" />
          <FieldShell name="file" idPrefix="import" label="CSV file of members" errors={fileErrors}>
            {(control) => <input {...control} name="file" type="file" accept=".csv,text/csv" />}
          </FieldShell>
          <div className={formStyles.actions}>
            <button type="submit" className={`button ${formStyles.button}`} disabled={busy}>
              Check the file
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  );
}

export default function AdminMembers({ loaderData }: Route.ComponentProps) {
  const { members, total, q, status, page } = loaderData;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const pageLink = (p: number) => `/admin/members?${new URLSearchParams({ ...(q ? { q } : {}), ...(status ? { status } : {}), page: String(p) })}`;
  return (
    <>
      <h1>Members</h1>
      <p>
        <Link to="/admin/members/plans">Membership plans</Link>
      </p>
      <Form method="get" role="search" aria-label="Search members" className={`${formStyles.form} ${styles.inline}`}>
        <Field name="q" idPrefix="members" label="Name, email or membership number" type="search" defaultValue={q} />
        <SelectField name="status" idPrefix="members" label="Status" options={[{ value: "", label: "Any" }, ...STATUSES.map((s) => ({ value: s, label: statusText(s) }))]} defaultValue={status} />
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`}>
            Search
          </button>
        </div>
      </Form>
      <p>
        <a href="/api/admin/members.csv" download="members.csv">
          Export every member as CSV
        </a>
      </p>
      <h2>
        {total} {total === 1 ? "member" : "members"}
        {q || status ? " found" : ""}
      </h2>
      {members.length ? (
        <ScrollTable label="Members" columns={["Number", "Name", "Email", "Plan", "Status", "Paid until"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <td>
                  <Link to={`/admin/members/${m.id}`}>{m.number}</Link>
                </td>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>{m.plan.name}</td>
                <td>{statusText(m.status)}</td>
                <td>{dateText(m.paid_until)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : (
        <p className="empty-state">No members match.</p>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages of members">
          <p className={formStyles.actions}>
            {page > 1 ? <Link to={pageLink(page - 1)}>Previous page</Link> : null}
            <span>
              Page {page} of {pages}
            </span>
            {page < pages ? <Link to={pageLink(page + 1)}>Next page</Link> : null}
          </p>
        </nav>
      ) : null}
      <ImportSection />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
