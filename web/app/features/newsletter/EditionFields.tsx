// The compose form's fields: the list it goes to, the `newsletter` document it is
// made from, the subject and the automatic sections after the document.
import { Field, fieldId, formStyles, SelectField } from "../../components/forms/Forms";
import type { FieldErrors } from "../../lib/form-result";
import { SECTIONS } from "./edition";
import type { NewsletterDocument, NewsletterList } from "./types";
import styles from "./newsletter.module.css";

interface Values {
  list?: string;
  document?: string;
  subject?: string;
  /** Comma-separated. */
  sections?: string;
}

export function EditionFields({
  lists,
  documents,
  values,
  errors,
  idPrefix,
}: {
  lists: readonly NewsletterList[];
  documents: readonly NewsletterDocument[];
  values: Values;
  errors?: FieldErrors;
  idPrefix: string;
}) {
  const sections = new Set((values.sections ?? "").split(",").filter(Boolean));
  const sectionsError = errors?.sections?.length ? `${fieldId("sections", idPrefix)}-error` : undefined;
  return (
    <>
      <SelectField
        name="list"
        label="Send to the subscribers of"
        idPrefix={idPrefix}
        options={lists.map((l) => ({ value: l.slug, label: l.audience === "members" ? `${l.name} (members only)` : l.name }))}
        defaultValue={values.list ?? lists[0]?.slug ?? ""}
        errors={errors?.list}
      />
      <SelectField
        name="document"
        label="Made from the content document"
        hint="A document of type “newsletter” in the content editor: its text comes first."
        idPrefix={idPrefix}
        options={documents.map((d) => ({ value: d.uid, label: d.title ? `${d.title} (${d.uid})` : d.uid }))}
        defaultValue={values.document ?? documents[0]?.uid ?? ""}
        errors={errors?.document}
      />
      <Field name="subject" idPrefix={idPrefix} label="Subject line" defaultValue={values.subject ?? ""} errors={errors?.subject} />
      <fieldset className={sectionsError ? `${styles.lists} ${formStyles.fieldError}` : styles.lists} aria-describedby={sectionsError}>
        <legend>Sections added after the document</legend>
        {sectionsError ? (
          <p id={sectionsError} className={formStyles.error}>
            {errors!.sections!.join(" ")}
          </p>
        ) : null}
        {SECTIONS.map((s, i) => {
          const id = i === 0 ? fieldId("sections", idPrefix) : `${fieldId("sections", idPrefix)}-${s.value}`;
          return (
            <div key={s.value} className={styles.choice}>
              <input type="checkbox" id={id} name="sections" value={s.value} defaultChecked={sections.has(s.value)} />
              <label htmlFor={id}>{s.label}</label>
            </div>
          );
        })}
      </fieldset>
    </>
  );
}
