import { type ComponentType, startTransition, useEffect, useId, useState } from "react";
import { EMPTY_LIST_TEXT, MAX_HEIGHT_PX, type MultiSelectOption, optionText, withChosen } from "./multiselect";
import styles from "./MultiSelect.module.css";
import "../../styles/multiselect.css";

export type { MultiSelectOption } from "./multiselect";

export interface MultiSelectProps {
  /** The form field's name: every chosen value is submitted under it (repeated). */
  name: string;
  label: string;
  options: readonly MultiSelectOption[];
  /** `single` chooses one option (or none), `multiple` several. */
  mode?: "single" | "multiple";
  /** At most this many options may be chosen (multiple mode). */
  max?: number;
  /** The values chosen when the page loads (the request's parameters). */
  defaultValue?: readonly string[];
  /** Called with the chosen values after each change (enhanced dropdown only). */
  onChange?: (values: string[]) => void;
  /** Help text under the label. */
  hint?: string;
  placeholder?: string;
  /** Chosen options shown as tags before 'and N more' (seed-spec §9: 99999). */
  displayLimit?: number;
  /** The id of the dropdown's text box (a label elsewhere may point at it). */
  id?: string;
}

/**
 * The multi-select dropdown of the research hub's filters (seed-spec §4, §5,
 * §8, §9), on react-aria-components' ComboBox: type to narrow the list, arrow
 * keys to move, Enter to choose or unchoose, Escape to close, Backspace in the
 * empty box removes the last choice.
 *
 * The server renders a native fallback — checkboxes (multiple) or a select
 * (single) with the same name — so a plain GET form works without JavaScript
 * and submits repeated parameters; after hydration the dropdown replaces it
 * and submits the same parameters through hidden inputs. Without JavaScript
 * the maximum cannot be enforced in the browser: the loader keeps the first
 * `max` values (`valuesFromParams`).
 *
 * The dropdown's code (React Aria's combobox, listbox and popover: about 60 KB gzip) is a
 * chunk of its own, fetched after hydration: the page's first paint and hydration do not
 * wait for it. The fallback stays until it has come, then gives way once, as it did at
 * hydration; if it cannot be fetched the fallback stays, and the form still works
 * (docs/decisions/023-light-front-end.md).
 */
export function MultiSelect(props: MultiSelectProps) {
  const [Dropdown, setDropdown] = useState<ComponentType<MultiSelectProps> | null>(null);
  useEffect(() => {
    let mounted = true;
    import("./MultiSelectDropdown").then(
      // A transition: React renders the dropdowns (a search form has several) in slices
      // that leave the main thread free for the visitor, not in one long task.
      (m) => mounted && startTransition(() => setDropdown(() => m.default)),
      () => {},
    );
    return () => {
      mounted = false;
    };
  }, []);
  return Dropdown ? <Dropdown {...props} /> : <Fallback {...props} />;
}

export function Hint({ id, hint, max, mode }: { id: string; hint?: string; max?: number; mode: "single" | "multiple" }) {
  const limit = mode === "multiple" && max !== undefined && max > 0 ? `Choose up to ${max}.` : "";
  const text = [hint, limit].filter(Boolean).join(" ");
  return text ? (
    <p id={id} className={styles.hint}>
      {text}
    </p>
  ) : null;
}

function Fallback({ name, label, options, mode = "multiple", max, defaultValue = [], hint, id }: MultiSelectProps) {
  const autoId = useId();
  const baseId = id ?? `ms-${autoId}`;
  const hintId = `${baseId}-hint`;
  const all = withChosen(options, defaultValue);
  const hasHint = Boolean(hint) || (mode === "multiple" && max !== undefined && max > 0);
  if (mode === "single") {
    return (
      <div className={`multiselect ${styles.fallback}`} data-multiselect={name}>
        <label className="multiselect__label" htmlFor={baseId}>
          {label}
        </label>
        <Hint id={hintId} hint={hint} max={max} mode={mode} />
        <select id={baseId} name={name} defaultValue={defaultValue[0] ?? ""} aria-describedby={hasHint ? hintId : undefined} className={styles.select}>
          <option value="">Any</option>
          {all.map((o) => (
            <option key={o.value} value={o.value}>
              {optionText(o)}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <fieldset className={`multiselect ${styles.fallback}`} data-multiselect={name} aria-describedby={hasHint ? hintId : undefined}>
      <legend className="multiselect__label">{label}</legend>
      <Hint id={hintId} hint={hint} max={max} mode={mode} />
      {all.length === 0 ? (
        <p className="multiselect__message">{EMPTY_LIST_TEXT}</p>
      ) : (
        <div className={styles.choices} style={{ maxHeight: MAX_HEIGHT_PX }}>
          {all.map((o, i) => (
            <label key={o.value} className={styles.choice} htmlFor={`${baseId}-${i}`}>
              <input id={`${baseId}-${i}`} type="checkbox" name={name} value={o.value} defaultChecked={defaultValue.includes(o.value)} />
              {optionText(o)}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

