// /studio and everything under it: the society's editors and admins write content and
// run the staff tools here. Signed-out visitors are sent to sign-in with a way back
// (the root middleware: no handle.auth means sign-in required); signed-in users who
// are not staff get a plain "not allowed" page from this layout's loader, which hides
// whatever its children loaded (the Go API refuses them their data anyway).
import { isRouteErrorResponse, NavLink, Outlet, useRouteError } from "react-router";
import type { Route } from "./+types/studio";
import { hasScope } from "../features/auth/user";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { GoHome } from "../components/ErrorPage";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { studioNavFor } from "../features/studio/nav";
import styles from "../features/studio/studio.module.css";
import type { RouteHandle } from "../layouts/layouts";

export const handle: RouteHandle = { layout: "wide" };

const NOT_ALLOWED = "The studio is for the society's editors and administrators.";

export function loader({ context }: Route.LoaderArgs) {
  const user = getAuth(context).state.user;
  if (!hasScope(user, "editor") && !hasScope(user, "admin")) throw new Response(NOT_ALLOWED, { status: 403, statusText: "Not allowed" });
  return { admin: hasScope(user, "admin"), name: user?.name ?? "" };
}

export const meta = privateMeta("Studio");

export default function StudioLayout({ loaderData }: Route.ComponentProps) {
  const items = studioNavFor(loaderData.admin);
  return (
    <div className={`container ${styles.studio}`}>
      <nav aria-label="Studio" className={styles.nav}>
        <ul>
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === "/studio"}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className={styles.main}>
        <Outlet />
      </div>
    </div>
  );
}

/** A signed-in user who is not staff: a plain page saying so; any other error as usual. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="container error-page">
        <h1>You are not allowed to use the studio</h1>
        <p>{NOT_ALLOWED} If you think you should be able to use it, please ask one of the society's administrators.</p>
        <GoHome />
      </div>
    );
  }
  return <RouteErrorBoundary />;
}
