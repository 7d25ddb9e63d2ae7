// /studio/people (admins; others get the not-found page): find an account by name or
// email, change its role, disable or enable it, send it a password reset. Every button
// is a plain form post, so the page works by keyboard and without JavaScript; each
// change is written to the audit log by the API.
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/studio.people";
import { ActionOutcome, CsrfField, Field, formStyles, PostButton, SelectField } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { isAdmin, loadPeople, myId, notFound, personAction, type PersonResult } from "../features/staff/api.server";
import type { Person } from "../features/staff/types";
import { plural, roleText } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { formatDate } from "../lib/dates";

// Sign-in required (the default); the studio's layout refuses anyone not staff, and
// this page answers 404 to editors.

export async function loader({ url, context }: Route.LoaderArgs) {
  if (!isAdmin(context)) throw notFound();
  const page = await loadPeople(context, url.searchParams);
  if (!page) throw new Response("The accounts cannot be listed just now", { status: 503 });
  const q = url.searchParams;
  return {
    people: page.people ?? [],
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    // The roles Go accepts, in its order (auth.Roles): no copy of the list here.
    roles: page.roles ?? [],
    me: myId(context),
    filters: { q: q.get("q") ?? "", role: q.get("role") ?? "", status: q.get("status") ?? "" },
  };
}

export const meta = privateMeta("People");

export async function action({ request, context }: Route.ActionArgs) {
  if (!isAdmin(context)) throw notFound();
  const result = await personAction(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function StudioPeople({ loaderData }: Route.ComponentProps) {
  const { people, total, offset, limit, roles, me, filters } = loaderData;
  const result = useActionData<typeof action>() as PersonResult | undefined;
  const pageLink = (o: number) => `/studio/people?${new URLSearchParams({ ...filtersOf(filters), offset: String(o) })}`;
  return (
    <>
      <h1>People</h1>
      <p className={styles.lead}>
        Everyone with an account on the website. Find someone by name or email address to change what they may do, stop them from
        signing in, or send them a link to choose a new password. Every change is kept in the <Link to="/studio/audit">audit log</Link>.
      </p>
      <Form method="get" role="search" aria-label="Find people" className={`${formStyles.form} ${styles.inline}`}>
        <Field name="q" idPrefix="people" label="Name or email address" type="search" defaultValue={filters.q} maxLength={200} />
        <SelectField name="role" idPrefix="people" label="Role" options={[{ value: "", label: "Any" }, ...roles.map((r) => ({ value: r, label: roleText(r) }))]} defaultValue={filters.role} />
        <SelectField
          name="status"
          idPrefix="people"
          label="Can sign in"
          options={[
            { value: "", label: "Any" },
            { value: "active", label: "Yes" },
            { value: "disabled", label: "No (disabled)" },
          ]}
          defaultValue={filters.status}
        />
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`}>
            Find
          </button>
        </div>
      </Form>

      <h2>
        {plural(total, "account")}
        {filters.q || filters.role || filters.status ? " found" : ""}
      </h2>
      <ActionOutcome result={result} failed="That did not work. Please try again." className={styles.failed} />
      {people.length ? (
        <ul className={styles.cards} aria-label="Accounts">
          {people.map((p) => (
            <PersonCard key={p.id} person={p} roles={roles} self={p.id === me} />
          ))}
        </ul>
      ) : (
        <p className="empty-state">No accounts match.</p>
      )}
      {total > limit ? (
        <nav aria-label="Pages of accounts">
          <p className={formStyles.actions}>
            {offset > 0 ? <Link to={pageLink(Math.max(0, offset - limit))}>Previous page</Link> : null}
            <span>
              Page {Math.floor(offset / limit) + 1} of {Math.ceil(total / limit)}
            </span>
            {offset + limit < total ? <Link to={pageLink(offset + limit)}>Next page</Link> : null}
          </p>
        </nav>
      ) : null}
    </>
  );
}

function filtersOf(f: { q: string; role: string; status: string }): Record<string, string> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v));
}

/** One account as a card (a table's action column would be off screen on a phone). */
function PersonCard({ person: p, roles, self }: { person: Person; roles: string[]; self: boolean }) {
  const roleId = `role-${p.id}`;
  return (
    <li className={styles.card}>
      <h3>{p.name || "(no name)"}</h3>
      <p className={styles.email}>
        {p.email}
        {!p.email_verified ? <span className={`${styles.badge} ${styles.badgeWarning}`}>email not confirmed</span> : null}
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>Role</dt>
          <dd>{roleText(p.role)}</dd>
        </div>
        <div>
          <dt>Can sign in</dt>
          <dd>{p.disabled ? <span className={`${styles.badge} ${styles.badgeWarning}`}>No: disabled</span> : "Yes"}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDate(p.created_at)}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{p.last_seen_at ? formatDate(p.last_seen_at) : "Never"}</dd>
        </div>
      </dl>
      {self ? (
        <p>This is you. Another administrator can change your account.</p>
      ) : (
        <div className={styles.rowActions}>
          <Form method="post">
            <CsrfField />
            <input type="hidden" name="intent" value="role" />
            <input type="hidden" name="id" value={p.id} />
            <input type="hidden" name="name" value={p.name} />
            <label htmlFor={roleId} className="visually-hidden">
              New role for {p.name}
            </label>
            <select id={roleId} name="role" defaultValue={p.role} className={styles.small}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {roleText(r)}
                </option>
              ))}
            </select>
            <button type="submit" className="button">
              Change role<span className="visually-hidden"> of {p.name}</span>
            </button>
          </Form>
          <PostButton intent={p.disabled ? "enable" : "disable"} hidden={{ id: p.id, name: p.name }}>
            {p.disabled ? "Let them sign in" : "Stop them signing in"}
            <span className="visually-hidden"> ({p.name})</span>
          </PostButton>
          {!p.disabled ? (
            <PostButton intent="reset" hidden={{ id: p.id, name: p.name }}>
              Send a password reset<span className="visually-hidden"> to {p.name}</span>
            </PostButton>
          ) : null}
          <Link to={`/studio/audit?${new URLSearchParams({ subject: `user:${p.id}` })}`}>
            History<span className="visually-hidden"> of {p.name}</span>
          </Link>
        </div>
      )}
    </li>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
