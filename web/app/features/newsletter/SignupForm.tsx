// The newsletter sign-up: email, which lists, the consent wording (shown, and sent
// with the sign-up as the consent the API keeps) and the page it was on. The same
// component sits in the footer, in a content page's `newsletter_signup` slice and on
// /newsletter/subscribe. It posts to /newsletter/subscribe: with JavaScript as a
// fetcher (the page stays where it is and the form says "check your email"), without
// it as a plain post whose answer is that page.
import { useEffect, useRef, type ReactNode } from "react";
import { Link, useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { CsrfField, EmailField, FormStatus, formStyles, useFocusFirstError } from "../../components/forms/Forms";
import { firstErrorField } from "../../lib/form-result";
import { useAuth } from "../auth";
import type { NewsletterResult } from "./api.server";
import { ListChoices } from "./ListChoices";
import { CONSENT_WORDING, listsOffered } from "./signup";
import type { NewsletterList } from "./types";
import styles from "./newsletter.module.css";

export const SIGNUP_ACTION = "/newsletter/subscribe";

/** The public lists, as the root loader read them for every page (null: unavailable). */
export function useSignupLists(): NewsletterList[] | null {
  const root = useRouteLoaderData("root") as { newsletterLists?: NewsletterList[] | null } | undefined;
  return root?.newsletterLists ?? null;
}

interface SignupProps {
  /** Unique per page: the footer's and a slice's forms may be on the same page. */
  idPrefix: string;
  heading: ReactNode;
  headingLevel?: 2 | 3;
  intro?: ReactNode;
  /** A plain post's answer, when this form is the page's own (/newsletter/subscribe). */
  pageResult?: NewsletterResult;
  /** The page the visitor signs up from; default: the current page. */
  source?: string;
}

export function NewsletterSignup({ idPrefix, heading, headingLevel = 2, intro, pageResult, source }: SignupProps) {
  const fetcher = useFetcher<NewsletterResult>();
  const location = useLocation();
  const auth = useAuth();
  const lists = useSignupLists();
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const result = fetcher.state === "idle" ? (fetcher.data ?? pageResult) : undefined;
  useFocusFirstError(formRef, result);
  const succeeded = result?.ok === true;
  useEffect(() => {
    // The form gives way to the message: focus follows, so it is read out and Tab goes on from there.
    if (succeeded && fetcher.data) doneRef.current?.focus();
  }, [succeeded, fetcher.data]);

  const Heading = headingLevel === 3 ? "h3" : "h2";
  const headingId = `${idPrefix}-heading`;
  const offered = listsOffered(lists ?? [], auth.user?.scope);

  if (succeeded) {
    const email = result.values?.email ?? "";
    return (
      <div className={styles.panel}>
        <div ref={doneRef} tabIndex={-1} className={styles.done}>
          <Heading id={headingId}>{result.status === "subscribed" ? "You are signed up" : "Check your email to confirm"}</Heading>
          <FormStatus>
            {result.status === "subscribed" ? (
              <p>{result.message ?? "You are signed up."}</p>
            ) : (
              <p>
                We have sent a link to <strong>{email}</strong>. Open it to confirm that you want our newsletter. Until you do,
                we will send you nothing else.
              </p>
            )}
          </FormStatus>
          {result.status === "pending" ? <p>No email after a few minutes? Look in your spam or junk folder.</p> : null}
        </div>
      </div>
    );
  }

  const ticked = new Set((result?.values?.lists ?? "").split(",").filter(Boolean));
  const first = firstErrorField(result?.errors, ["email", "lists"]);
  const otherProblem = result && !result.ok && !first ? (result.errors?.wording?.[0] ?? result.errors?.source?.[0] ?? result.message) : undefined;
  const consentId = `${idPrefix}-consent`;
  return (
    <div className={styles.panel}>
      <Heading id={headingId}>{heading}</Heading>
      {intro}
      {lists === null || offered.length === 0 ? (
        <p>
          Signing up is not possible just now. Please try again later, or <Link to={SIGNUP_ACTION}>go to the sign-up page</Link>.
        </p>
      ) : (
        <fetcher.Form method="post" action={SIGNUP_ACTION} ref={formRef} noValidate aria-labelledby={headingId}>
          <CsrfField />
          <input type="hidden" name="source" value={source ?? location.pathname} />
          <input type="hidden" name="wording" value={CONSENT_WORDING} />
          <EmailField
            name="email"
            idPrefix={idPrefix}
            label="Your email"
            defaultValue={result?.values?.email ?? auth.user?.email ?? ""}
            errors={result?.errors?.email}
            autoFocus={pageResult !== undefined && first === "email"}
          />
          <ListChoices
            lists={offered}
            ticked={ticked}
            errors={result?.errors?.lists}
            idPrefix={idPrefix}
            legend="Which newsletters would you like?"
            autoFocus={pageResult !== undefined && first === "lists"}
          />
          <p id={consentId} className={styles.consent}>
            {CONSENT_WORDING} <Link to="/about/organisation/society-policies">How we use your address</Link>.
          </p>
          {otherProblem ? (
            <p role="alert" className={formStyles.error}>
              {otherProblem}
            </p>
          ) : null}
          <button type="submit" className={`button button--primary ${formStyles.button}`} aria-describedby={consentId} disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? "Signing you up…" : "Sign up"}
          </button>
        </fetcher.Form>
      )}
    </div>
  );
}
