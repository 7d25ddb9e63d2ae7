// An image field: the chosen picture, its description (alt text, needed) and copyright.
import { useState } from "react";
import formStyles from "../../components/forms/forms.module.css";
import { controlId, errorsAt, errorsUnclaimed } from "./errors";
import { useEditorEnv } from "./fields";
import { MediaPicker } from "./MediaPicker";
import styles from "./studio.module.css";
import { imageValue, type Media } from "./types";

export interface ImageValue {
  id?: string;
  url?: string;
  alt?: string | null;
  copyright?: string | null;
  dimensions?: { width: number; height: number };
  [k: string]: unknown;
}

/** The picture, alt text and copyright of an image (a field, or a rich text block). */
export function ImageControls({ path, label, hint, value, onChange, onRemove }: { path: string; label: string; hint?: string; value: ImageValue; onChange: (v: ImageValue) => void; onRemove: () => void }) {
  const { errors } = useEditorEnv();
  const [picking, setPicking] = useState(false);
  const id = controlId(path);
  const has = Boolean(value.url);
  const own = errorsUnclaimed(errors, path, [`${path}.alt`, `${path}.copyright`]);
  const altErrors = errorsAt(errors, `${path}.alt`);
  const missingAlt = has && !(value.alt ?? "").trim();
  return (
    <fieldset className={`${formStyles.field} ${styles.fieldset} ${own.length || altErrors.length ? formStyles.fieldError : ""}`} aria-describedby={own.length ? `${id}-error` : undefined}>
      <legend className={formStyles.legend}>{label}</legend>
      {hint ? <p className={formStyles.hint}>{hint}</p> : null}
      {own.length ? (
        <p id={`${id}-error`} className={formStyles.error}>
          <span className="visually-hidden">Error: </span>
          {own.join(" ")}
        </p>
      ) : null}
      {has ? (
        <figure className={styles.imagePreview}>
          <img src={value.url} alt={value.alt ?? ""} width={value.dimensions?.width} height={value.dimensions?.height} />
        </figure>
      ) : (
        <p>No picture chosen.</p>
      )}
      <div className={styles.tools}>
        <button type="button" id={id} className="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
          {has ? "Choose another picture" : "Choose a picture"}
        </button>
        {has ? (
          <button type="button" className="button" onClick={onRemove}>
            Remove the picture
          </button>
        ) : null}
      </div>
      {picking ? (
        <MediaPicker
          onCancel={() => setPicking(false)}
          onPick={(m: Media) => {
            setPicking(false);
            onChange({ ...value, ...imageValue(m) } as ImageValue);
          }}
        />
      ) : null}
      {has ? (
        <>
          <div className={altErrors.length || missingAlt ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
            <label htmlFor={controlId(`${path}.alt`)}>Description (alt text)</label>
            <p id={`${controlId(`${path}.alt`)}-hint`} className={formStyles.hint}>
              Say what the picture shows, for people who cannot see it. Needed.
            </p>
            {altErrors.length || missingAlt ? (
              <p id={`${controlId(`${path}.alt`)}-error`} className={formStyles.error}>
                <span className="visually-hidden">Error: </span>
                {altErrors.length ? altErrors.join(" ") : "Describe the picture."}
              </p>
            ) : null}
            <input
              id={controlId(`${path}.alt`)}
              className={formStyles.input}
              value={value.alt ?? ""}
              required
              onChange={(e) => onChange({ ...value, alt: e.target.value })}
              aria-describedby={`${controlId(`${path}.alt`)}-hint${altErrors.length || missingAlt ? ` ${controlId(`${path}.alt`)}-error` : ""}`}
              aria-invalid={altErrors.length || missingAlt ? true : undefined}
            />
          </div>
          <div className={formStyles.field}>
            <label htmlFor={controlId(`${path}.copyright`)}>Copyright</label>
            <input id={controlId(`${path}.copyright`)} className={formStyles.input} value={value.copyright ?? ""} onChange={(e) => onChange({ ...value, copyright: e.target.value || null })} />
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

/** An Image field of a document ({} when empty). */
export function ImageField({ path, label, hint, value, onChange }: { path: string; label: string; hint?: string; value: unknown; onChange: (v: unknown) => void }) {
  const v = (value && typeof value === "object" ? value : {}) as ImageValue;
  return <ImageControls path={path} label={label} hint={hint} value={v} onChange={onChange} onRemove={() => onChange({})} />;
}
