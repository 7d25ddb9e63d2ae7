// /admin/members/plans/new and /admin/members/plans/:slug/edit (admins only; others get
// the not-found page): the form that creates or edits one membership plan — its price
// typed in pounds and pence (features/membership/plan-form.ts turns it into pence
// exactly), period, benefits, scopes, household size, concessions, sale and grace days.
// The API's 422 field errors show next to their fields.
import { useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.plan";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { Checkbox, CsrfField, ErrorSummary, ErrorText, Field, fieldId, FieldShell, formStyles, useFocusFirstError } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin, loadAllPlans, savePlan } from "../features/membership/api.server";
import { type ConcessionRow, PERIODS, PLAN_FIELDS, planFormValues } from "../features/membership/plan-form";
import styles from "../features/membership/membership.module.css";
import { privateMeta } from "../features/auth/meta";
import { firstErrorField } from "../lib/form-result";

// Sign-in required (the default); the loader and action answer 404 to anyone not an admin.

const NOT_FOUND = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });
const PREFIX = "plan";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const PERIOD_TEXT: Record<string, string> = { annual: "Annual (a year from joining)", monthly: "Monthly", lifetime: "Lifetime", fixed: "Fixed date (renews every year on one day)" };

async function planOf(context: Route.LoaderArgs["context"], slug: string | undefined) {
  if (!isAdmin(context)) throw NOT_FOUND();
  if (!slug) return null;
  const plan = (await loadAllPlans(context)).find((p) => p.slug === slug);
  if (!plan) throw NOT_FOUND();
  return plan;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  return { plan: await planOf(context, params.slug) };
}

export const meta = privateMeta("Membership plan");

export async function action({ request, params, context }: Route.ActionArgs) {
  const plan = await planOf(context, params.slug);
  const result = await savePlan(context, await request.formData(), plan?.slug);
  if (result.ok) throw redirect(`/admin/members/plans?saved=${encodeURIComponent(result.saved?.slug ?? plan?.slug ?? "")}`);
  return data(result, { status: 422 });
}

function Concessions({ initial, errors }: { initial: ConcessionRow[]; errors?: string[] }) {
  // Each row keeps its own index in the field names, so removing one leaves the others'
  // typed values where they are; indexes only grow, so the posted order is the shown one.
  const [rows, setRows] = useState(() => initial.map((r, i) => ({ ...r, key: i })));
  const nextKey = useRef(initial.length);
  const errorId = errors?.length ? `${fieldId("concessions", PREFIX)}-error` : undefined;
  return (
    <fieldset id={fieldId("concessions", PREFIX)} className={styles.fieldset} aria-describedby={errorId}>
      <legend>Concessions</legend>
      <p className={formStyles.hint}>Reduced prices for some members, such as students. Leave none for a plan without concessions.</p>
      <ErrorText id={errorId} errors={errors} />
      {rows.map((row, i) => {
        const invalid = errorId ? { "aria-invalid": true as const } : {};
        const rowId = (f: string) => fieldId(`concessions.${row.key}.${f}`, PREFIX);
        return (
          <div key={row.key} className={styles.fieldset} role="group" aria-label={`Concession ${i + 1}`}>
            {(["name", "slug", "price"] as const).map((f) => (
              <div key={f} className={formStyles.field}>
                <label htmlFor={rowId(f)}>{`Concession ${i + 1} ${f === "price" ? "price (pounds and pence)" : f}`}</label>
                <input
                  id={rowId(f)}
                  name={`concessions.${row.key}.${f}`}
                  className={formStyles.input}
                  defaultValue={row[f]}
                  inputMode={f === "price" ? "decimal" : undefined}
                  autoComplete="off"
                  aria-describedby={errorId}
                  {...invalid}
                />
              </div>
            ))}
            <button type="button" className={`button ${formStyles.button}`} onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}>
              Remove concession {i + 1}
            </button>
          </div>
        );
      })}
      <button type="button" className={`button ${formStyles.button}`} onClick={() => setRows((rs) => [...rs, { name: "", slug: "", price: "", key: nextKey.current++ }])}>
        Add a concession
      </button>
    </fieldset>
  );
}

export default function AdminPlan({ loaderData, actionData }: Route.ComponentProps) {
  const { plan } = loaderData;
  const result = actionData && !actionData.ok ? actionData : undefined;
  const start = planFormValues(plan);
  const values = { ...start.values, ...(result?.values ?? {}) };
  const concessions = result?.concessionRows ?? start.concessions;
  const errors = result?.errors ?? {};
  const first = firstErrorField(errors, PLAN_FIELDS);
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, result);
  const title = plan ? `Edit the plan ${plan.name}` : "Add a membership plan";
  const text = (name: string, label: string, hint?: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field name={name} idPrefix={PREFIX} label={label} hint={hint} defaultValue={values[name]} errors={errors[name]} autoFocus={first === name} autoComplete="off" {...extra} />
  );
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/admin/members", label: "Members" }, { to: "/admin/members/plans", label: "Plans" }]} />
      <h1>{title}</h1>
      <ErrorSummary result={result} fields={PLAN_FIELDS} idPrefix={PREFIX} />
      {/* A new key after each answer, so the fields take the values sent back. */}
      <Form method="post" ref={formRef} className={formStyles.form} noValidate key={JSON.stringify(result ?? null)}>
        <CsrfField />
        {text("name", "Name", "As members see it, such as Individual.")}
        {plan ? (
          <p>
            Slug: <code>{plan.slug}</code> (the plan&rsquo;s name in links and imports; it never changes)
          </p>
        ) : (
          text("slug", "Slug", "Lower-case letters, digits and hyphens, such as family. It is the plan's name in links and cannot change later.")
        )}
        {text("price", "Price", "In pounds and pence, such as 24.00.", { inputMode: "decimal" })}
        {text("currency", "Currency", "An ISO 4217 code: GBP unless the society takes another.", { maxLength: 3 })}
        <FieldShell idPrefix={PREFIX} name="period" label="Period" errors={errors.period}>
          {(a) => (
            <select name="period" className={formStyles.input} defaultValue={values.period} autoFocus={first === "period"} {...a}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>
                  {PERIOD_TEXT[p]}
                </option>
              ))}
            </select>
          )}
        </FieldShell>
        <FieldShell idPrefix={PREFIX} name="renew_month" label="Renews in (fixed date only)" hint="For a fixed-date plan: the month everyone renews in." errors={errors.renew_month}>
          {(a) => (
            <select name="renew_month" className={formStyles.input} defaultValue={values.renew_month} autoFocus={first === "renew_month"} {...a}>
              <option value="">Not a fixed-date plan</option>
              {MONTHS.map((m, i) => (
                <option key={m} value={String(i + 1)}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </FieldShell>
        {text("renew_day", "Renews on day (fixed date only)", "1 to 28.", { inputMode: "numeric" })}
        <FieldShell idPrefix={PREFIX} name="benefits" label="Benefits" hint="What members get, as plain text; one benefit a line." errors={errors.benefits}>
          {(a) => <textarea name="benefits" rows={5} className={formStyles.input} defaultValue={values.benefits} autoFocus={first === "benefits"} {...a} />}
        </FieldShell>
        <FieldShell idPrefix={PREFIX} name="scopes" label="Scopes" hint="What the plan opens: comma-separated or one a line, such as member." errors={errors.scopes}>
          {(a) => <textarea name="scopes" rows={2} className={formStyles.input} defaultValue={values.scopes} autoFocus={first === "scopes"} {...a} />}
        </FieldShell>
        {text("household_size", "Household size", "1 for one person; more for a household sharing the membership.", { inputMode: "numeric" })}
        <Concessions initial={concessions} errors={errors.concessions} />
        <Checkbox name="on_sale" idPrefix={PREFIX} label="On sale (shown on the join page)" defaultChecked={values.on_sale === "on"} />
        {text("grace_days", "Grace days", "How long a membership keeps its benefits after it falls due.", { inputMode: "numeric" })}
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={navigation.state !== "idle"}>
            {plan ? "Save the plan" : "Add the plan"}
          </button>
        </div>
      </Form>
      <p>
        <Link to="/admin/members/plans">Back to the plans</Link>
      </p>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
