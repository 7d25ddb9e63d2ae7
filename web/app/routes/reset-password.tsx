// /reset-password?token=…&email=… — the page the reset mail links to: a new password
// twice, sent with the link's token to POST /api/reset-password. The address in the
// link is only shown, never trusted.
import { Form, Link } from "react-router";
import type { Route } from "./+types/reset-password";
import { CsrfField, ErrorSummary, formStyles, SubmitButton, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import { DonePage, SignInButton } from "../features/auth/DonePage";
import type { AuthHandle } from "../features/auth/access";
import { NewPasswordFields } from "../features/auth/NewPasswordFields";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { formRefusal, guestCall, text } from "../features/auth/results.server";
import { firstErrorField, type FormResult } from "../lib/form-result";

export const handle: AuthHandle = { auth: false };

const FIELDS = ["password", "password_confirmation"] as const;

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "", email: url.searchParams.get("email") ?? "" };
}

export const meta = privateMeta("Choose a new password");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  const done = await guestCall<{ message: string; email: string }>(auth, "POST", "/api/reset-password", 200, {
    json: { token: text(form, "token"), password: text(form, "password"), password_confirmation: text(form, "password_confirmation") },
  });
  if (done.ok) return { ok: true, message: done.body?.message, values: { email: done.body?.email ?? "" } } satisfies FormResult;
  return formRefusal(done);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const { formRef, busy } = usePageForm(result);

  if (result?.ok) {
    const email = result.values?.email ?? "";
    return (
      <DonePage title="Password changed" result={result}>
        <SignInButton email={email} />
      </DonePage>
    );
  }
  if (!loaderData.token) {
    return (
      <div className={styles.page}>
        <h1>Choose a new password</h1>
        <p>
          This link is incomplete. Please open the link from the email again, or{" "}
          <Link to="/forgot-password">ask for a new link</Link>.
        </p>
      </div>
    );
  }
  const first = firstErrorField(result?.errors, FIELDS);
  return (
    <div className={styles.page}>
      <h1>Choose a new password</h1>
      {loaderData.email ? (
        <p className={styles.lede}>
          For the account <strong>{loaderData.email}</strong>.
        </p>
      ) : null}
      <ErrorSummary result={result} fields={FIELDS} />
      {result?.errors?.token ? (
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      ) : null}
      <Form method="post" className={formStyles.form} ref={formRef} noValidate>
        <CsrfField />
        <input type="hidden" name="token" value={loaderData.token} />
        {/* For password managers: which account the new password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
        <NewPasswordFields label="New password" hint="At least 8 characters." errors={result?.errors} first={first} />
        <div className={formStyles.actions}>
          <SubmitButton busy={busy} busyLabel="Saving…">
            Save the new password
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
