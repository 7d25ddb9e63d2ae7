// The alert of one saved search: off, as soon as new records match, at most daily or
// weekly, each said in plain words. It posts to the account page (/user-account,
// intent "alert"): with JavaScript as a fetcher (focus stays put), without it as a
// plain post whose answer is the account page.
import { useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { CsrfField, ErrorText, fieldId, formStyles, useFocusFirstError } from "../../components/forms/Forms";
import { resultFor } from "../../lib/form-result";
import { ALERT_CHOICES, alertSentence, type AlertChoice } from "./alerts";
import type { AlertResult } from "./api.server";
import type { Alert } from "./types";
import styles from "./newsletter.module.css";

export const ALERT_ACTION = "/user-account";

export function AlertControl({ searchId, searchName, alert }: { searchId: number; searchName: string; alert: Alert | null | undefined }) {
  const fetcher = useFetcher<AlertResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const pageResult = resultFor(useActionData(), "alert", searchId) as AlertResult | undefined;
  const result = fetcher.state === "idle" ? (fetcher.data ?? pageResult) : undefined;
  useFocusFirstError(formRef, result);
  const saved: AlertChoice = result?.ok && result.choice ? result.choice : (alert?.frequency ?? "off");
  const chosen: AlertChoice = result?.choice ?? saved;
  const prefix = `alert-${searchId}`;
  const errors = result?.errors?.frequency;
  const errorId = errors?.length ? `${fieldId("frequency", prefix)}-error` : undefined;
  const nowId = `${prefix}-now`;
  return (
    <fetcher.Form method="post" action={ALERT_ACTION} ref={formRef} className={styles.alertForm} noValidate>
      <CsrfField />
      <input type="hidden" name="intent" value="alert" />
      <input type="hidden" name="id" value={searchId} />
      <fieldset className={errorId ? `${styles.alert} ${formStyles.fieldError}` : styles.alert} aria-describedby={[nowId, errorId].filter(Boolean).join(" ")}>
        <legend>
          Email me about new records<span className="visually-hidden"> for “{searchName}”</span>
        </legend>
        <p id={nowId} className={styles.choiceHint}>
          {alertSentence(saved, searchName)} One email covers all your saved searches.
        </p>
        <ErrorText id={errorId} errors={errors} />
        <div className={styles.alertChoices} key={chosen}>
          {ALERT_CHOICES.map((choice, i) => {
            const id = i === 0 ? fieldId("frequency", prefix) : `${fieldId("frequency", prefix)}-${choice.value}`;
            return (
              <div key={choice.value} className={styles.choice}>
                <input type="radio" id={id} name="frequency" value={choice.value} defaultChecked={chosen === choice.value} aria-invalid={errorId ? true : undefined} />
                <label htmlFor={id}>{choice.label}</label>
              </div>
            );
          })}
        </div>
      </fieldset>
      <div className={styles.inline}>
        <button type="submit" className={`button ${formStyles.button}`} disabled={fetcher.state !== "idle"}>
          Save<span className="visually-hidden"> the email setting for “{searchName}”</span>
        </button>
        <div role="status">{result?.ok ? <p>Saved. {alertSentence(saved, searchName)}</p> : null}</div>
      </div>
      {result && !result.ok && !errorId ? (
        <p role="alert" className={formStyles.error}>
          {result.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
