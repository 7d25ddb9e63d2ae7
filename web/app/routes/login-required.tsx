// /login-required (seed-spec §2: shown when login is needed): why a page needs an
// account, with the way in. Signed-in members have no use for it (guest only).
import { Link } from "react-router";
import type { Route } from "./+types/login-required";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import { signInPath, type AuthHandle } from "../features/auth/access";
import { REDIRECT_PARAM } from "../features/auth/constants";
import { privateMeta } from "../features/auth/meta";
import { validRedirect } from "../features/auth/redirect";

export const handle: AuthHandle = { auth: "guest" };

export function loader({ url }: Route.LoaderArgs) {
  const wanted = url.searchParams.get(REDIRECT_PARAM);
  return { signIn: signInPath(validRedirect(wanted) ? wanted : null) };
}

export const meta = privateMeta("Please sign in");

export default function LoginRequired({ loaderData }: Route.ComponentProps) {
  return (
    <div className={styles.page}>
      <h1>Please sign in</h1>
      <p className={styles.lede}>You need to be signed in to see this page.</p>
      <p>Members can keep bookmarks, reading lists and saved searches, and see the member pages of the society.</p>
      <p>
        <Link to={loaderData.signIn} className="button button--primary">
          Sign in
        </Link>
      </p>
      <p>
        No account yet? <Link to="/register">Create an account</Link>.
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
