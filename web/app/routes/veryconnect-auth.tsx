// /veryconnect-auth — where the OpenID provider sends the browser back after an
// external sign-in (seed-spec §2; docs/auth.md, External sign-in). The loader hands
// code and state to POST /api/oidc/callback with the visitor's session (the state
// is bound to it, which is what protects this step), relays the new session cookie
// and goes to the page the sign-in started from.
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/veryconnect-auth";
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
  try {
    const response = await auth.api.call<{ redirect?: string; message?: string; errors?: Record<string, string[]> }>(
      "POST",
      "/api/oidc/callback",
      { json: body, csrf: auth.api.cookie(CSRF_COOKIE) ?? null },
    );
    if (response.status === 200) throw redirect(safeRedirect(response.body?.redirect));
    if (response.status === 422) {
      const errors = response.body?.errors ?? {};
      const message = errors.state?.[0] ?? errors.code?.[0] ?? errors.email?.[0] ?? response.body?.message ?? SERVICE_FAILED_MESSAGE;
      return data({ message }, { status: 422 });
    }
    if (response.status === 503 && response.body?.message) return data({ message: response.body.message }, { status: 503 });
    if (response.status === 419) return data({ message: INCOMPLETE }, { status: 400 });
    console.error(`[auth] POST /api/oidc/callback answered ${response.status}`);
    return data({ message: SERVICE_FAILED_MESSAGE }, { status: 502 });
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`[auth] POST /api/oidc/callback failed: ${error instanceof Error ? error.message : String(error)}`);
    return data({ message: SERVICE_FAILED_MESSAGE }, { status: 502 });
  }
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
