// Form pieces for server-rendered forms that work without JavaScript: a label, hint
// and error per field (the error tied to the control by aria-describedby), an error
// summary, a status message, the submit button, one-button forms and the CSRF field.
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type RefObject } from "react";
import { Form, useNavigation, useRouteLoaderData } from "react-router";
import type { FieldErrors, FormResult } from "../../lib/form-result";
import styles from "./forms.module.css";

export { styles as formStyles };

/** The CSRF token every state-changing form carries (from the root loader). */
export function CsrfField() {
  const root = useRouteLoaderData("root") as { csrf?: string | null } | undefined;
  return root?.csrf ? <input type="hidden" name="_token" value={root.csrf} /> : null;
}

/** A form that is one plain button: it posts `intent` and the `hidden` fields to the page's action. */
export function PostButton({ intent, hidden, children }: { intent: string; hidden?: Record<string, string | number>; children: ReactNode }) {
  return (
    <Form method="post">
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {hidden ? Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />) : null}
      <button type="submit" className="button">
        {children}
      </button>
    </Form>
  );
}

/** What a page a mailed link opens says when the link came without its token. */
export const INCOMPLETE_LINK_MESSAGE = "This link is incomplete. Please open the link from the email again, or copy all of it into the address bar.";

/**
 * The form of a page a mailed link opens: the link's token, what pressing the button
 * does (`prompt`), and the button; without a token, the message that the link is
 * incomplete.
 */
export function MailedLinkForm({ token, prompt, busy, children }: { token: string; prompt: ReactNode; busy: boolean; children: ReactNode }) {
  if (!token) return <p>{INCOMPLETE_LINK_MESSAGE}</p>;
  return (
    <Form method="post" className={styles.form}>
      <CsrfField />
      <input type="hidden" name="token" value={token} />
      {prompt}
      <div className={styles.actions}>
        <SubmitButton busy={busy} busyLabel="Confirming…">
          {children}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The id a field's control gets; error summaries link to it. */
export function fieldId(name: string, prefix = "field"): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

interface ShellProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  /** Prefix of the control's id, for pages with the same field name in several forms. */
  idPrefix?: string;
}

/** What a control inside a FieldShell carries to point at its label, hint and error. */
export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/** A field's error message, for its control's aria-describedby; nothing when there is none. */
export function ErrorText({ id, errors, className = styles.error }: { id: string | undefined; errors: readonly string[] | undefined; className?: string }) {
  if (!id || !errors?.length) return null;
  return (
    <p id={id} className={className}>
      <span className="visually-hidden">Error: </span>
      {errors.join(" ")}
    </p>
  );
}

/** A label, hint and error around any control; the control gets the ids to point at them. */
export function FieldShell({ name, label, hint, errors, idPrefix, children }: ShellProps & { children: (control: ControlProps) => ReactNode }) {
  const id = fieldId(name, idPrefix);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={errorId ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <ErrorText id={errorId} errors={errors} />
      {children({ id, "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined, "aria-invalid": errorId ? true : undefined })}
    </div>
  );
}

type FieldProps = ShellProps & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id">;

/** A labelled text input with its hint and error. */
export function Field({ name, label, hint, errors, idPrefix, className, ...input }: FieldProps) {
  return (
    <FieldShell name={name} label={label} hint={hint} errors={errors} idPrefix={idPrefix}>
      {({ id, ...described }) => (
        <input id={id} name={name} type="text" {...input} className={className ? `${styles.input} ${className}` : styles.input} {...described} />
      )}
    </FieldShell>
  );
}

/** A labelled drop-down list with its hint and error. */
export function SelectField({
  options,
  defaultValue,
  ...shell
}: ShellProps & { options: readonly { value: string; label: string }[]; defaultValue?: string }) {
  return (
    <FieldShell {...shell}>
      {({ id, ...described }) => (
        <select id={id} name={shell.name} className={styles.input} defaultValue={defaultValue} {...described}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** An email address: the browser offers the person's own and leaves its spelling alone. */
export function EmailField(props: Omit<FieldProps, "type" | "autoComplete" | "spellCheck">) {
  return <Field type="email" autoComplete="email" spellCheck={false} {...props} />;
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

/** The form's main button: disabled while the form is being sent, saying `busyLabel` then if given. */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel?: ReactNode; children: ReactNode }) {
  return (
    <button type="submit" className={`button button--primary ${styles.button}`} disabled={busy}>
      {busy && busyLabel ? busyLabel : children}
    </button>
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
 * What a one-button form's post came to: its success message, announced politely, or
 * its failure as an alert (the message, else `failed`), in the feature's `className`.
 */
export function ActionOutcome({ result, failed, className }: { result: FormResult | null | undefined; failed?: string; className: string }) {
  if (!result) return null;
  if (result.ok) return <FormStatus result={result} />;
  return (
    <p role="alert" className={className}>
      {result.message ?? failed}
    </p>
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
