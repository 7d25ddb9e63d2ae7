// The enhanced dropdown of MultiSelect (MultiSelect.tsx), loaded after hydration as a
// chunk of its own: React Aria's combobox is most of the research pages' script.
import { type ComponentProps, type Ref, useContext, useEffect, useId, useMemo, useRef, useState } from "react";
import { Button, ComboBox, ComboBoxStateContext, Group, Input, type Key, Label, ListBox, ListBoxItem, Popover } from "react-aria-components";
import { DISPLAY_LIMIT, MAX_HEIGHT_PX, type MultiSelectOption, NO_RESULTS_TEXT, EMPTY_LIST_TEXT, atMax, filterOptions, maxText, optionText, overflowText, visibleTags, withChosen } from "./multiselect";
import { type DropdownProps, Hint } from "./MultiSelect";
import styles from "./MultiSelect.module.css";

/**
 * Whether the page has scrolled since the browser last reported a scroll: a scroll
 * event is still to come (the browser reports scrolls with the next frame).
 */
function useScrollUnreported(): () => boolean {
  const reported = useRef<[number, number] | null>(null);
  useEffect(() => {
    const note = () => {
      reported.current = [window.scrollX, window.scrollY];
    };
    note();
    window.addEventListener("scroll", note, { capture: true, passive: true });
    return () => window.removeEventListener("scroll", note, { capture: true });
  }, []);
  return () => reported.current !== null && (reported.current[0] !== window.scrollX || reported.current[1] !== window.scrollY);
}

/**
 * The dropdown's text box: typing, ↓ or ↑ open the list (not focus, so Tab passes through quietly); so does a click.
 *
 * React Aria closes an open list whenever an ancestor of the box scrolls
 * (useCloseOnScroll), and the browser reports a scroll only with the next frame. So a
 * ↓, ↑ or click that came before the report of a scroll that had already happened —
 * the focus that scrolled the box into view, a page scrolled just before the click, on
 * a quick keyboard or a busy page — opened the list, and the late scroll event shut it
 * again at once: the "first key press ignored" now and then. When the box was focused
 * in this frame or a page scroll is still unreported, the list opens in the next
 * frame's animation callback, which runs after that frame's scroll events.
 */
function OpeningInput(props: ComponentProps<typeof Input> & { ref?: Ref<HTMLInputElement> }) {
  const state = useContext(ComboBoxStateContext);
  const focusedThisFrame = useRef(false);
  const scrollUnreported = useScrollUnreported();
  const openList = (input: HTMLInputElement, strategy: "first" | "last" | null) => {
    if (!state) return;
    if (!focusedThisFrame.current && !scrollUnreported()) {
      state.open(strategy, "manual");
      return;
    }
    requestAnimationFrame(() => {
      if (!state.isOpen && input.ownerDocument.activeElement === input) state.open(strategy, "manual");
    });
  };
  return (
    <Input
      {...props}
      onFocus={(e) => {
        props.onFocus?.(e);
        focusedThisFrame.current = true;
        requestAnimationFrame(() => {
          focusedThisFrame.current = false;
        });
      }}
      onKeyDownCapture={(e) => {
        props.onKeyDownCapture?.(e);
        if (!state || state.isOpen || (e.key !== "ArrowDown" && e.key !== "ArrowUp")) return;
        // React Aria's own ↓/↑ (which would open the list at once) is not reached.
        e.stopPropagation();
        openList(e.currentTarget, e.key === "ArrowDown" ? "first" : "last");
      }}
      onClick={(e) => {
        props.onClick?.(e);
        if (state && !state.isOpen) openList(e.currentTarget, null);
      }}
    />
  );
}

export default function Dropdown({
  name,
  label,
  options,
  mode = "multiple",
  max,
  defaultValue = [],
  onChange,
  hint,
  placeholder,
  displayLimit = DISPLAY_LIMIT,
  id,
  focusOnMount = false,
}: DropdownProps) {
  const autoId = useId();
  const baseId = id ?? `ms-${autoId}`;
  const hintId = `${baseId}-hint`;
  const [selected, setSelected] = useState<string[]>(() => {
    const initial = [...new Set(defaultValue)];
    return mode === "single" ? initial.slice(0, 1) : max && max > 0 ? initial.slice(0, max) : initial;
  });
  const [query, setQuery] = useState(() => (mode === "single" ? (options.find((o) => o.value === defaultValue[0])?.label ?? "") : ""));
  const [open, setOpen] = useState(false);
  // data-enhanced marks the dropdown ready: set by an effect of its own, which runs after
  // React Aria's (children's effects run first), so its collection is built by then.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const inputRef = useRef<HTMLInputElement>(null);
  // The dropdown replaced a fallback that had the focus (set once, when it mounts).
  useEffect(() => {
    if (focusOnMount) inputRef.current?.focus();
  }, [focusOnMount]);

  const all = useMemo(() => withChosen(options, selected), [options, selected]);
  const byValue = useMemo(() => new Map(all.map((o) => [o.value, o])), [all]);
  // Single mode shows the chosen label in the box: list everything until the visitor types.
  const chosenLabel = mode === "single" && selected[0] !== undefined ? byValue.get(selected[0])?.label : undefined;
  const items = useMemo(() => filterOptions(all, query === chosenLabel ? "" : query), [all, query, chosenLabel]);
  const full = mode === "multiple" && atMax(selected, max);
  const disabledKeys = full ? all.filter((o) => !selected.includes(o.value)).map((o) => o.value) : [];
  const hasHint = Boolean(hint) || (mode === "multiple" && max !== undefined && max > 0);

  const update = (next: string[]) => {
    setSelected(next);
    onChange?.(next);
  };
  const remove = (value: string) => {
    update(selected.filter((v) => v !== value));
    inputRef.current?.focus();
  };

  const { shown, more } = visibleTags(selected, displayLimit);
  const emptyState = () => <span className="multiselect__message">{all.length === 0 ? EMPTY_LIST_TEXT : NO_RESULTS_TEXT}</span>;
  const listBox = (
    <ListBox<MultiSelectOption>
      className={`multiselect__content ${styles.list}`}
      style={{ maxHeight: MAX_HEIGHT_PX }}
      renderEmptyState={emptyState}
    >
      {(item) => (
        <ListBoxItem
          id={item.value}
          textValue={item.label}
          className={({ isFocused, isSelected, isDisabled }) =>
            [
              "multiselect__option",
              isFocused ? "multiselect__option--highlight" : "",
              isSelected ? "multiselect__option--selected" : "",
              isDisabled ? "multiselect__option--disabled" : "",
            ]
              .filter(Boolean)
              .join(" ")
          }
        >
          {optionText(item)}
        </ListBoxItem>
      )}
    </ListBox>
  );
  const popover = (
    <Popover className={`multiselect__content-wrapper ${styles.popover}`} offset={4}>
      {full && max ? <span className="multiselect__limit">{maxText(max)}</span> : null}
      {listBox}
    </Popover>
  );

  const className = `multiselect ${styles.dropdown}${open ? " multiselect--active" : ""}`;
  const describedBy = hasHint ? hintId : undefined;

  if (mode === "single") {
    return (
      <div className={className} data-multiselect={name} data-enhanced={ready ? "" : undefined}>
        <ComboBox<MultiSelectOption>
          items={items}
          value={selected[0] ?? null}
          onChange={(key: Key | null) => {
            update(key === null ? [] : [String(key)]);
            setQuery(key === null ? "" : (byValue.get(String(key))?.label ?? String(key)));
          }}
          inputValue={query}
          onInputChange={(text) => {
            setQuery(text);
            if (text === "" && selected.length > 0) update([]);
          }}
          onOpenChange={setOpen}
          menuTrigger="input"
          allowsEmptyCollection
          aria-describedby={describedBy}
        >
          <Label className="multiselect__label">{label}</Label>
          <Hint id={hintId} hint={hint} max={max} mode={mode} />
          <Group className={`multiselect__tags ${styles.tags}`}>
            <OpeningInput id={baseId} ref={inputRef} className="multiselect__input" placeholder={placeholder ?? "Any"} />
            <Button className="multiselect__select" aria-label={`Show ${label.toLowerCase()} options`} />
          </Group>
          {popover}
        </ComboBox>
        {selected[0] !== undefined ? <input type="hidden" name={name} value={selected[0]} /> : null}
      </div>
    );
  }

  return (
    <div className={className} data-multiselect={name} data-enhanced={ready ? "" : undefined}>
      <ComboBox<MultiSelectOption, "multiple">
        selectionMode="multiple"
        items={items}
        value={selected}
        onChange={(keys: Key[]) => {
          const next = keys.map(String);
          // The list may hold only some options (filtered); keep the order of choice.
          const kept = selected.filter((v) => next.includes(v));
          const added = next.filter((v) => !selected.includes(v));
          const merged = [...kept, ...added];
          update(max && max > 0 ? merged.slice(0, max) : merged);
          // As in vue-multiselect: a choice clears the search text.
          setQuery("");
        }}
        disabledKeys={disabledKeys}
        inputValue={query}
        onInputChange={setQuery}
        onOpenChange={(isOpen) => {
          setOpen(isOpen);
          if (!isOpen) setQuery("");
        }}
        menuTrigger="input"
        allowsEmptyCollection
        aria-describedby={describedBy}
      >
        <Label className="multiselect__label">{label}</Label>
        <Hint id={hintId} hint={hint} max={max} mode={mode} />
        <Group className={`multiselect__tags ${styles.tags}`}>
          {shown.length > 0 ? (
            <ul className={styles.tagList} aria-label={`Chosen: ${label}`}>
              {shown.map((value) => {
                const text = byValue.get(value)?.label ?? value;
                return (
                  <li key={value} className="multiselect__tag">
                    {text}
                    <button type="button" className="multiselect__tag-icon" aria-label={`Remove ${text}`} onClick={() => remove(value)}>
                      ×
                    </button>
                  </li>
                );
              })}
              {more > 0 ? <li className="multiselect__strong">{overflowText(more)}</li> : null}
            </ul>
          ) : null}
          <OpeningInput
            id={baseId}
            ref={inputRef}
            className="multiselect__input"
            placeholder={selected.length === 0 ? (placeholder ?? "Any") : undefined}
            onKeyDown={(e) => {
              if (e.key === "Backspace" && query === "" && selected.length > 0) {
                update(selected.slice(0, -1));
              }
            }}
          />
          <Button className="multiselect__select" aria-label={`Show ${label.toLowerCase()} options`} />
        </Group>
        {popover}
      </ComboBox>
      {selected.map((value) => (
        <input key={value} type="hidden" name={name} value={value} />
      ))}
      <span className="visually-hidden" aria-live="polite">
        {full && max ? maxText(max) : ""}
      </span>
    </div>
  );
}
