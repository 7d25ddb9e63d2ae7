// A slice zone (a page's body): sections of the kinds the model offers, added,
// moved up or down and removed; each section's own fields and repeated items.
import { useId, useState } from "react";
import formStyles from "../../components/forms/forms.module.css";
import { controlId, errorsAt } from "./errors";
import { FieldEditor, ItemList, ItemTools, moved, useEditorEnv } from "./fields";
import { newSlice, sliceChoices, type FieldModel } from "./models";
import styles from "./studio.module.css";

type Slice = { slice_type: string; id?: string; primary?: Record<string, unknown>; items?: Record<string, unknown>[]; [k: string]: unknown };

function sliceKey(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export function SliceZone({ path, label, model, value, onChange }: { path: string; label: string; model: FieldModel; value: unknown; onChange: (v: unknown) => void }) {
  const { errors, slices: sliceModels } = useEditorEnv();
  const choices = sliceChoices(model, sliceModels);
  const slices = Array.isArray(value) ? (value as Slice[]) : [];
  const [kind, setKind] = useState(choices[0]?.id ?? "");
  const headingId = useId();
  const id = controlId(path);
  const set = (i: number, s: Slice) => onChange(slices.map((x, j) => (j === i ? s : x)));
  return (
    <section className={styles.sliceZone} aria-labelledby={headingId}>
      <h3 id={headingId} tabIndex={-1}>
        {label}: sections
      </h3>
      {errorsAt(errors, path).length ? (
        <p id={id} className={formStyles.error}>
          {errorsAt(errors, path).join(" ")}
        </p>
      ) : null}
      {slices.length === 0 ? <p>No sections yet. Add one below.</p> : null}
      <ol className={styles.items}>
        {slices.map((slice, i) => {
          const choice = choices.find((c) => c.id === slice.slice_type);
          const name = `section ${i + 1} (${choice?.label ?? slice.slice_type})`;
          const sPath = `${path}.${i}`;
          const primary = slice.primary ?? {};
          return (
            <li key={slice.id ?? i} className={styles.slice}>
              <h4 id={controlId(sPath)} tabIndex={-1} className={styles.sliceTitle}>
                {`Section ${i + 1}: ${choice?.label ?? slice.slice_type}`}
              </h4>
              {errorsAt(errors, sPath).length ? <p className={formStyles.error}>{errorsAt(errors, sPath).join(" ")}</p> : null}
              {choice ? (
                <>
                  {choice.primary.map((f) => (
                    <FieldEditor key={f.id} path={`${sPath}.primary.${f.id}`} field={f} value={primary[f.id]} onChange={(v) => set(i, { ...slice, primary: { ...primary, [f.id]: v } })} />
                  ))}
                  {choice.items.length ? (
                    <ItemList path={`${sPath}.items`} label={`Items of section ${i + 1}`} fields={choice.items} items={slice.items ?? []} onChange={(items) => set(i, { ...slice, items })} itemWord="item" level={5} />
                  ) : null}
                </>
              ) : (
                <p>This kind of section is not in the model any more; it is kept as it is.</p>
              )}
              <ItemTools index={i} count={slices.length} name={name} onMove={(to) => onChange(moved(slices, i, to))} onRemove={() => onChange(slices.filter((_, j) => j !== i))} />
            </li>
          );
        })}
      </ol>
      {choices.length ? (
        <div className={styles.addRow}>
          <label htmlFor={`${id}-add`}>Kind of new section</label>
          <select id={`${id}-add`} className={formStyles.input} value={kind} onChange={(e) => setKind(e.target.value)}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            onClick={() => {
              const choice = choices.find((c) => c.id === kind);
              if (choice) onChange([...slices, newSlice(choice, sliceKey())]);
            }}
          >
            Add the section
          </button>
        </div>
      ) : null}
    </section>
  );
}
