import { type ComponentType, type Ref, useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
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
 * chunk of its own, fetched after hydration when the first multi-select comes within a
 * screen of the visible part of the page (`watchNearView`): the page's first paint and
 * hydration do not wait for it. Each fallback stays until then, and gives way once, in a
 * task of its own (`inTurn`), keeping what the visitor had chosen in it and the focus; if
 * the code cannot be fetched the fallback stays, and the form still works
 * (docs/decisions/023-light-front-end.md).
 */
export function MultiSelect(props: MultiSelectProps) {
  const [dropdown, setDropdown] = useState<{ Dropdown: ComponentType<DropdownProps>; chosen: string[]; focus: boolean } | null>(null);
  const fallback = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = fallback.current;
    if (!el) return;
    let mounted = true;
    const swap = () => {
      stop();
      loadDropdown().then(
        (Dropdown) =>
          inTurn(() => {
            if (!mounted || !el.isConnected) return;
            // What the visitor chose (or was typing in) before the swap carries over.
            const chosen = chosenIn(el, props.mode ?? "multiple");
            const focus = el.contains(el.ownerDocument.activeElement);
            flushSync(() => setDropdown({ Dropdown, chosen, focus }));
          }),
        () => {},
      );
    };
    const stop = watchNearView(el, swap);
    return () => {
      mounted = false;
      stop();
    };
  }, [props.mode]);
  if (dropdown) {
    const { Dropdown, chosen, focus } = dropdown;
    return <Dropdown {...props} defaultValue={chosen} focusOnMount={focus} />;
  }
  return <Fallback {...props} rootRef={fallback} />;
}

/** The props of the enhanced dropdown: the multi-select's, and whether to take the focus. */
export type DropdownProps = MultiSelectProps & {
  /** The fallback had the focus when the dropdown replaced it: its text box takes it. */
  focusOnMount?: boolean;
};

let dropdownCode: Promise<ComponentType<DropdownProps>> | null = null;

/** The dropdown's chunk, fetched once for every multi-select of the page. */
function loadDropdown(): Promise<ComponentType<DropdownProps>> {
  dropdownCode ??= import("./MultiSelectDropdown").then((m) => m.default);
  return dropdownCode;
}

/**
 * Calls `near` once, when `el` comes within a screen's height of the visible part of the
 * page (at once if it is there already, or if the browser cannot tell); returns a
 * function that stops watching.
 *
 * The research forms put their list filters below the text fields, a screen or more down
 * on a phone. A dropdown (React Aria's combobox) costs about 25 ms of main thread to put
 * in on a fast computer, four times that on a phone: swapped in right after hydration,
 * the research results page's four or five dropdowns were long tasks while a visitor may
 * already be typing a name (Lighthouse's blocking time, docs/web.md, "A light front end").
 * Swapped in as they come near, they are ready before the visitor reaches them, and a
 * visitor who only types a name never pays for them.
 */
function watchNearView(el: Element, near: () => void): () => void {
  if (typeof IntersectionObserver === "undefined") {
    queueMicrotask(near);
    return () => {};
  }
  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && near(), { rootMargin: "100% 0px" });
  observer.observe(el);
  return () => observer.disconnect();
}

/** The values chosen in a fallback (its checkboxes, or its select) as the page shows them now. */
function chosenIn(el: Element, mode: "single" | "multiple"): string[] {
  if (mode === "single") {
    const value = el.querySelector("select")?.value ?? "";
    return value ? [value] : [];
  }
  return [...el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].filter((box) => box.checked).map((box) => box.value);
}

let turns: Promise<void> = Promise.resolve();

/**
 * Runs `swap` in a task of its own, after every swap asked for before it. Dropdowns that
 * come near together (a wide screen shows several) were one render and commit, even in a
 * transition (React commits a transition's whole tree at once): one task of 0.5 s at
 * Lighthouse's 4× slower CPU. One at a time, each in its own task with the browser free
 * between them (to paint, to answer a key or a click), none blocks for long.
 */
function inTurn(swap: () => void): void {
  turns = turns.then(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          try {
            swap();
          } finally {
            resolve();
          }
        }, 0),
      ),
  );
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

function Fallback({ name, label, options, mode = "multiple", max, defaultValue = [], hint, id, rootRef }: MultiSelectProps & { rootRef: Ref<HTMLElement> }) {
  const autoId = useId();
  const baseId = id ?? `ms-${autoId}`;
  const hintId = `${baseId}-hint`;
  const all = withChosen(options, defaultValue);
  const hasHint = Boolean(hint) || (mode === "multiple" && max !== undefined && max > 0);
  if (mode === "single") {
    return (
      <div ref={rootRef as Ref<HTMLDivElement>} className={`multiselect ${styles.fallback}`} data-multiselect={name}>
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
    <fieldset
      ref={rootRef as Ref<HTMLFieldSetElement>}
      className={`multiselect ${styles.fallback}`}
      data-multiselect={name}
      aria-describedby={hasHint ? hintId : undefined}
    >
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

