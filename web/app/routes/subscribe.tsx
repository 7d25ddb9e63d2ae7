// /subscribe (public): the membership plans side by side, with prices, benefits and
// concessions, and how to pay when cards are not taken online. ?return_to= (a local
// path, features/membership/subscribe.ts) is carried to the plan pages so a member returns to the
// page that sent them here.
import type { Route } from "./+types/subscribe";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { loadPlans } from "../features/membership/api.server";
import { OtherWays, PlanCard } from "../features/membership/PlanCard";
import styles from "../features/membership/membership.module.css";
import type { AuthHandle } from "../features/auth/access";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import { returnToOf } from "../features/membership/subscribe";

// Public: anyone may read it (features/auth/access.ts).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const list = await loadPlans(context);
  if (!list) throw new Response("Membership plans are not available just now", { status: 503 });
  return {
    plans: list.plans.filter((p) => p.on_sale),
    cardPayments: list.card_payments,
    otherWays: list.other_ways,
    returnTo: returnToOf(url),
    seo: pageSeo({ request, url }, { title: "Join or renew", description: "Membership of the society: the plans, their prices and benefits." }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function Subscribe({ loaderData }: Route.ComponentProps) {
  const { plans, cardPayments, otherWays, returnTo } = loaderData;
  return (
    <>
      <h1>Join or renew</h1>
      <p className="lead">
        Members of the society see every members-only record, scan and family tree, and receive the journal. Choose the plan
        that suits you.
      </p>
      {plans.length ? (
        <ul className={styles.plans}>
          {plans.map((plan) => (
            <PlanCard key={plan.slug} plan={plan} returnTo={returnTo} />
          ))}
        </ul>
      ) : (
        <p className="empty-state">No plans are open for joining at the moment.</p>
      )}
      <OtherWays text={otherWays} cardPayments={cardPayments} />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
