// The lists as checkboxes, each with its description; the fieldset's error sits under
// its legend and is tied to every box.
import type { NewsletterList } from "./types";
import { ErrorText, fieldId, formStyles } from "../../components/forms/Forms";
import styles from "./newsletter.module.css";

export function ListChoices({
  lists,
  ticked,
  errors,
  idPrefix,
  legend,
  autoFocus,
}: {
  lists: readonly NewsletterList[];
  ticked: ReadonlySet<string>;
  errors?: string[];
  idPrefix: string;
  legend: string;
  autoFocus?: boolean;
}) {
  const errorId = errors?.length ? `${fieldId("lists", idPrefix)}-error` : undefined;
  return (
    <fieldset className={errorId ? `${styles.lists} ${formStyles.fieldError}` : styles.lists} aria-describedby={errorId}>
      <legend>{legend}</legend>
      <ErrorText id={errorId} errors={errors} />
      {lists.map((list, i) => {
        const id = `${fieldId("lists", idPrefix)}-${list.slug}`;
        const hint = list.description ? `${id}-hint` : undefined;
        return (
          <div key={list.slug} className={styles.choice}>
            <input
              type="checkbox"
              id={i === 0 ? fieldId("lists", idPrefix) : id}
              name="lists"
              value={list.slug}
              defaultChecked={ticked.has(list.slug)}
              aria-describedby={[hint, errorId].filter(Boolean).join(" ") || undefined}
              aria-invalid={errorId ? true : undefined}
              autoFocus={autoFocus && i === 0}
            />
            <label htmlFor={i === 0 ? fieldId("lists", idPrefix) : id}>
              {list.name}
              {list.audience === "members" ? " (members only)" : ""}
            </label>
            {hint ? (
              <p id={hint} className={styles.choiceHint}>
                {list.description}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
