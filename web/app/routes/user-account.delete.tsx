// /user-account/delete (sign-in required): the confirmation step before deleting
// the account. The member confirms with their password (or, for an account made by
// external sign-in, their email address); then DELETE /api/user, whose new guest
// session cookies are relayed, and on to the sign-in page with a notice.
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/user-account.delete";
import { CsrfField, ErrorSummary, Field, formStyles, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/members/account.module.css";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { formFailure, memberCall, text } from "../features/auth/results.server";
import type { FormResult } from "../lib/form-result";

export function loader({ context }: Route.LoaderArgs) {
  const user = getAuth(context).state.user!;
  return { email: user.email, hasPassword: user.has_password !== false };
}

export const meta = privateMeta("Delete your account");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  const hasPassword = auth.state.user?.has_password !== false;
  const json = hasPassword ? { password: text(form, "password") } : { confirm: text(form, "confirm").trim() };
  const done = await memberCall(auth, form, { method: "DELETE", path: "/api/user", json, expect: [204] });
  if (!done.ok) return data(formFailure(done), { status: 422 });
  throw redirect("/sign-in?notice=account-deleted");
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const field = loaderData.hasPassword ? "password" : "confirm";
  return (
    <div className={styles.page}>
      <h1>Delete your account</h1>
      <div className={styles.danger}>
        <p>
          <strong>This cannot be undone.</strong> Your account, your bookmarks, reading lists, saved searches and search
          history will be deleted, and you will be signed out everywhere.
        </p>
        <p>
          You may want to <a href="/user-account/data">download your data</a> first.
        </p>
      </div>
      <ErrorSummary result={result} fields={[field]} />
      <Form method="post" className={formStyles.form} ref={formRef} noValidate>
        <CsrfField />
        {loaderData.hasPassword ? (
          <Field
            name="password"
            label="Your password"
            hint="To confirm that it is you."
            type="password"
            autoComplete="current-password"
            errors={result?.errors?.password}
            autoFocus={Boolean(result?.errors?.password)}
          />
        ) : (
          <Field
            name="confirm"
            label="Type your email address to confirm"
            hint={loaderData.email}
            type="email"
            autoComplete="off"
            spellCheck={false}
            errors={result?.errors?.confirm}
            autoFocus={Boolean(result?.errors?.confirm)}
          />
        )}
        <div className={formStyles.actions}>
          <button type="submit" className={`button ${formStyles.button} ${formStyles.danger}`} disabled={busy}>
            {busy ? "Deleting…" : "Delete my account permanently"}
          </button>
          <Link to="/user-account">Cancel and keep my account</Link>
        </div>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
