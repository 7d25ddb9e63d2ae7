// /register (guest only): name, email, password. The Go API mails a link to
// /verify-email; the account can sign in once the link is followed.
import { Form, Link } from "react-router";
import type { Route } from "./+types/register";
import { CsrfField, EmailField, ErrorSummary, Field, formStyles, SubmitButton, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import { DonePage } from "../features/auth/DonePage";
import type { AuthHandle } from "../features/auth/access";
import { NewPasswordFields } from "../features/auth/NewPasswordFields";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { formRefusal, guestCall, text } from "../features/auth/results.server";
import { firstErrorField, type FormResult } from "../lib/form-result";

export const handle: AuthHandle = { auth: "guest" };

const FIELDS = ["name", "email", "password", "password_confirmation"] as const;

export function loader() {
  return null;
}

export const meta = privateMeta("Create an account");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  const values = { name: text(form, "name"), email: text(form, "email").trim() };
  // Registration needs no session: the call is stateless (no cookie, so no CSRF token).
  const done = await guestCall<{ message: string; email: string }>(auth, "POST", "/api/register", 201, {
    json: { ...values, password: text(form, "password"), password_confirmation: text(form, "password_confirmation") },
  });
  if (done.ok) return { ok: true, message: done.body?.message, values: { email: done.body?.email ?? values.email } } satisfies FormResult;
  return formRefusal(done, { values });
}

export default function Register({ actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const { formRef, busy } = usePageForm(result);

  if (result?.ok) {
    return (
      <DonePage title="Check your email" result={result}>
        <p>
          We sent the link to <strong>{result.values?.email}</strong>. Open it to confirm your address; then you can
          sign in. The link works for 24 hours.
        </p>
        <p>
          No email after a few minutes? Look in your spam or junk folder, or{" "}
          <Link to="/sign-in">go to sign in</Link> and ask for the link again.
        </p>
      </DonePage>
    );
  }

  const first = firstErrorField(result?.errors, FIELDS);
  return (
    <div className={styles.page}>
      <h1>Create an account</h1>
      <p className={styles.lede}>
        An account keeps your bookmarks, reading lists and saved searches. Already have one?{" "}
        <Link to="/sign-in">Sign in</Link>.
      </p>
      <ErrorSummary result={result} fields={FIELDS} />
      <Form method="post" className={formStyles.form} ref={formRef} noValidate>
        <CsrfField />
        <Field name="name" label="Your name" autoComplete="name" defaultValue={result?.values?.name} errors={result?.errors?.name} autoFocus={first === "name"} />
        <EmailField
          name="email"
          label="Email address"
          hint="We will send a link to this address to confirm it is yours."
          defaultValue={result?.values?.email}
          errors={result?.errors?.email}
          autoFocus={first === "email"}
        />
        <NewPasswordFields
          label="Password"
          hint="At least 8 characters. A few words strung together make a strong password that is easy to remember."
          errors={result?.errors}
          first={first}
        />
        <div className={formStyles.actions}>
          <SubmitButton busy={busy} busyLabel="Creating your account…">
            Create account
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
