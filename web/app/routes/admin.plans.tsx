// /admin/members/plans (admins only; others get the not-found page): every membership
// plan, on sale or not, with a link to edit each and one to add a plan.
import { Link } from "react-router";
import type { Route } from "./+types/admin.plans";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { FormStatus } from "../components/forms/Forms";
import { ScrollTable } from "../components/ScrollTable";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { isAdmin, loadAllPlans } from "../features/membership/api.server";
import { formatMoney } from "../features/membership/money";
import styles from "../features/membership/membership.module.css";
import { privateMeta } from "../features/auth/meta";

// Sign-in required (the default); the loader answers 404 to anyone not an admin.

export async function loader({ url, context }: Route.LoaderArgs) {
  if (!isAdmin(context)) throw new Response("This page could not be found", { status: 404, statusText: "Not Found" });
  const plans = await loadAllPlans(context);
  const saved = plans.find((p) => p.slug === url.searchParams.get("saved"));
  return { plans, saved: saved?.name ?? null };
}

export const meta = privateMeta("Membership plans");

export default function AdminPlans({ loaderData }: Route.ComponentProps) {
  const { plans, saved } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/admin/members", label: "Members" }]} />
      <h1>Membership plans</h1>
      <FormStatus>{saved ? `Saved the plan ${saved}.` : null}</FormStatus>
      <p>
        <Link to="/admin/members/plans/new">Add a plan</Link>
      </p>
      {plans.length ? (
        <ScrollTable label="Plans" columns={["Plan", "Price", "Period", "On sale"]} className={styles.tableWrap} tableClassName={styles.table}>
          <tbody>
            {plans.map((p) => (
              <tr key={p.slug}>
                <td>
                  <Link to={`/admin/members/plans/${p.slug}/edit`}>{p.name}</Link>
                </td>
                <td>{formatMoney(p.price_minor, p.currency)}</td>
                <td>{p.period}</td>
                <td>{p.on_sale ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : (
        <p>No plans yet.</p>
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
