// /sign-out: POST signs out (seed-spec §4: the API call's failure is ignored and the
// local state cleared) and goes to the logout target. GET shows the button, for
// anyone who arrives here by a link.
import { Form, redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { CsrfField, formStyles, useSubmitting } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import type { AuthHandle } from "../features/auth/access";
import { LOGOUT_REDIRECT } from "../features/auth/constants";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";

// Public: signing out must work whatever state the visitor is in.
export const handle: AuthHandle = { auth: false };

export function loader({ context }: Route.LoaderArgs) {
  if (!getAuth(context).state.loggedIn) throw redirect(LOGOUT_REDIRECT);
  return null;
}

export const meta = privateMeta("Sign out");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  await getAuth(context).logout(text(form, "_token") || null);
  throw redirect(LOGOUT_REDIRECT);
}

export default function SignOut() {
  const busy = useSubmitting();
  return (
    <div className={styles.page}>
      <h1>Sign out</h1>
      <p className={styles.lede}>Sign out of your account on this computer?</p>
      <Form method="post" className={formStyles.form}>
        <CsrfField />
        <button type="submit" className={`button button--primary ${formStyles.button}`} disabled={busy}>
          {busy ? "Signing out…" : "Sign out"}
        </button>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
