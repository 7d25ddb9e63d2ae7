// "Save this search" for search pages: a name, posted with the page's address to
// /saved-searches. Signed-out visitors get a link to sign in and come back.
import { useRef } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { CsrfField, Field, formStyles, useFocusFirstError } from "../../components/forms/Forms";
import { signInPath, useAuth } from "../auth";
import type { AccountResult } from "./account-actions.server";
import styles from "./account.module.css";

export function SaveSearchForm({ suggestedName = "" }: { suggestedName?: string }) {
  const auth = useAuth();
  const location = useLocation();
  const fetcher = useFetcher<AccountResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useFocusFirstError(formRef, result);
  const here = location.pathname + location.search;
  if (!auth.loggedIn) {
    return (
      <p>
        <Link to={signInPath(here)}>Sign in to save this search</Link>
      </p>
    );
  }
  return (
    <fetcher.Form method="post" action="/saved-searches" ref={formRef} className={styles.inline} noValidate>
      <CsrfField />
      <input type="hidden" name="intent" value="saved-create" />
      <input type="hidden" name="url" value={here} />
      <Field name="name" idPrefix="save-search" label="Save this search as" defaultValue={suggestedName} errors={result?.errors?.name} />
      <button type="submit" className={`button ${formStyles.button}`} disabled={fetcher.state !== "idle"}>
        Save search
      </button>
      <div role="status">{result?.ok ? <p>{result.message}</p> : null}</div>
      {result && !result.ok && !result.errors?.name ? (
        <p role="alert" className={formStyles.error}>
          {result.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
