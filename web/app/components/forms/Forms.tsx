// Form pieces for server-rendered forms that work without JavaScript: a label, hint
// and error per field (the error tied to the control by aria-describedby), an error
// summary, a status message, and the CSRF field.
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type RefObject } from "react";
import { useNavigation, useRouteLoaderData } from "react-router";
import type { FieldErrors, FormResult } from "../../lib/form-result";
import styles from "./forms.module.css";

export { styles as formStyles };

/** The CSRF token every state-changing form carries (from the root loader). */
export function CsrfField() {
  const root = useRouteLoaderData("root") as { csrf?: string | null } | undefined;
  return root?.csrf ? <input type="hidden" name="_token" value={root.csrf} /> : null;
}

/** The id a field's control gets; error summaries link to it. */
export function fieldId(name: string, prefix = "field"): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  /** Prefix of the control's id, for pages with the same field name in several forms. */
  idPrefix?: string;
}

/** A labelled text input with its hint and error. */
export function Field({ name, label, hint, errors, idPrefix, className, ...input }: FieldProps) {
  const id = fieldId(name, idPrefix);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={errors?.length ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className={styles.error}>
          <span className="visually-hidden">Error: </span>
          {errors!.join(" ")}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type="text"
        {...input}
        className={className ? `${styles.input} ${className}` : styles.input}
        aria-describedby={describedBy}
        aria-invalid={errorId ? true : undefined}
      />
    </div>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({ name, label, defaultChecked, idPrefix }: { name: string; label: ReactNode; defaultChecked?: boolean; idPrefix?: string }) {
  const id = fieldId(name, idPrefix);
  return (
    <div className={styles.checkbox}>
      <input type="checkbox" id={id} name={name} defaultChecked={defaultChecked} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/**
 * "There is a problem": every error of the form, each linking to its field; errors of
 * fields the form does not show (a link's token, say) are listed as text.
 */
export function ErrorSummary({
  result,
  fields,
  idPrefix,
}: {
  result: FormResult | undefined;
  /** The fields the form shows, in order. */
  fields: readonly string[];
  idPrefix?: string;
}) {
  if (!result || result.ok) return null;
  const errors: FieldErrors = result.errors ?? {};
  const items: ReactNode[] = [];
  for (const name of fields) {
    for (const message of errors[name] ?? []) {
      items.push(
        <li key={`${name}:${message}`}>
          <a href={`#${fieldId(name, idPrefix)}`}>{message}</a>
        </li>,
      );
    }
  }
  for (const [name, messages] of Object.entries(errors)) {
    if (fields.includes(name)) continue;
    for (const message of messages) items.push(<li key={`${name}:${message}`}>{message}</li>);
  }
  if (!items.length && result.message) items.push(<li key="message">{result.message}</li>);
  if (!items.length) return null;
  return (
    <div className={styles.summary} role="alert" tabIndex={-1} data-error-summary="">
      <h2>There is a problem</h2>
      <ul>{items}</ul>
    </div>
  );
}

/** A success message, announced politely. */
export function FormStatus({ result, children }: { result?: FormResult; children?: ReactNode }) {
  const text = children ?? (result?.ok ? result.message : null);
  return (
    <div role="status" className={text ? styles.status : undefined}>
      {text ? typeof text === "string" ? <p>{text}</p> : text : null}
    </div>
  );
}

/**
 * Moves focus to the first field in error (or the error summary) when a submission
 * comes back with errors. Without JavaScript the fields' autoFocus does the same.
 */
export function useFocusFirstError(formRef: RefObject<HTMLElement | null>, result: FormResult | undefined) {
  const seen = useRef<FormResult | undefined>(undefined);
  useEffect(() => {
    if (!result || result.ok || seen.current === result) return;
    // After the site shell's own after-navigation focus (a form post is a navigation),
    // which runs in a parent's effect, so after this one.
    const timer = window.setTimeout(() => {
      seen.current = result;
      const root = formRef.current;
      const target =
        root?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        root?.querySelector<HTMLElement>("[data-error-summary]") ??
        document.querySelector<HTMLElement>("[data-error-summary]");
      target?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [formRef, result]);
}

/** Whether a form of this page is being submitted (a GET navigation is not a submission). */
export function useSubmitting(): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod !== undefined;
}

/** A page's form: its ref (focus goes to the first field in error) and whether it is being submitted. */
export function usePageForm(result: FormResult | undefined): { formRef: RefObject<HTMLFormElement | null>; busy: boolean } {
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useSubmitting();
  useFocusFirstError(formRef, result);
  return { formRef, busy };
}
