// /studio/audit (admins; others get the not-found page): every staff action — who, what,
// about what, when, and what it changed — newest first, narrowed by the filters of a
// plain GET form (the URL is the state), a page at a time, and downloadable as a CSV
// file with the same filters.
import { Form, Link } from "react-router";
import type { Route } from "./+types/studio.audit";
import { Field, formStyles, SelectField } from "../components/forms/Forms";
import { AUDIT_FILTERS } from "../features/staff/fields";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { auditCsvPath, isAdmin, loadAudit, loadPeople, notFound } from "../features/staff/api.server";
import { actionText, changeLines } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { formatDateTime } from "../lib/dates";
import { ScrollTable } from "../components/ScrollTable";

// Sign-in required (the default); admins only.

export async function loader({ url, context }: Route.LoaderArgs) {
  if (!isAdmin(context)) throw notFound();
  const params = url.searchParams;
  // The "who" filter offers the staff accounts: only editors and admins act here.
  const [page, editors, admins] = await Promise.all([
    loadAudit(context, params),
    loadPeople(context, new URLSearchParams({ role: "editor", limit: "200" })),
    loadPeople(context, new URLSearchParams({ role: "admin", limit: "200" })),
  ]);
  if (!page) throw new Response("The audit log cannot be shown just now", { status: 503 });
  const staff = [...(admins?.people ?? []), ...(editors?.people ?? [])].map((p) => ({ id: p.id, name: p.name || p.email }));
  staff.sort((a, b) => a.name.localeCompare(b.name, "en-GB"));
  const filters = Object.fromEntries(AUDIT_FILTERS.map((k) => [k, params.get(k) ?? ""])) as Record<(typeof AUDIT_FILTERS)[number], string>;
  const nextParams = new URLSearchParams(Object.entries(filters).filter(([k, v]) => v && k !== "before"));
  if (page.next_before) nextParams.set("before", String(page.next_before));
  return {
    entries: page.entries ?? [],
    actions: page.actions ?? [],
    next: page.next_before ? `/studio/audit?${nextParams}` : null,
    csv: auditCsvPath(params),
    staff,
    filters,
  };
}

export const meta = privateMeta("Audit log");

export default function StudioAudit({ loaderData }: Route.ComponentProps) {
  const { entries, actions, next, csv, staff, filters } = loaderData;
  const filtered = Object.entries(filters).some(([k, v]) => v && k !== "before");
  return (
    <>
      <h1>Audit log</h1>
      <p className={styles.lead}>
        Every change made by the society’s staff in the studio: who did it, when, and what it changed. The newest come first.
      </p>
      <Form method="get" role="search" aria-label="Filter the audit log" className={`${formStyles.form} ${styles.inline}`}>
        <SelectField
          name="actor"
          idPrefix="audit"
          label="Who"
          options={[{ value: "", label: "Anyone" }, ...staff.map((p) => ({ value: String(p.id), label: p.name }))]}
          defaultValue={filters.actor}
        />
        <SelectField
          name="action"
          idPrefix="audit"
          label="What"
          options={[{ value: "", label: "Anything" }, ...actions.map((a) => ({ value: a, label: actionText(a) }))]}
          defaultValue={filters.action}
        />
        <Field name="subject" idPrefix="audit" label="About" hint="For example user:7 or tree:smith-family" defaultValue={filters.subject} maxLength={200} />
        <Field name="from" idPrefix="audit" label="From" type="date" defaultValue={filters.from} />
        <Field name="to" idPrefix="audit" label="To" type="date" defaultValue={filters.to} />
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`}>
            Show
          </button>
          {filtered ? <Link to="/studio/audit">Show everything</Link> : null}
        </div>
      </Form>
      <p>
        <a href={csv} download>
          Download {filtered ? "these entries" : "the audit log"} as a spreadsheet (CSV)
        </a>
      </p>
      {entries.length ? (
        <ScrollTable label="Audit entries" caption="Audit entries, newest first" columns={["When", "Who", "What", "About", "Change"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {entries.map((e) => {
              const lines = changeLines(e.before, e.after);
              return (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at)}</td>
                  <td>{e.actor ? e.actor.name || e.actor.email : "A deleted account"}</td>
                  <td>{actionText(e.action)}</td>
                  <td>
                    {e.summary || e.subject}
                    {e.summary ? <span className={styles.sample}>{e.subject}</span> : null}
                  </td>
                  <td>
                    {lines.length ? (
                      <ul className={styles.changes}>
                        {lines.map((l) => (
                          <li key={l}>{l}</li>
                        ))}
                      </ul>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      ) : (
        <p className="empty-state">Nothing in the audit log matches.</p>
      )}
      {next || filters.before ? (
        <nav aria-label="Pages of the audit log">
          <p className={formStyles.actions}>
            {filters.before ? <Link to={`/studio/audit?${new URLSearchParams(Object.entries(filters).filter(([k, v]) => v && k !== "before"))}`}>Newest</Link> : null}
            {next ? <Link to={next}>Older entries</Link> : null}
          </p>
        </nav>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
