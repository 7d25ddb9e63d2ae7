// /subscribe/{slug} (public to read; joining needs an account): one plan, its terms,
// and the join or renew form. With card payments on, a successful join sends the
// browser to Stripe Checkout; without, it shows the pending membership and how to pay.
// Signed-out visitors are asked to sign in or register first and come back here.
import { useEffect, useRef } from "react";
import { data, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/subscribe.plan";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { formStyles } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin, join, loadGiftAid, loadMine, loadPlan, loadPlans, type MembershipResult } from "../features/membership/api.server";
import { JoinForm } from "../features/membership/JoinForm";
import { OtherWays } from "../features/membership/PlanCard";
import { dateText, householdText, mayRejoin, periodText, priceText, statusText } from "../features/membership/plan-text";
import { formatMoney } from "../features/membership/money";
import styles from "../features/membership/membership.module.css";
import { signInPath, type AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import { returnToOf, subscribePath, SUBSCRIBE_PATH } from "../features/membership/subscribe";

// Public: anyone may read the plan; the action checks for an account.
export const handle: AuthHandle = { auth: false };

const NOT_FOUND = () => new Response("This page could not be found", { status: 404, statusText: "Not Found" });

async function pageData(context: Route.LoaderArgs["context"], slug: string) {
  const [plan, list, mine] = await Promise.all([loadPlan(context, slug), loadPlans(context), loadMine(context)]);
  if (!plan || (!plan.on_sale && !isAdmin(context))) throw NOT_FOUND();
  return { plan, list, mine };
}

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const [{ plan, list, mine }, giftAid] = await Promise.all([pageData(context, params.slug), loadGiftAid(context)]);
  const returnTo = returnToOf(url);
  const here = subscribePath(returnTo, `${SUBSCRIBE_PATH}/${plan.slug}`);
  return {
    plan,
    cardPayments: list?.card_payments ?? false,
    otherWays: list?.other_ways ?? "",
    giftAidWording: giftAid?.wording || null,
    returnTo,
    signedIn: getAuth(context).state.loggedIn,
    signIn: signInPath(here),
    current: mine?.membership ?? null,
    seo: pageSeo({ request, url }, { title: `${plan.name} membership`, description: `${priceText(plan)}. ${plan.benefits}` }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { plan } = await pageData(context, params.slug);
  if (!getAuth(context).state.loggedIn) throw redirect(signInPath(subscribePath(returnToOf(url), `${SUBSCRIBE_PATH}/${plan.slug}`)));
  const result = await join(context, await request.formData(), plan);
  if (result.ok && result.checkoutUrl) {
    // Only Stripe's hosted page: the API makes the URL, but a page never sends a
    // visitor somewhere it cannot name.
    if (!/^https:\/\//.test(result.checkoutUrl) && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(result.checkoutUrl)) {
      return data({ ok: false, intent: "join", message: "Card payment could not be started. Please try again later." } satisfies MembershipResult, { status: 502 });
    }
    throw redirect(result.checkoutUrl);
  }
  return data(result, { status: result.ok ? 200 : 422 });
}

/** After joining without card payments: the pending membership and how to pay. */
function Pending({ result, otherWays, returnTo }: { result: MembershipResult; otherWays: string; returnTo: string | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const navigation = useNavigation();
  const focused = useRef<MembershipResult | null>(null);
  useEffect(() => {
    // Once the submission's navigation has ended, and after the site shell's own
    // after-navigation focus (a parent's effect of the same commit).
    if (navigation.state !== "idle" || focused.current === result) return;
    const timer = window.setTimeout(() => {
      focused.current = result;
      heading.current?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [result, navigation.state]);
  const m = result.membership;
  return (
    <section className={styles.processing} aria-labelledby="pending-heading">
      <h2 id="pending-heading" ref={heading} tabIndex={-1}>
        Your membership is waiting for payment
      </h2>
      {m ? (
        <p>
          Your membership number is <strong>{m.number}</strong> ({m.plan.name}, {formatMoney(m.plan.concessions.find((c) => c.slug === m.concession)?.price_minor ?? m.plan.price_minor, m.plan.currency)}{" "}
          {periodText(m.plan)}). It opens members-only records, scans and trees as soon as your payment is recorded.
        </p>
      ) : null}
      {otherWays ? <p>{otherWays}</p> : null}
      <p>
        <Link to="/user-account/membership">See your membership</Link>
        {returnTo ? (
          <>
            {" "}
            or <Link to={returnTo}>go back to the page you were on</Link>
          </>
        ) : null}
        .
      </p>
    </section>
  );
}

export default function SubscribePlan({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, cardPayments, otherWays, giftAidWording, returnTo, signedIn, signIn, current } = loaderData;
  const result = actionData as MembershipResult | undefined;
  const household = householdText(plan);
  const joined = result?.ok && result.intent === "join";
  const running = current && !mayRejoin(current) && current.status !== "pending";

  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: subscribePath(returnTo), label: "Join or renew" }]} />
      <h1>{plan.name} membership</h1>
      <p className="lead">
        <strong>{priceText(plan)}</strong>
        {household ? `. ${household}` : ""}.
      </p>
      <h2>What you get</h2>
      <p>{plan.benefits}</p>
      <h2>Terms</h2>
      <dl className={styles.facts}>
        <dt>Price</dt>
        <dd>{priceText(plan)}</dd>
        {plan.concessions.map((c) => (
          <div key={c.slug} className={styles.factRow}>
            <dt>{c.name}</dt>
            <dd>{priceText(plan, c.price_minor)}</dd>
          </div>
        ))}
        <dt>Renewal</dt>
        <dd>
          {plan.period === "lifetime"
            ? "One payment; no renewal."
            : plan.period === "fixed"
              ? `Everyone’s membership renews on ${periodText(plan).replace("a year, renewing every ", "")}.`
              : cardPayments
                ? `Paid by card, it renews automatically ${plan.period === "monthly" ? "every month" : "every year"} until you cancel.`
                : `Renew ${plan.period === "monthly" ? "every month" : "every year"}; we remind you by email before it is due.`}
        </dd>
        <dt>After it is due</dt>
        <dd>Members-only pages stay open for {plan.grace_days} days after the paid-until date.</dd>
      </dl>

      {joined && !result?.checkoutUrl ? (
        <Pending result={result!} otherWays={otherWays} returnTo={returnTo} />
      ) : !plan.on_sale ? (
        <p>This plan is not open for joining.</p>
      ) : !signedIn ? (
        <section aria-labelledby="account-first">
          <h2 id="account-first">First, sign in or create an account</h2>
          <p>Your membership belongs to your account on this site, so you can see members-only pages when you sign in.</p>
          <p className={formStyles.actions}>
            <Link to={signIn} className="button button--primary">
              Sign in to join
            </Link>
            <Link to="/register" className="button">
              Create an account
            </Link>
          </p>
          <p>Once you have created an account and confirmed your email address, come back to this page to join.</p>
        </section>
      ) : (
        running ? (
          <section aria-labelledby="member-already">
            <h2 id="member-already">You are a member already</h2>
            <p>
              Your membership {current.number} ({current.plan.name}) is {statusText(current.status).toLowerCase()}
              {current.paid_until ? `, paid until ${dateText(current.paid_until)}` : ""}.{" "}
              <Link to="/user-account/membership">See your membership</Link> to manage its payment or renewal.
            </p>
          </section>
        ) : (
          <>
            <JoinForm plan={plan} giftAidWording={giftAidWording} cardPayments={cardPayments} returnTo={returnTo} result={result} renewing={Boolean(current && mayRejoin(current))} />
            {!cardPayments ? <OtherWays text={otherWays} cardPayments={cardPayments} /> : null}
          </>
        )
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
