// /admin/members/:id (admins only; others get the not-found page): one membership, its
// history and payments, and the admin's forms: record a manual payment (cheque, bank
// transfer, cash; the amount typed in pounds and pence is converted to pence exactly),
// grant a complimentary membership, change plan.
import { useRef } from "react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/admin.member";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { CsrfField, ErrorSummary, Field, FormStatus, formStyles, SelectField, useFocusFirstError } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin, loadAllPlans, loadMember, memberHandlers, type MembershipResult } from "../features/membership/api.server";
import { AmountCell, MembershipFacts } from "../features/membership/MembershipSummary";
import { formatMoney } from "../features/membership/money";
import { dateText, statusText } from "../features/membership/plan-text";
import type { Plan } from "../features/membership/types";
import styles from "../features/membership/membership.module.css";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";
import { firstErrorField } from "../lib/form-result";

// Sign-in required (the default); the loader and action answer 404 to anyone not an admin.

const NOT_FOUND = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

async function detailOf(context: Route.LoaderArgs["context"], id: string) {
  if (!isAdmin(context)) throw NOT_FOUND();
  const detail = await loadMember(context, id);
  if (!detail) throw NOT_FOUND();
  return detail;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const [detail, plans] = await Promise.all([detailOf(context, params.id), loadAllPlans(context)]);
  return { detail, plans };
}

export const meta = privateMeta("Member");

export async function action({ request, params, context }: Route.ActionArgs) {
  const detail = await detailOf(context, params.id);
  const form = await request.formData();
  const intent = text(form, "intent");
  const handler = memberHandlers(params.id, detail)[intent];
  if (!handler) return data({ ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." }, { status: 422 });
  const result = await handler(context, form, intent);
  return data(result, { status: result.ok ? 200 : 422 });
}

function PlanSelect({ plans, idPrefix, defaultValue, errors }: { plans: Plan[]; idPrefix: string; defaultValue?: string; errors?: string[] }) {
  const options = plans.map((p) => ({ value: p.slug, label: `${p.name} (${formatMoney(p.price_minor, p.currency)})` }));
  return <SelectField name="plan" idPrefix={idPrefix} label="Plan" options={options} defaultValue={defaultValue} errors={errors} />;
}

/** One admin form: its heading, error summary, status and submit button. */
function AdminForm({ intent, title, fields, submit, children }: { intent: string; title: string; fields: string[]; submit: string; children: (r: MembershipResult | undefined) => React.ReactNode }) {
  const all = useActionData<typeof action>() as MembershipResult | undefined;
  const result = all?.intent === intent ? all : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, result && !result.ok ? result : undefined);
  const headingId = `${intent}-heading`;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ErrorSummary result={result && !result.ok ? result : undefined} fields={fields} idPrefix={intent} />
      <FormStatus result={result?.ok ? result : undefined} />
      <Form method="post" ref={formRef} className={formStyles.form} noValidate>
        <CsrfField />
        <input type="hidden" name="intent" value={intent} />
        {children(result && !result.ok ? result : undefined)}
        <div className={formStyles.actions}>
          <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={busy}>
            {submit}
          </button>
        </div>
      </Form>
    </section>
  );
}

const PAYMENT_FIELDS = ["amount", "paid_until", "note"];

export default function AdminMember({ loaderData }: Route.ComponentProps) {
  const { detail: m, plans } = loaderData;
  const history = m.history ?? [];
  const payments = m.payments ?? [];
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/admin/members", label: "Members" }]} />
      <h1>
        {m.name || m.email || "Deleted account"}: {m.number}
      </h1>
      {m.email ? <p>{m.email}</p> : null}
      <MembershipFacts m={m} />

      <AdminForm intent="payment" title="Record a payment" fields={PAYMENT_FIELDS} submit="Record the payment">
        {(r) => {
          const first = firstErrorField(r?.errors, PAYMENT_FIELDS);
          return (
            <>
              <Field
                name="amount"
                idPrefix="payment"
                label={`Amount received (${m.plan.currency || "GBP"})`}
                hint={`In pounds and pence, such as ${formatMoney(m.plan.price_minor, m.plan.currency)}.`}
                inputMode="decimal"
                autoComplete="off"
                defaultValue={r?.values?.amount}
                errors={r?.errors?.amount}
                autoFocus={first === "amount"}
              />
              <Field
                name="paid_until"
                idPrefix="payment"
                label="Paid until (optional)"
                hint="Leave empty to extend the membership by one period of its plan."
                type="date"
                defaultValue={r?.values?.paid_until}
                errors={r?.errors?.paid_until}
                autoFocus={first === "paid_until"}
              />
              <Field name="note" idPrefix="payment" label="Note (optional)" hint="Cheque number, bank reference." defaultValue={r?.values?.note} errors={r?.errors?.note} autoFocus={first === "note"} />
            </>
          );
        }}
      </AdminForm>

      <AdminForm intent="complimentary" title="Grant a complimentary membership" fields={["plan", "until", "why"]} submit="Grant">
        {(r) => (
          <>
            <PlanSelect plans={plans} idPrefix="complimentary" defaultValue={r?.values?.plan ?? m.plan.slug} errors={r?.errors?.plan} />
            <Field name="until" idPrefix="complimentary" label="Until (optional)" hint="Leave empty for no end date." type="date" defaultValue={r?.values?.until} errors={r?.errors?.until} />
            <Field name="why" idPrefix="complimentary" label="Why" defaultValue={r?.values?.why} errors={r?.errors?.why} />
          </>
        )}
      </AdminForm>

      <AdminForm intent="plan" title="Change plan" fields={["plan", "why"]} submit="Change plan">
        {(r) => (
          <>
            <PlanSelect plans={plans} idPrefix="plan" defaultValue={r?.values?.plan ?? m.plan.slug} errors={r?.errors?.plan} />
            <Field name="why" idPrefix="plan" label="Why" defaultValue={r?.values?.why} errors={r?.errors?.why} />
          </>
        )}
      </AdminForm>

      <section className={styles.section} aria-labelledby="payments">
        <h2 id="payments">Payments</h2>
        {payments.length ? (
          <ScrollTable label="Payments" columns={["Receipt", "Date", "Amount", "Method", "Covers until", "Note"]} className={styles.tableWrap} tableClassName={styles.table}>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id}>
                  <td>{p.number}</td>
                  <td>{dateText(p.paid_at)}</td>
                  <AmountCell receipt={p} />
                  <td>{p.method}</td>
                  <td>{dateText(p.covers_until)}</td>
                  <td>{p.note}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        ) : (
          <p>No payments recorded.</p>
        )}
      </section>

      <section className={styles.section} aria-labelledby="history">
        <h2 id="history">History</h2>
        {history.length ? (
          <ScrollTable label="History" columns={["When", "By", "Change", "Why"]} className={styles.tableWrap} tableClassName={styles.table}>
            <tbody>
              {history.map((h, i) => (
                <tr key={`${h.at}-${i}`}>
                  <td>{dateText(h.at)}</td>
                  <td>{h.by || "(deleted account)"}</td>
                  <td>
                    {h.from ? `${statusText(h.from)} → ` : ""}
                    {statusText(h.to)}
                  </td>
                  <td>{h.why}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        ) : (
          <p>No changes recorded.</p>
        )}
      </section>
      <p>
        <Link to="/admin/members">Back to the members</Link>
      </p>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
