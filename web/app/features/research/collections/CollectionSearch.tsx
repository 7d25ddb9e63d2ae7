// The search form of a collection page (and of the memorial-card and
// birth-brief pages) and its results. A plain GET form: without JavaScript the
// browser submits it and the multi-selects are checkboxes; with JavaScript
// React Router navigates to the same address.
import { Form, Link, useLocation } from "react-router";
import { signInPath } from "../../auth";
import { JOIN_OR_RENEW, subscribePath } from "../../membership";
import { SaveSearchForm } from "../../members";
import { MultiSelect, type MultiSelectProps } from "../MultiSelect";
import {
  type Facet,
  MAX_CHOICES,
  MAX_COLLECTIONS,
  SORTS,
  SURNAME_MODE_OPTIONS,
  type SearchAnswer,
  type SearchFields,
  type SearchForm,
  YEAR_TOLERANCES,
  firstPageHref,
  keyPerson,
  nextPageHref,
  personName,
  recordPath,
  totalText,
} from "./model";
import styles from "./collections.module.css";
import { DEFAULT_SURNAME_MODE } from "../../../lib/vocabulary";
import { ErrorText } from "../../../components/forms/Forms";
import { TableHead } from "../../../components/TableHead";


export interface CollectionSearchFormProps {
  /** Where the form submits (the page itself). */
  action: string;
  /** Used for element ids and the heading's id. */
  id: string;
  heading: string;
  form: SearchForm;
  errors?: Record<string, string[]>;
  /** Which fields the page's record types imply; null: names, year and place only. */
  fields: SearchFields | null;
  recordTypes?: Facet[];
  /** The collections to choose from (pages covering several). */
  collections?: Facet[];
  counties?: Facet[];
  decades?: Facet[];
  /** Offer the surname's matching modes and the sort (record-set and index searches). */
  advanced?: boolean;
}

/** One filter of the form: a multi-select named `${formId}-${name}`, its errors above it. */
function Filter({ formId, errors, ...select }: Omit<MultiSelectProps, "id"> & { formId: string; errors?: string[] }) {
  return (
    <div className={styles.filter}>
      <ErrorText id={`${formId}-${select.name}-error`} errors={errors} className={styles.error} />
      <MultiSelect id={`${formId}-${select.name}`} {...select} />
    </div>
  );
}

function TextField({
  id,
  name,
  label,
  value,
  errors,
  hint,
  inputMode,
  width,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  errors?: Record<string, string[]>;
  hint?: string;
  inputMode?: "numeric" | "text";
  width?: "short";
}) {
  const fieldId = `${id}-${name}`;
  const messages = errors?.[name];
  const describedBy = [hint ? `${fieldId}-hint` : "", messages?.length ? `${fieldId}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`${styles.field}${width === "short" ? ` ${styles.short}` : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      {hint ? (
        <p id={`${fieldId}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${fieldId}-error`} errors={messages} className={styles.error} />
      <input
        id={fieldId}
        name={name}
        type="text"
        defaultValue={value}
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
        inputMode={inputMode}
        aria-describedby={describedBy}
        aria-invalid={messages?.length ? true : undefined}
      />
    </div>
  );
}

function SelectField({
  id,
  name,
  label,
  value,
  options,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  errors?: Record<string, string[]>;
}) {
  const fieldId = `${id}-${name}`;
  const messages = errors?.[name];
  return (
    <div className={styles.field}>
      <label htmlFor={fieldId}>{label}</label>
      <ErrorText id={`${fieldId}-error`} errors={messages} className={styles.error} />
      <select
        id={fieldId}
        name={name}
        defaultValue={value}
        aria-describedby={messages?.length ? `${fieldId}-error` : undefined}
        aria-invalid={messages?.length ? true : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CollectionSearchForm(props: CollectionSearchFormProps) {
  const { action, id, heading, form, errors, fields, recordTypes = [], collections, counties = [], decades = [], advanced } = props;
  // A key per query resets the uncontrolled fields when the address changes.
  const key = JSON.stringify({ ...form, after: "" });
  const allErrors = errors ?? {};
  const otherErrors = Object.entries(allErrors).filter(
    ([k]) => !["surname", "given", "year", "year_pm", "place", "relative", "decade", "record_type", "collection", "role"].includes(k),
  );
  return (
    <Form method="get" action={action} className={styles.searchForm} role="search" aria-labelledby={`${id}-title`} key={key}>
      <h2 id={`${id}-title`}>{heading}</h2>
      {otherErrors.length ? (
        <div className={styles.errorSummary} role="alert">
          {otherErrors.map(([k, m]) => (
            <p key={k}>{m.join(" ")}</p>
          ))}
        </div>
      ) : null}
      <div className={styles.fields}>
        <TextField id={id} name="surname" label="Surname" value={form.surname} errors={allErrors} hint={advanced ? "Use * and ? for any letters" : undefined} />
        {advanced ? (
          <SelectField
            id={id}
            name="surname_mode"
            label="Surname matching"
            value={form.surname_mode || DEFAULT_SURNAME_MODE}
            options={SURNAME_MODE_OPTIONS}
            errors={allErrors}
          />
        ) : null}
        <TextField id={id} name="given" label="Given names" value={form.given} errors={allErrors} />
        <TextField id={id} name="year" label="Year" value={form.year} errors={allErrors} inputMode="numeric" width="short" />
        <SelectField
          id={id}
          name="year_pm"
          label="Year, give or take"
          value={form.year_pm || (form.year ? "0" : "2")}
          options={YEAR_TOLERANCES.map((v) => ({ value: v, label: v === "0" ? "Exact year" : `± ${v} years` }))}
          errors={allErrors}
        />
        <TextField id={id} name="place" label="Place" value={form.place} errors={allErrors} hint="A parish, town, county or country" />
        {fields?.relative ? (
          <>
            <TextField id={id} name="relative" label={fields.relative.label} value={form.relative} errors={allErrors} />
            {fields.relative.roles.length > 1 ? (
              <SelectField
                id={id}
                name="relative_role"
                label="The relative is"
                value={form.relative_role || "any"}
                options={[{ value: "any", label: "Anyone in the record" }, ...fields.relative.roles]}
                errors={allErrors}
              />
            ) : fields.relative.roles.length === 1 ? (
              <input type="hidden" name="relative_role" value={fields.relative.roles[0].value} />
            ) : null}
          </>
        ) : null}
      </div>
      <div className={styles.filters}>
        {collections && collections.length > 0 ? (
          <Filter
            formId={id}
            errors={allErrors.collection}
            name="collection"
            label="Collections"
            options={collections}
            defaultValue={form.collection}
            max={MAX_COLLECTIONS}
            placeholder="All collections"
          />
        ) : null}
        {fields?.recordTypes && recordTypes.length > 1 ? (
          <Filter
            formId={id}
            errors={allErrors.record_type}
            name="record_type"
            label="Record types"
            options={recordTypes}
            defaultValue={form.record_type}
            max={MAX_CHOICES}
            placeholder="All record types"
          />
        ) : null}
        {fields && fields.roles.length > 1 ? (
          <Filter
            formId={id}
            errors={allErrors.role}
            name="role"
            label="The person found was"
            options={fields.roles}
            defaultValue={form.role}
            max={MAX_CHOICES}
            placeholder="Anyone in the record"
          />
        ) : null}
        {counties.length > 0 ? (
          <Filter
            formId={id}
            name="county"
            mode="single"
            label="County"
            hint="Used when no place is typed."
            options={counties.filter((c) => c.value !== "")}
            defaultValue={form.county ? [form.county] : []}
          />
        ) : null}
        {decades.length > 0 ? (
          <Filter
            formId={id}
            errors={allErrors.decade}
            name="decade"
            mode="single"
            label="Decade"
            hint="Used when no year is given."
            options={decades.filter((d) => d.value !== "")}
            defaultValue={form.decade ? [form.decade] : []}
          />
        ) : null}
        {advanced ? <SelectField id={id} name="sort" label="Sort by" value={form.sort || "relevance"} options={SORTS} errors={allErrors} /> : null}
      </div>
      <div className={styles.actions}>
        <button type="submit" className="button button--primary">
          Search
        </button>
        <Link to={action} className="button">
          Clear
        </Link>
      </div>
    </Form>
  );
}

/** The paywall's invitation, shown when results include members-only teasers. */
export function JoinInvitation({ returnTo }: { returnTo: string }) {
  return (
    <aside className={styles.invitation} aria-labelledby="join-invitation">
      <h2 id="join-invitation">Members see the whole record</h2>
      <p>
        Records marked “Members only” show the name, year and collection. Members of the society see every name, the date,
        the place, the transcript and the images.
      </p>
      <p className={styles.inlineActions}>
        <Link to={subscribePath(returnTo)} className="button button--primary">
          {JOIN_OR_RENEW}
        </Link>
        <Link to={signInPath(returnTo)}>Already a member? Sign in</Link>
      </p>
    </aside>
  );
}

export interface SearchResultsProps {
  answer: SearchAnswer;
  /** Show each record's collection (pages covering several collections). */
  showCollection: boolean;
  /** Offer "save this search" (the visitor asked for something). */
  saveable: boolean;
  caption: string;
}

export function SearchResults({ answer, showCollection, saveable, caption }: SearchResultsProps) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const here = location.pathname + location.search;
  const onLaterPage = search.has("after");
  const teasers = answer.results.some((r) => r.teaser);
  return (
    <section className={styles.results} aria-labelledby="results-title">
      <h2 id="results-title">
        {answer.total === 0 ? "No records found" : totalText(answer.total, answer.total_exact)}
      </h2>
      {answer.total === 0 ? <p>Try fewer details, a wider year range or another spelling.</p> : null}
      {answer.results.length > 0 ? (
        <div className={styles.tableWrap} role="region" aria-labelledby="results-caption" tabIndex={0}>
          <table className={styles.table}>
            <caption id="results-caption">{caption}</caption>
            <TableHead columns={["Name", "Record", "Date", "Place", ...(showCollection ? ["Collection"] : [])]} />
            <tbody>
              {answer.results.map((r) => {
                const person = keyPerson(r);
                const role = person?.role && person.role !== "principal" ? ` (${person.role.replace(/_/g, " ")})` : "";
                return (
                  <tr key={r.id}>
                    <th scope="row">
                      <Link to={recordPath(r.id)}>{personName(person)}</Link>
                      {role}
                      {r.teaser ? <span className={styles.badge}>Members only</span> : null}
                    </th>
                    <td>{r.record_type_label || r.record_type}</td>
                    <td>{r.date ?? (r.year !== null ? String(r.year) : "")}</td>
                    <td>{r.place ?? ""}</td>
                    {showCollection ? <td>{r.collection_title}</td> : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {answer.next || onLaterPage ? (
        <nav className={styles.paging} aria-label="Result pages">
          {onLaterPage ? (
            <Link to={firstPageHref(location.pathname, search)} className="button">
              <span aria-hidden="true">« </span>First page
            </Link>
          ) : null}
          {answer.next ? (
            <Link to={nextPageHref(location.pathname, search, answer.next)} rel="next" className="button">
              Next page<span aria-hidden="true"> »</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
      {teasers ? <JoinInvitation returnTo={here} /> : null}
      {saveable ? <SaveSearchForm /> : null}
    </section>
  );
}

/** The API refused the query: its message, and a way back to the first page. */
export function SearchProblem({ message }: { message: string }) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  return (
    <div className={styles.errorSummary} role="alert">
      <h2>There is a problem</h2>
      <p>{message}</p>
      {search.has("after") ? (
        <p>
          <Link to={firstPageHref(location.pathname, search)}>Run the search again from the first page</Link>
        </p>
      ) : null}
    </div>
  );
}
