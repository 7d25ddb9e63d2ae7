// /verify-email?token=… — the page the registration (and email change) mail links
// to. The visitor confirms with a button, so a mail scanner that opens links does
// not use up the single-use token; the action calls POST /api/email/verify.
import { Link } from "react-router";
import type { Route } from "./+types/verify-email";
import { ErrorSummary, MailedLinkForm, useSubmitting } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import { DonePage, SignInButton } from "../features/auth/DonePage";
import { useAuth } from "../features/auth/useAuth";
import type { AuthHandle } from "../features/auth/access";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { formRefusal, guestCall, text } from "../features/auth/results.server";
import type { FormResult } from "../lib/form-result";

// Public: a signed-in member confirming a new address follows the same link.
export const handle: AuthHandle = { auth: false };

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "" };
}

export const meta = privateMeta("Confirm your email address");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  // The token is the proof; no session is needed, so the call is stateless.
  const done = await guestCall<{ message: string; email: string }>(auth, "POST", "/api/email/verify", 200, { json: { token: text(form, "token") } });
  if (done.ok) return { ok: true, message: done.body?.message, values: { email: done.body?.email ?? "" } } satisfies FormResult;
  return formRefusal(done);
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const auth = useAuth();
  const busy = useSubmitting();

  if (result?.ok) {
    const email = result.values?.email ?? "";
    return (
      <DonePage title="Email address confirmed" result={result}>
        {auth.loggedIn ? (
          <p>
            <Link to="/user-account" className="button button--primary">
              Go to your account
            </Link>
          </p>
        ) : (
          <SignInButton email={email} />
        )}
      </DonePage>
    );
  }

  return (
    <div className={styles.page}>
      <h1>Confirm your email address</h1>
      <ErrorSummary result={result} fields={[]} />
      <MailedLinkForm token={loaderData.token} busy={busy} prompt={<p className={styles.lede}>Press the button to confirm that this email address is yours.</p>}>
        Confirm my email address
      </MailedLinkForm>
      {result && !result.ok ? (
        <p>
          Links work once and for 24 hours. To get a new one, <Link to="/sign-in">go to sign in</Link> and sign in with
          your address: we will offer to send the link again.
        </p>
      ) : null}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
