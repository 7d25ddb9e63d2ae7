// The advanced search over every index (docs/research.md, /api/research/search): a
// plain GET form, so it works without JavaScript and its URL is the search. After
// hydration it counts what it would find as the visitor changes it ("See N results")
// and suggests places from the gazetteer.
import { useRef, type ReactNode } from "react";
import { Form, useNavigate } from "react-router";
import { titleWithAccess } from "../../../lib/access-level";
import { MultiSelect, type MultiSelectOption } from "../MultiSelect";
import { useLiveCount, usePlaceSuggestions } from "./live";
import { DEFAULT_SURNAME_MODE } from "../../../lib/vocabulary";
import {
  MAX_VALUES,
  RECORD_TYPES,
  RELATIVE_ROLES,
  ROLES,
  SEARCH_PATH,
  SORTS,
  SURNAME_MODE_OPTIONS,
  YEAR_TOLERANCES,
  pageParams,
  readQuery,
  searchUrl,
  resultsText,
  roleLabel,
  type SearchQuery,
} from "./query";
import type { CollectionSummary, Facet, Facets } from "./types";
import styles from "./search.module.css";

/** The fields the form shows, in order (the error summary links to them). */
export const FORM_FIELDS = [
  "surname",
  "surname_mode",
  "given",
  "year",
  "year_pm",
  "decade",
  "place",
  "relative",
  "relative_role",
  "role",
  "sort",
  "collection",
  "record_type",
] as const;

export function fieldId(name: string): string {
  return `search-${name.replace(/_/g, "-")}`;
}

type Errors = Record<string, string[] | undefined>;

/** A labelled control with its hint and error, tied together for assistive technology. */
function Shell({
  name,
  label,
  hint,
  errors,
  children,
  focus,
}: {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  errors: Errors;
  children: (aria: { id: string; "aria-describedby"?: string; "aria-invalid"?: true; autoFocus?: boolean }) => ReactNode;
  /** The page came back with this field's error first: focus it (works without JavaScript). */
  focus?: boolean;
}) {
  const id = fieldId(name);
  const messages = errors[name] ?? [];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={messages.length ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className={styles.error}>
          <span className="visually-hidden">Error: </span>
          {messages.join(" ")}
        </p>
      ) : null}
      {children({ id, "aria-describedby": describedBy, "aria-invalid": errorId ? true : undefined, autoFocus: focus || undefined })}
    </div>
  );
}

/** Options for a list filter: the facet's values with counts, plus any chosen value the facet lacks. */
export function facetOptions(facet: Facet[] | undefined, chosen: string[], labels: Record<string, string> = {}): MultiSelectOption[] {
  const out: MultiSelectOption[] = (facet ?? []).filter((f) => f.value !== "").map((f) => ({ value: f.value, label: f.label, count: f.count }));
  for (const value of chosen) if (!out.some((f) => f.value === value)) out.push({ value, label: labels[value] ?? value });
  return out;
}

/**
 * A list filter: the research hub's multi-select (checkboxes or a select without
 * JavaScript, the dropdown after hydration). Its error, when the API sent one, is
 * read out with the field's hint.
 */
function ListFilter({
  name,
  label,
  options,
  chosen,
  single,
  errors,
  onChange,
}: {
  name: string;
  label: string;
  options: MultiSelectOption[];
  chosen: string[];
  single?: boolean;
  errors: Errors;
  onChange: () => void;
}) {
  const messages = errors[name] ?? [];
  // A facet with nothing to offer (before a search, say) is left out.
  if (!options.length && !messages.length) return null;
  return (
    <div className={messages.length ? `${styles.field} ${styles.fieldError}` : styles.field}>
      <MultiSelect
        id={fieldId(name)}
        name={name}
        label={label}
        mode={single ? "single" : "multiple"}
        max={single ? undefined : MAX_VALUES}
        options={options}
        defaultValue={chosen}
        hint={messages.length ? `Error: ${messages.join(" ")}` : undefined}
        onChange={onChange}
      />
    </div>
  );
}

/** What the form shows of a collection: its filter's value and label. */
export type CollectionChoice = Pick<CollectionSummary, "slug" | "title" | "access">;

/**
 * The collections as the form needs them. The loader passes only these to the page:
 * loader data is serialised into the HTML of every results page, and the rest of a
 * collection (its description, kind, count, dates) is never drawn there.
 */
export function collectionChoices(collections: readonly CollectionSummary[]): CollectionChoice[] {
  return collections.map(({ slug, title, access }) => ({ slug, title, access }));
}

export interface SearchFormProps {
  query: SearchQuery;
  errors: Errors;
  facets: Facets | null;
  collections: CollectionChoice[];
  /** The total of the search shown, for the button before anything changes. */
  shown: { total: number; exact: boolean } | null;
}

export function SearchForm({ query, errors: pageErrors, facets, collections, shown }: SearchFormProps) {
  const { count, changed, onChange } = useLiveCount();
  const { places, onInput } = usePlaceSuggestions();
  const formRef = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const listChanged = () => {
    if (formRef.current) onChange(formRef.current);
  };
  const firstError = FORM_FIELDS.find((name) => pageErrors[name]?.length);
  // Once the visitor changes the form, the live count's errors replace the page's.
  const errors: Errors = changed ? (count.state === "invalid" ? count.errors.errors : count.state === "done" ? {} : pageErrors) : pageErrors;
  const collectionLabels = Object.fromEntries(collections.map((c) => [c.slug, c.title]));
  // Every record collection is offered (with its count in this search when there is one).
  const collectionOptions: MultiSelectOption[] = collections.map((c) => {
    const found = facets?.collection.find((f) => f.value === c.slug);
    return { value: c.slug, label: titleWithAccess(c.title, c.access), count: facets ? (found?.count ?? 0) : undefined };
  });
  for (const option of facetOptions(facets?.collection, query.collection, collectionLabels))
    if (!collectionOptions.some((o) => o.value === option.value)) collectionOptions.push(option);

  let button = "Search";
  let status = "";
  if (changed) {
    if (count.state === "done") button = status = `See ${resultsText(count.total, count.exact)}`;
    else if (count.state === "loading") status = "Counting…";
    else if (count.state === "invalid") status = "Check the fields marked with an error.";
  } else if (shown) {
    button = `See ${resultsText(shown.total, shown.exact)}`;
  }

  return (
    <Form
      method="get"
      action={SEARCH_PATH}
      className={styles.form}
      aria-labelledby="search-form-title"
      role="search"
      noValidate
      // Reset the fields when the URL's search changes (back button, facet links).
      key={pageParams({ ...query, after: "" }).toString()}
      ref={formRef}
      onChange={(event) => onChange(event.currentTarget)}
      onInput={(event) => onChange(event.currentTarget)}
      // With JavaScript, go to the search's tidy URL (no empty fields); without, the browser sends the form as it is.
      onSubmit={(event) => {
        event.preventDefault();
        const fields = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget)) if (typeof value === "string") fields.append(key, value);
        navigate(searchUrl(readQuery(fields)));
      }}
    >
      <h2 id="search-form-title">Search the indexes</h2>
      <fieldset className={styles.group}>
        <legend>Name</legend>
        <div className={styles.row}>
          <Shell name="surname" focus={firstError === "surname"} label="Surname" hint="Use * for any letters and ? for one letter." errors={errors}>
            {(aria) => (
              <input {...aria} name="surname" type="text" defaultValue={query.surname} maxLength={200} autoComplete="off" spellCheck={false} className={styles.input} />
            )}
          </Shell>
          <Shell name="surname_mode" focus={firstError === "surname_mode"} label="Spellings to find" errors={errors}>
            {(aria) => (
              <select {...aria} name="surname_mode" defaultValue={query.surname_mode || DEFAULT_SURNAME_MODE} className={styles.select}>
                {SURNAME_MODE_OPTIONS.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            )}
          </Shell>
          <Shell name="given" focus={firstError === "given"} label="Given names" hint="Initials and variants count: J finds John; William finds Wm." errors={errors}>
            {(aria) => (
              <input {...aria} name="given" type="text" defaultValue={query.given} maxLength={200} autoComplete="off" spellCheck={false} className={styles.input} />
            )}
          </Shell>
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>When and where</legend>
        <div className={styles.row}>
          <Shell name="year" focus={firstError === "year"} label="Year" errors={errors}>
            {(aria) => (
              <input {...aria} name="year" type="text" inputMode="numeric" defaultValue={query.year} maxLength={4} autoComplete="off" className={styles.input} />
            )}
          </Shell>
          <Shell name="year_pm" focus={firstError === "year_pm"} label="Give or take" errors={errors}>
            {(aria) => (
              <select {...aria} name="year_pm" defaultValue={query.year_pm || "0"} className={styles.select}>
                {YEAR_TOLERANCES.map((pm) => (
                  <option key={pm} value={pm}>
                    {pm === "0" ? "Exact year" : `± ${pm} year${pm === "1" ? "" : "s"}`}
                  </option>
                ))}
              </select>
            )}
          </Shell>
          <Shell name="place" focus={firstError === "place"} label="Place" hint="A parish, town, county or country. Suggestions appear as you type." errors={errors}>
            {(aria) => (
              <>
                <input
                  {...aria}
                  name="place"
                  type="text"
                  list="search-place-options"
                  defaultValue={query.place}
                  maxLength={200}
                  autoComplete="off"
                  className={styles.input}
                  onInput={(event) => onInput(event.currentTarget.value)}
                />
                <datalist id="search-place-options">
                  {places.map((p) => (
                    <option key={p.id} value={p.path} />
                  ))}
                </datalist>
              </>
            )}
          </Shell>
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>A relative in the same record</legend>
        <div className={styles.row}>
          <Shell name="relative" focus={firstError === "relative"} label="Relative's name" hint="For example William Smith, or one name." errors={errors}>
            {(aria) => (
              <input {...aria} name="relative" type="text" defaultValue={query.relative} maxLength={200} autoComplete="off" spellCheck={false} className={styles.input} />
            )}
          </Shell>
          <Shell name="relative_role" focus={firstError === "relative_role"} label="Who they were" errors={errors}>
            {(aria) => (
              <select {...aria} name="relative_role" defaultValue={query.relative_role || "any"} className={styles.select}>
                {RELATIVE_ROLES.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </select>
            )}
          </Shell>
          <Shell name="sort" focus={firstError === "sort"} label="Order results by" errors={errors}>
            {(aria) => (
              <select {...aria} name="sort" defaultValue={query.sort || "relevance"} className={styles.select}>
                {SORTS.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            )}
          </Shell>
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>Narrow the results</legend>
        <div className={styles.facets}>
          <ListFilter name="collection" label="Collection" options={collectionOptions} chosen={query.collection} errors={errors} onChange={listChanged} />
          <ListFilter
            name="record_type"
            label="Record type"
            options={
              facets
                ? facetOptions(facets.record_type, query.record_type)
                : facetOptions(
                    RECORD_TYPES.map((t) => ({ ...t, count: 0 })),
                    query.record_type,
                  ).map(({ value, label }) => ({ value, label }))
            }
            chosen={query.record_type}
            errors={errors}
            onChange={listChanged}
          />
          {query.year ? null : (
            <ListFilter
              name="decade"
              label="Decade"
              single
              options={facetOptions(facets?.decade, query.decade ? [query.decade] : [], { [query.decade]: `${query.decade}s` })}
              chosen={query.decade ? [query.decade] : []}
              errors={errors}
              onChange={listChanged}
            />
          )}
          {query.place ? null : (
            <ListFilter
              name="county"
              label="County"
              single
              options={facetOptions(facets?.county, query.county ? [query.county] : [])}
              chosen={query.county ? [query.county] : []}
              errors={query.county ? { county: errors.place } : {}}
              onChange={listChanged}
            />
          )}
          <ListFilter
            name="role"
            label="The person's role"
            options={ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
            chosen={query.role}
            errors={errors}
            onChange={listChanged}
          />
        </div>
      </fieldset>

      <div className={styles.actions}>
        <button type="submit" className="button button--primary">
          {button}
        </button>
        <span role="status" className={styles.count}>
          {status && status !== button ? status : <span className="visually-hidden">{status}</span>}
        </span>
      </div>
    </Form>
  );
}
