// /forgot-password: asks for the address and has the Go API mail a reset link to
// /reset-password. Public: a signed-in member without a password (external sign-in)
// sets one this way.
import { Form, Link } from "react-router";
import type { Route } from "./+types/forgot-password";
import { CsrfField, EmailField, ErrorSummary, formStyles, SubmitButton, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import { DonePage } from "../features/auth/DonePage";
import type { AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { formRefusal, guestCall, text } from "../features/auth/results.server";
import type { FormResult } from "../lib/form-result";

export const handle: AuthHandle = { auth: false };

export function loader({ url }: Route.LoaderArgs) {
  return { email: url.searchParams.get("email") ?? "" };
}

export const meta = privateMeta("Reset your password");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  const email = text(form, "email").trim();
  const done = await guestCall<{ message: string }>(auth, "POST", "/api/forgot-password", 202, { json: { email } });
  if (done.ok) return { ok: true, message: done.body?.message, values: { email } } satisfies FormResult;
  return formRefusal(done, { values: { email } });
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const { formRef, busy } = usePageForm(result);

  if (result?.ok) {
    return (
      <DonePage title="Check your email" result={result}>
        <p>The link works once and for 60 minutes. No email? Look in your spam or junk folder.</p>
        <p>
          <Link to="/sign-in">Back to sign in</Link>
        </p>
      </DonePage>
    );
  }
  return (
    <div className={styles.page}>
      <h1>Reset your password</h1>
      <p className={styles.lede}>Tell us your email address and we will send you a link to choose a new password.</p>
      <ErrorSummary result={result} fields={["email"]} />
      <Form method="post" className={formStyles.form} ref={formRef} noValidate>
        <CsrfField />
        <EmailField
          name="email"
          label="Email address"
          defaultValue={result?.values?.email ?? loaderData.email}
          errors={result?.errors?.email}
          autoFocus={Boolean(result?.errors?.email)}
        />
        <div className={formStyles.actions}>
          <SubmitButton busy={busy} busyLabel="Sending…">
            Send me the link
          </SubmitButton>
          <Link to="/sign-in">Back to sign in</Link>
        </div>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
