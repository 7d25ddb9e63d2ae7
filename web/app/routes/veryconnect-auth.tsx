// /veryconnect-auth — where the OpenID provider sends the browser back after an
// external sign-in (seed-spec §2; docs/auth.md, External sign-in). The loader hands
// code and state to POST /api/oidc/callback with the visitor's session (the state
// is bound to it, which is what protects this step), relays the new session cookie
// and goes to the page the sign-in started from.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/veryconnect-auth";
import { callApi, failureText } from "../lib/api.server";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import type { AuthHandle } from "../features/auth/access";
import { CSRF_COOKIE, SERVICE_FAILED_MESSAGE } from "../features/auth/constants";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { safeRedirect } from "../features/auth/redirect";

export const handle: AuthHandle = { auth: false };

const INCOMPLETE = "This sign-in link is incomplete. Please start again from the sign-in page.";

export async function loader({ context, url }: Route.LoaderArgs) {
  const auth = getAuth(context);
  const q = url.searchParams;
  const state = q.get("state");
  if (!state || (!q.get("code") && !q.get("error"))) return data({ message: INCOMPLETE }, { status: 400 });
  const body = q.get("error")
    ? { state, error: q.get("error"), error_description: q.get("error_description") ?? "" }
    : { state, code: q.get("code") };
  const done = await callApi<{ redirect?: string }>(auth.api, "POST", "/api/oidc/callback", {
    json: body,
    csrf: auth.api.cookie(CSRF_COOKIE) ?? null,
    expect: [200],
  });
  if (done.ok) throw redirect(safeRedirect(done.body?.redirect));
  if (done.status === 422) {
    const { errors } = done;
    const message = errors.state?.[0] ?? errors.code?.[0] ?? errors.email?.[0] ?? done.message ?? SERVICE_FAILED_MESSAGE;
    return data({ message }, { status: 422 });
  }
  if (done.status === 503 && done.message) return data({ message: done.message }, { status: 503 });
  if (done.status === 419) return data({ message: INCOMPLETE }, { status: 400 });
  console.error(`[auth] ${failureText("POST /api/oidc/callback", done)}`);
  return data({ message: SERVICE_FAILED_MESSAGE }, { status: 502 });
}

export const meta = privateMeta("Signing in");

export default function ExternalSignInReturn({ loaderData }: Route.ComponentProps) {
  return (
    <div className={styles.page}>
      <h1>We could not sign you in</h1>
      <p className={styles.lede} role="alert">
        {loaderData.message}
      </p>
      <p>
        <Link to="/sign-in" className="button button--primary">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
