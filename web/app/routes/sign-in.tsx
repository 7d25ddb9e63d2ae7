// /sign-in (guest only): email and password against the Go API's Sanctum session
// (CSRF cookie, login, user), then back to the page the visitor wanted if that is a
// valid local path (features/auth/redirect.ts), else home.
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/sign-in";
import { Checkbox, CsrfField, EmailField, ErrorSummary, Field, FormStatus, formStyles, SubmitButton, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import styles from "../features/auth/auth.module.css";
import type { AuthHandle } from "../features/auth/access";
import { NOT_VERIFIED_MESSAGE, REDIRECT_PARAM, SERVICE_FAILED_MESSAGE } from "../features/auth/constants";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { validRedirect, safeRedirect } from "../features/auth/redirect";
import { formRefusal, guestCall, text } from "../features/auth/results.server";
import { getApi } from "../lib/api.server";
import { firstErrorField, type FormResult } from "../lib/form-result";

export const handle: AuthHandle = { auth: "guest" };

const FIELDS = ["email", "password"] as const;

/** Notices other pages send visitors here with (?notice=…). */
const NOTICES: Record<string, string> = {
  "account-deleted": "Your account has been deleted. Thank you for being a member.",
  "signed-out": "You have signed out.",
};

interface ExternalSignIn {
  enabled: boolean;
  name?: string;
  redirect_url?: string;
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const auth = getAuth(context);
  const wanted = url.searchParams.get(REDIRECT_PARAM);
  let external: ExternalSignIn = { enabled: false };
  // External sign-in signs in the Go session, which only the cookie strategy uses.
  if (auth.name === "cookie") {
    const found = await getApi<ExternalSignIn>(auth.api, "/api/oidc", { session: false });
    if (found.ok) external = found.body;
    else if (found.status === 0) console.error(`[auth] GET /api/oidc failed: ${found.cause}`);
  }
  return {
    redirect: validRedirect(wanted) ? wanted : "",
    email: url.searchParams.get("email") ?? "",
    notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null,
    external: external.enabled
      ? { name: external.name || "your society account", href: `${external.redirect_url || "/api/oidc/redirect"}?${new URLSearchParams({ redirect: safeRedirect(wanted) })}` }
      : null,
  };
}

export const meta = privateMeta("Sign in");

interface SignInResult extends FormResult {
  notVerified?: boolean;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const auth = getAuth(context);
  const email = text(form, "email").trim();

  if (text(form, "intent") === "resend") {
    // "Send the link again" for an address that is not verified yet.
    const done = await guestCall<{ message: string }>(auth, "POST", "/api/email/verification-notification", 202, { json: { email } });
    if (done.ok) return data({ ok: true, intent: "resend", message: done.body?.message, values: { email } } satisfies SignInResult);
    return formRefusal(done, { intent: "resend", values: { email } });
  }

  const remember = form.get("remember") === "on";
  try {
    const result = await auth.login({ email, password: text(form, "password"), remember });
    if (!result.ok) {
      const notVerified = (result.errors.email ?? []).includes(NOT_VERIFIED_MESSAGE);
      const answer: SignInResult = {
        ok: false,
        intent: "sign-in",
        errors: result.errors,
        message: result.message,
        values: { email, remember: remember ? "on" : "" },
        notVerified,
      };
      return data(answer, { status: result.status });
    }
  } catch (error) {
    console.error(`[auth] sign-in failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    return data({ ok: false, intent: "sign-in", message: SERVICE_FAILED_MESSAGE, values: { email } } satisfies SignInResult, { status: 502 });
  }
  throw redirect(safeRedirect(text(form, REDIRECT_PARAM)));
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as SignInResult | undefined;
  const { formRef, busy } = usePageForm(result?.intent === "sign-in" ? result : undefined);
  const signIn = result?.intent === "sign-in" ? result : undefined;
  const resend = result?.intent === "resend" ? result : undefined;
  const firstError = firstErrorField(signIn?.errors, FIELDS);
  const email = result?.values?.email ?? loaderData.email;

  return (
    <div className={styles.page}>
      <h1>Sign in</h1>
      {loaderData.notice ? <FormStatus>{loaderData.notice}</FormStatus> : null}
      <p className={styles.lede}>Sign in to use your bookmarks, reading lists and saved searches.</p>
      <ErrorSummary result={signIn} fields={FIELDS} />
      {resend ? resend.ok ? <FormStatus result={resend} /> : <ErrorSummary result={resend} fields={[]} /> : null}
      {signIn?.notVerified ? (
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={email} />
          <p>
            We need you to confirm your email address before you can sign in. We sent you a link when you registered.{" "}
            <button type="submit" className={formStyles.link}>
              Send the link again
            </button>
          </p>
        </Form>
      ) : null}
      <Form method="post" className={formStyles.form} ref={formRef} noValidate>
        <CsrfField />
        <input type="hidden" name={REDIRECT_PARAM} value={loaderData.redirect} />
        <EmailField
          name="email"
          label="Email address"
          defaultValue={email}
          errors={signIn?.errors?.email}
          autoFocus={firstError === "email"}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          errors={signIn?.errors?.password}
          autoFocus={firstError === "password"}
        />
        <Checkbox name="remember" label="Keep me signed in on this computer for 30 days" defaultChecked={signIn?.values?.remember === "on"} />
        <div className={formStyles.actions}>
          <SubmitButton busy={busy} busyLabel="Signing in…">
            Sign in
          </SubmitButton>
          <Link to="/forgot-password">Forgotten your password?</Link>
        </div>
      </Form>
      {loaderData.external ? (
        <p className={styles.external}>
          <a className="button" href={loaderData.external.href}>
            Sign in with {loaderData.external.name}
          </a>
        </p>
      ) : null}
      <div className={styles.alternatives}>
        <h2>New here?</h2>
        <p>
          <Link to="/register">Create an account</Link> — it is free and takes a minute.
        </p>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
