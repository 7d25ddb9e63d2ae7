// /user-account/membership (sign-in required): the member's membership — status,
// number, plan, paid-until, household, receipts — and what they can do with it:
// manage card payment (Stripe's Customer Portal), stop auto-renewal, invite or
// remove household members, cancel a Gift Aid declaration, rejoin after a lapse.
//
// Stripe Checkout returns here (?checkout=success&session_id=…). Until the webhook has
// made the membership active the page says the payment is being processed and asks
// again a few times; it never says the payment went through before the API does.
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useActionData, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/user-account.membership";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { CsrfField, Field, formStyles, FormStatus, useFocusFirstError } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { usePendingReload } from "../lib/pending-reload";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { accountHandlers, loadGiftAid, loadMine, type MembershipResult } from "../features/membership/api.server";
import { AmountCell, MembershipFacts } from "../features/membership/MembershipSummary";
import { dateText, mayRejoin, mayRenewEarly } from "../features/membership/plan-text";
import { GRANTING_STATUSES, type Membership } from "../features/membership/types";
import styles from "../features/membership/membership.module.css";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";
import { returnToOf, SUBSCRIBE_PATH } from "../features/membership/subscribe";

// Sign-in required: the default, so no `handle.auth`.

/** How many times the page asks again after Stripe's return before it stops. */
const CHECKOUT_POLLS = 5;

export async function loader({ url, context }: Route.LoaderArgs) {
  const [mine, giftAid] = await Promise.all([loadMine(context), loadGiftAid(context)]);
  if (!mine) throw new Response("Your membership could not be loaded just now", { status: 503 });
  // Stripe Checkout's success URL: ?checkout=success&session_id={CHECKOUT_SESSION_ID}
  // (an older form put the session id in ?checkout= itself).
  const checkout = url.searchParams.get("checkout");
  const declaration = giftAid?.declaration && !giftAid.declaration.cancelled_at ? giftAid.declaration : null;
  return {
    membership: mine.membership,
    receipts: mine.receipts ?? [],
    checkout: Boolean(checkout && checkout !== "cancel"),
    returnTo: returnToOf(url),
    giftAid: declaration ? { declaredAt: declaration.declared_at, wording: declaration.wording } : null,
    marketing: {
      given: mine.marketing_consent?.given ?? false,
      at: mine.marketing_consent?.at ?? null,
      wording: mine.marketing_consent?.given ? mine.marketing_consent.wording : (mine.marketing_wording ?? ""),
    },
  };
}

export const meta = privateMeta("Your membership");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = text(form, "intent");
  const handler = accountHandlers[intent];
  if (!handler) return data({ ok: false, intent, message: "Something was missing from the form. Please reload the page and try again." }, { status: 422 });
  const result = await handler(context, form, intent);
  if (result.ok && result.portalUrl) throw redirect(result.portalUrl);
  if (result.ok && result.checkoutUrl) throw redirect(result.checkoutUrl);
  return data(result, { status: result.ok ? 200 : 422 });
}

/** After Stripe Checkout: "processing" until the membership grants access. */
function CheckoutReturn({ m, returnTo }: { m: Membership | null; returnTo: string | null }) {
  const active = Boolean(m && GRANTING_STATUSES.includes(m.status));
  const polls = usePendingReload(!active, CHECKOUT_POLLS);

  if (active) {
    return (
      <div role="status" className={formStyles.status}>
        <p>
          Thank you: your payment has been received and your membership is {m!.status === "lifetime" ? "yours for life" : "active"}.
          {returnTo ? (
            <>
              {" "}
              <Link to={returnTo}>Go back to the page you were on</Link>.
            </>
          ) : null}
        </p>
      </div>
    );
  }
  return (
    <div role="status" className={styles.processing}>
      <p>
        <strong>We are processing your payment.</strong>{" "}
        {polls >= CHECKOUT_POLLS
          ? "This is taking longer than usual. We will email you as soon as your payment is confirmed; you do not need to pay again."
          : "This page will show your membership as active once the payment is confirmed."}
      </p>
    </div>
  );
}

/**
 * A one-button form. It posts with a fetcher (the page stays put) unless `navigate`:
 * a form whose item goes away with its success (a removed person, a cancelled
 * declaration) posts as a navigation, so the page's own status line reports it.
 */
function IntentForm({ intent, label, hidden, danger, navigate, children }: { intent: string; label: string; hidden?: Record<string, string>; danger?: boolean; navigate?: boolean; children?: React.ReactNode }) {
  const fetcher = useFetcher<MembershipResult>();
  const navigation = useNavigation();
  const FormTag = navigate ? Form : fetcher.Form;
  const busy = navigate ? navigation.state !== "idle" && navigation.formData?.get("intent") === intent : fetcher.state !== "idle";
  const pageResult = useActionData() as MembershipResult | undefined;
  const result = navigate ? (pageResult?.intent === intent && !pageResult.ok ? pageResult : undefined) : fetcher.data;
  return (
    <FormTag method="post" className={formStyles.form}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {hidden ? Object.entries(hidden).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />) : null}
      {children}
      <button type="submit" className={`button ${danger ? formStyles.danger : ""} ${formStyles.button}`} disabled={busy}>
        {label}
      </button>
      {result && !result.ok ? (
        <p role="alert" className={formStyles.error}>
          {result.message ?? Object.values(result.errors ?? {}).flat().join(" ")}
        </p>
      ) : null}
      <FormStatus result={result?.ok ? result : undefined} />
    </FormTag>
  );
}

function InviteForm() {
  const fetcher = useFetcher<MembershipResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const result = fetcher.data;
  const failed = result && !result.ok ? result : undefined;
  useFocusFirstError(formRef, failed);
  useEffect(() => {
    if (result?.ok) formRef.current?.reset();
  }, [result]);
  return (
    <fetcher.Form method="post" ref={formRef} className={formStyles.form} noValidate aria-labelledby="invite-heading">
      <h3 id="invite-heading">Invite someone to share your membership</h3>
      <CsrfField />
      <input type="hidden" name="intent" value="household-add" />
      <Field name="name" label="Their name" idPrefix="invite" autoComplete="off" defaultValue={failed?.values?.name} errors={failed?.errors?.name} />
      <Field name="email" label="Their email address" idPrefix="invite" type="email" autoComplete="off" spellCheck={false} defaultValue={failed?.values?.email} errors={failed?.errors?.email} />
      {failed && !Object.keys(failed.errors ?? {}).length ? (
        <p role="alert" className={formStyles.error}>
          {failed.message}
        </p>
      ) : null}
      <div className={formStyles.actions}>
        <button type="submit" className={`button ${formStyles.button}`} disabled={fetcher.state !== "idle"}>
          Send the invitation
        </button>
      </div>
      <FormStatus result={result?.ok ? result : undefined} />
    </fetcher.Form>
  );
}

export default function UserMembership({ loaderData }: Route.ComponentProps) {
  const { membership: m, receipts, checkout, returnTo, giftAid, marketing } = loaderData;
  // What a navigation form (household-remove, gift-aid-cancel) did.
  const pageResult = useActionData<typeof action>() as MembershipResult | undefined;
  const others = m ? (m.household ?? []) : [];
  const room = m ? Math.max(0, m.plan.household_size - 1 - others.length) : 0;

  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/user-account", label: "Your account" }]} />
      <h1>Your membership</h1>
      <FormStatus result={pageResult?.ok ? pageResult : undefined} />
      {checkout ? <CheckoutReturn m={m} returnTo={returnTo} /> : null}
      {!m ? (
        <>
          <p>You are not a member of the society yet. Members see every members-only record, scan and family tree.</p>
          <p>
            <Link to={SUBSCRIBE_PATH} className="button button--primary">
              Join or renew
            </Link>
          </p>
        </>
      ) : (
        <>
          <MembershipFacts m={m} />
          {m.status === "pending" && !checkout ? (
            <p>Your membership opens members-only pages once your payment is recorded.</p>
          ) : null}
          {m.status === "grace" ? (
            <p>
              Your membership is due for renewal: members-only pages stay open until {m.grace_days} days after{" "}
              {dateText(m.paid_until)}.{m.method === "stripe" ? " Update your card below if the payment failed." : ""}
            </p>
          ) : null}
          {mayRejoin(m) || m.status === "pending" ? (
            <p className={formStyles.actions}>
              <Link to={`${SUBSCRIBE_PATH}/${m.plan.slug}`} className="button button--primary">
                {mayRejoin(m) ? `Rejoin (${m.plan.name})` : "Pay for your membership"}
              </Link>
              <Link to={SUBSCRIBE_PATH}>See every plan</Link>
            </p>
          ) : null}

          <section className={styles.section} aria-labelledby="payment">
            <h2 id="payment">Payment</h2>
            {mayRenewEarly(m) ? (
              <>
                <p>Pay for your next {m.plan.period === "monthly" ? "month" : "year"} now: it starts when the current one ends{m.paid_until ? ` (${dateText(m.paid_until)})` : ""}, so you lose nothing by paying early.</p>
                <IntentForm intent="renew" label="Renew now" />
              </>
            ) : null}
            {m.method === "stripe" ? (
              <>
                <p>Change your card, see Stripe’s invoices or update your billing details on Stripe’s secure page.</p>
                <IntentForm intent="portal" label="Manage payment" />
                {m.auto_renew ? (
                  <>
                    <p>Your membership renews automatically. If you stop it, it stays open until {dateText(m.paid_until) || "its paid-until date"}.</p>
                    <IntentForm intent="cancel-renewal" label="Stop automatic renewal" danger />
                  </>
                ) : null}
              </>
            ) : (
              <p>Your membership is not paid by card online.</p>
            )}
          </section>

          {m.plan.household_size > 1 ? (
            <section className={styles.section} aria-labelledby="household">
              <h2 id="household">Your household</h2>
              <p>Your plan is for up to {m.plan.household_size} people, each with their own account.</p>
              {others.length ? (
                <ul>
                  {others.map((h) => (
                    <li key={`${h.email}-${h.user_id ?? ""}`}>
                      {h.name} ({h.email}) — {h.status === "joined" ? "joined" : "invited"}
                      {h.user_id ? (
                        <IntentForm intent="household-remove" label={`Remove ${h.name}`} hidden={{ id: String(h.user_id), name: h.name }} danger navigate />
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p>No one else shares your membership yet.</p>
              )}
              {room > 0 ? <InviteForm /> : null}
            </section>
          ) : null}

          <section className={styles.section} aria-labelledby="receipts">
            <h2 id="receipts">Receipts</h2>
            {receipts.length ? (
              <ScrollTable label="Receipts" columns={["Receipt", "Date", "Amount"]} className={styles.tableWrap} tableClassName={styles.table}>
                <tbody>
                  {receipts.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <a href={`/api/membership/receipts/${encodeURIComponent(r.number)}`}>Receipt {r.number}</a>
                      </td>
                      <td>{dateText(r.paid_at)}</td>
                      <AmountCell receipt={r} />
                    </tr>
                  ))}
                </tbody>
              </ScrollTable>
            ) : (
              <p>No payments yet.</p>
            )}
          </section>

          {giftAid ? (
            <section className={styles.section} aria-labelledby="gift-aid">
              <h2 id="gift-aid">Gift Aid</h2>
              <p>You made this Gift Aid declaration on {dateText(giftAid.declaredAt)}:</p>
              <p className={styles.declaration}>{giftAid.wording}</p>
              <p>
                Cancel it if you no longer pay enough UK Income Tax or Capital Gains Tax, or if your name or home address changes (you
                can declare again with the new details when you next pay).
              </p>
              <IntentForm intent="gift-aid-cancel" label="Cancel my Gift Aid declaration" danger navigate />
            </section>
          ) : null}
        </>
      )}

      {marketing.wording ? (
        <section className={styles.section} aria-labelledby="news">
          <h2 id="news">News by email</h2>
          <p>{marketing.given ? `On ${dateText(marketing.at)} you asked us to:` : "You do not get the society’s news by email. You can ask us to:"}</p>
          <p className={styles.declaration}>{marketing.wording}</p>
          <IntentForm
            intent="marketing-consent"
            label={marketing.given ? "Stop emailing me news" : "Email me news"}
            hidden={{ given: marketing.given ? "false" : "true" }}
            navigate
          />
        </section>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
