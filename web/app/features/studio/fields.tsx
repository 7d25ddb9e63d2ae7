// The editor's fields, one component per Prismic field type, generated from the type's
// model (models.ts). Each takes its value and gives a new one; messages from the API sit
// next to the field their path names (errors.ts).
import { createContext, useContext, useId, type ReactNode } from "react";
import { ErrorText } from "../../components/forms/Forms";
import formStyles from "../../components/forms/forms.module.css";
import type { FieldErrors } from "../../lib/form-result";
import { controlId, errorsAt, errorsUnder } from "./errors";
import { labelOf, newItem, type Field, type FieldModel, type SliceModel } from "./models";
import { ImageField } from "./ImageField";
import { LinkField } from "./LinkField";
import { RichTextField } from "./RichTextField";
import { SliceZone } from "./SliceZone";
import styles from "./studio.module.css";

export interface EditorEnv {
  errors: FieldErrors | undefined;
  slices: readonly SliceModel[];
}

export const EditorContext = createContext<EditorEnv>({ errors: undefined, slices: [] });

export const useEditorEnv = () => useContext(EditorContext);

/** A field's label, hint and messages around its control (whose id is controlId(path)). */
export function FieldFrame({
  path,
  label,
  hint,
  messages,
  children,
  as = "div",
}: {
  path: string;
  label: ReactNode;
  hint?: ReactNode;
  messages: string[];
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
  /** "fieldset" for fields made of several controls. */
  as?: "div" | "fieldset";
}) {
  const id = controlId(path);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const body = (
    <>
      {hint ? (
        <p id={hintId} className={formStyles.hint}>
          {hint}
        </p>
      ) : null}
      <ErrorText id={errorId} errors={messages} />
      {children(describedBy, messages.length > 0)}
    </>
  );
  const cls = messages.length ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field;
  if (as === "fieldset") {
    return (
      <fieldset className={`${cls} ${styles.fieldset}`} aria-describedby={describedBy}>
        <legend className={formStyles.legend}>{label}</legend>
        {body}
      </fieldset>
    );
  }
  return (
    <div className={cls}>
      <label htmlFor={id}>{label}</label>
      {body}
    </div>
  );
}

function requiredWords(model: FieldModel): string | undefined {
  return model.config?.required ? "Needed before it can be published." : undefined;
}

/** Prismic's timestamp ("2026-11-26T01:00:00+0000") as a datetime-local value, in this browser's time. */
export function toLocalInput(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  const d = new Date(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (this browser's time) as Prismic's timestamp in UTC. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return d.toISOString().replace(/\.\d{3}Z$/, "+0000");
}

/** One field of any type. */
export function FieldEditor({ path, field, value, onChange }: { path: string; field: Field; value: unknown; onChange: (v: unknown) => void }) {
  const { errors } = useEditorEnv();
  const { model, id } = field;
  const label = labelOf(id, model);
  const hint = [model.config?.placeholder ? `For example: ${model.config.placeholder}` : "", requiredWords(model) ?? ""].filter(Boolean).join(" ") || undefined;
  const control = controlId(path);

  switch (model.type) {
    case "StructuredText":
      return <RichTextField path={path} label={label} hint={hint} model={model} value={value} onChange={onChange} />;
    case "Image":
      return <ImageField path={path} label={label} hint={hint} value={value} onChange={onChange} />;
    case "Link":
      return <LinkField path={path} label={label} hint={hint} model={model} value={value} onChange={onChange} />;
    case "Slices":
      return <SliceZone path={path} label={label} model={model} value={value} onChange={onChange} />;
    case "Group":
      return <GroupField path={path} label={label} model={model} value={value} onChange={onChange} />;
    case "Boolean":
      return (
        <div className={formStyles.checkbox}>
          <input type="checkbox" id={control} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={control}>{label}</label>
        </div>
      );
    case "Select":
      return (
        <FieldFrame path={path} label={label} hint={hint} messages={errorsUnder(errors, path)}>
          {(d, invalid) => (
            <select id={control} className={formStyles.input} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || null)} aria-describedby={d} aria-invalid={invalid || undefined}>
              <option value="">(none)</option>
              {(model.config?.options ?? []).map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
      );
    case "Embed": {
      const v = (value ?? {}) as { embed_url?: string };
      return (
        <FieldFrame path={path} label={label} hint={hint ?? "The address of a video (YouTube, Vimeo) or other page to embed."} messages={errorsUnder(errors, path)}>
          {(d, invalid) => (
            <input
              id={control}
              type="url"
              className={formStyles.input}
              value={v.embed_url ?? ""}
              onChange={(e) => onChange(e.target.value ? { ...v, embed_url: e.target.value } : {})}
              aria-describedby={d}
              aria-invalid={invalid || undefined}
            />
          )}
        </FieldFrame>
      );
    }
    case "GeoPoint": {
      const v = (value ?? {}) as { latitude?: number; longitude?: number };
      const set = (k: "latitude" | "longitude", s: string) => {
        const next = { ...v, [k]: s === "" ? undefined : Number(s) };
        onChange(next.latitude === undefined && next.longitude === undefined ? {} : next);
      };
      return (
        <FieldFrame as="fieldset" path={path} label={label} hint={hint} messages={errorsUnder(errors, path)}>
          {() => (
            <div className={styles.row}>
              {(["latitude", "longitude"] as const).map((k) => (
                <div key={k} className={formStyles.field}>
                  <label htmlFor={`${control}-${k}`}>{k === "latitude" ? "Latitude" : "Longitude"}</label>
                  <input id={`${control}-${k}`} type="number" step="any" className={formStyles.input} value={v[k] ?? ""} onChange={(e) => set(k, e.target.value)} />
                </div>
              ))}
            </div>
          )}
        </FieldFrame>
      );
    }
    case "UID":
      return null;
    case "Text":
    case "Number":
    case "Date":
    case "Timestamp":
    case "Color":
      return (
        <FieldFrame path={path} label={label} hint={hint} messages={errorsUnder(errors, path)}>
          {(d, invalid) => (
            <input
              id={control}
              className={formStyles.input}
              type={model.type === "Number" ? "number" : model.type === "Date" ? "date" : model.type === "Timestamp" ? "datetime-local" : model.type === "Color" ? "color" : "text"}
              value={model.type === "Timestamp" ? toLocalInput(value) : value === null || value === undefined ? (model.type === "Color" ? "#000000" : "") : String(value)}
              onChange={(e) => {
                const s = e.target.value;
                if (model.type === "Number") onChange(s === "" ? null : Number(s));
                else if (model.type === "Timestamp") onChange(fromLocalInput(s));
                else onChange(s === "" ? null : s);
              }}
              aria-describedby={d}
              aria-invalid={invalid || undefined}
            />
          )}
        </FieldFrame>
      );
    default:
      return <JsonField path={path} label={label} value={value} onChange={onChange} />;
  }
}

/** A field of a type this editor does not draw: its JSON, kept and editable as text. */
function JsonField({ path, label, value, onChange }: { path: string; label: string; value: unknown; onChange: (v: unknown) => void }) {
  const { errors } = useEditorEnv();
  const control = controlId(path);
  return (
    <FieldFrame path={path} label={label} hint="This kind of field is edited as JSON." messages={errorsUnder(errors, path)}>
      {(d, invalid) => (
        <textarea
          id={control}
          className={`${formStyles.input} ${styles.code}`}
          rows={4}
          defaultValue={JSON.stringify(value ?? null, null, 2)}
          onBlur={(e) => {
            try {
              onChange(JSON.parse(e.target.value));
            } catch {
              // Left as typed; the API's message says what is wrong once saved.
            }
          }}
          aria-describedby={d}
          aria-invalid={invalid || undefined}
        />
      )}
    </FieldFrame>
  );
}

/** Buttons to move an item of a list up or down or take it away. */
export function ItemTools({ index, count, name, onMove, onRemove }: { index: number; count: number; name: string; onMove: (to: number) => void; onRemove: () => void }) {
  return (
    <div className={styles.tools}>
      <button type="button" className="button" onClick={() => onMove(index - 1)} disabled={index === 0} aria-label={`Move ${name} up`}>
        Up
      </button>
      <button type="button" className="button" onClick={() => onMove(index + 1)} disabled={index === count - 1} aria-label={`Move ${name} down`}>
        Down
      </button>
      <button type="button" className="button" onClick={onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </div>
  );
}

export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** A group: repeated items of the same fields. */
export function GroupField({ path, label, model, value, onChange }: { path: string; label: string; model: FieldModel; value: unknown; onChange: (v: unknown) => void }) {
  const fields = Object.entries(model.config?.fields ?? {}).map(([id, m]) => ({ id, model: m }));
  const items = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  return <ItemList path={path} label={label} fields={fields} items={items} onChange={onChange} itemWord="item" />;
}

/** Repeated items (a group's, or a slice's), each with its fields and tools. */
export function ItemList({
  path,
  label,
  fields,
  items,
  onChange,
  itemWord,
  level = 3,
}: {
  path: string;
  label: string;
  fields: Field[];
  items: Record<string, unknown>[];
  onChange: (v: Record<string, unknown>[]) => void;
  itemWord: string;
  /** The heading level of the list's title (one below what contains it). */
  level?: 3 | 4 | 5;
}) {
  const { errors } = useEditorEnv();
  const headingId = useId();
  const Heading = `h${level}` as "h3" | "h4" | "h5";
  return (
    <section className={styles.group} aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.groupTitle}>
        {label}
      </Heading>
      {errorsAt(errors, path).length ? <p className={formStyles.error}>{errorsAt(errors, path).join(" ")}</p> : null}
      {items.length === 0 ? <p>None yet.</p> : null}
      <ol className={styles.items}>
        {items.map((item, i) => {
          const name = `${itemWord} ${i + 1}`;
          return (
            <li key={i} className={styles.item}>
              <p className={styles.itemName}>{name[0]!.toUpperCase() + name.slice(1)}</p>
              {fields.map((f) => (
                <FieldEditor key={f.id} path={`${path}.${i}.${f.id}`} field={f} value={item[f.id]} onChange={(v) => onChange(items.map((it, j) => (j === i ? { ...it, [f.id]: v } : it)))} />
              ))}
              <ItemTools index={i} count={items.length} name={name} onMove={(to) => onChange(moved(items, i, to))} onRemove={() => onChange(items.filter((_, j) => j !== i))} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="button" onClick={() => onChange([...items, newItem(fields)])}>
        Add an item<span className="visually-hidden"> to {label.toLowerCase()}</span>
      </button>
    </section>
  );
}
