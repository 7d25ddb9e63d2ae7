// A form of the account area that posts with a fetcher: the page neither reloads
// nor scrolls, and focus stays put. Without JavaScript it is a plain form post and
// the page comes back with the result (useActionData).
import { useEffect, useRef, type ReactNode } from "react";
import { useActionData, useFetcher } from "react-router";
import { CsrfField, formStyles, useFocusFirstError } from "../../components/forms/Forms";
import { resultFor } from "../../lib/form-result";
import type { AccountResult } from "./account-actions.server";

export interface ActionFormState {
  /** This form's latest result (from the fetcher, or from a plain post's page). */
  result: AccountResult | undefined;
  busy: boolean;
}

interface ActionFormProps {
  intent: string;
  /** The item acted on: sent as `id` and used to match the result to this form. */
  target?: string | number;
  /** Extra hidden fields. */
  hidden?: Record<string, string | number>;
  /** Called once per completed submission (before the page's data is reloaded). */
  onResult?: (result: AccountResult) => void;
  className?: string;
  /** An accessible name for the form, when the page has many alike. */
  label?: string;
  children: (state: ActionFormState) => ReactNode;
  noValidate?: boolean;
  /** Empty the fields after a success (passwords, a new list's name). */
  resetOnSuccess?: boolean;
}

/** The account area's buttons: plain, not the page's one primary action. */
export const buttonClass = `button ${formStyles.button}`;

export function ActionForm({ intent, target, hidden, onResult, className, label, children, noValidate, resetOnSuccess }: ActionFormProps) {
  const fetcher = useFetcher<AccountResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const pageResult = resultFor(useActionData(), intent, target) as AccountResult | undefined;
  const result = fetcher.data ?? pageResult;
  const reported = useRef<AccountResult | undefined>(undefined);

  useEffect(() => {
    // The action's answer arrives while the page's data is still being reloaded.
    if (fetcher.data && fetcher.state !== "submitting" && reported.current !== fetcher.data) {
      reported.current = fetcher.data;
      if (fetcher.data.ok && resetOnSuccess) formRef.current?.reset();
      onResult?.(fetcher.data);
    }
  }, [fetcher.data, fetcher.state, onResult, resetOnSuccess]);
  useFocusFirstError(formRef, result);

  return (
    <fetcher.Form ref={formRef} method="post" className={className ?? formStyles.form} aria-label={label} noValidate={noValidate}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {target !== undefined ? <input type="hidden" name="id" value={target} /> : null}
      {hidden ? Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
      {children({ result, busy: fetcher.state === "submitting" })}
    </fetcher.Form>
  );
}

/** A failure message next to the form that caused it. */
export function FormError({ result }: { result: AccountResult | undefined }) {
  if (!result || result.ok || (result.errors && Object.keys(result.errors).length)) return null;
  return (
    <p role="alert" className={formStyles.error}>
      {result.message}
    </p>
  );
}

/** An ActionForm that is one button (what it does is in `children`), with the failure if it is refused. */
export function ActionButton({ children, ...form }: Omit<ActionFormProps, "children"> & { children: ReactNode }) {
  return (
    <ActionForm {...form}>
      {({ result, busy }) => (
        <>
          <button type="submit" className={buttonClass} disabled={busy}>
            {children}
          </button>
          <FormError result={result} />
        </>
      )}
    </ActionForm>
  );
}
