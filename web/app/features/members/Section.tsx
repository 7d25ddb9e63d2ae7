// One section of the account area: a heading that can take focus, and a polite
// status line for what the section's forms did.
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useActionData } from "react-router";
import type { AccountResult } from "./account-actions.server";
import styles from "./account.module.css";

export interface SectionStatus {
  /** Records a result; `refocus`: the form's item goes away, so focus the heading once the list is reloaded. */
  report: (result: AccountResult, options?: { refocus?: boolean }) => void;
}

export function useSectionStatus(intents: readonly string[], data: unknown) {
  const pageResult = useActionData() as AccountResult | undefined;
  const fromPage = pageResult && intents.includes(pageResult.intent ?? "") ? pageResult : undefined;
  const [latest, setLatest] = useState<AccountResult | undefined>(undefined);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refocus = useRef(false);

  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    headingRef.current?.focus();
  }, [data]);

  const report = useCallback<SectionStatus["report"]>((result, options) => {
    setLatest(result);
    if (result.ok && options?.refocus) refocus.current = true;
  }, []);

  return { result: latest ?? fromPage, report, headingRef };
}

export function Section({
  id,
  title,
  result,
  headingRef,
  children,
}: {
  id: string;
  title: string;
  result: AccountResult | undefined;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  children: ReactNode;
}) {
  // Only successes here: failures show next to the form that caused them.
  const message = result?.ok ? result.message : undefined;
  return (
    <section id={id} className={styles.section} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        {title}
      </h2>
      <div role="status" className={styles.status}>
        {message ? <p>{message}</p> : null}
      </div>
      {children}
    </section>
  );
}
