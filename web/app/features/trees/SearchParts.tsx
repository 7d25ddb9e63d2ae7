// Pieces shared by the tree page's person search and the pedigree search: the form
// (a plain GET form, so it works without JavaScript), the results table and the pager.
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { dateText, summaryYears } from "./format";
import { personPath, treePath, viewerHref } from "./slug";
import styles from "./trees.module.css";
import { SURNAME_MODE_OPTIONS, YEAR_RANGES, type EventSummary, type PersonSummary } from "./types";
import { DEFAULT_SURNAME_MODE } from "../../lib/vocabulary";
import { ErrorText } from "../../components/forms/Forms";
import { TableHead } from "../../components/TableHead";

export interface SearchValues {
  surname: string;
  given: string;
  surname_mode: string;
  place?: string;
  year?: string;
  year_pm?: string;
}

function TextField({ name, label, value, errors, hint }: { name: string; label: string; value?: string; errors?: string[]; hint?: string }) {
  const id = `search-${name}`;
  const described = [hint ? `${id}-hint` : "", errors?.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className={styles.hint}>
          {hint}
        </span>
      ) : null}
      <ErrorText id={`${id}-error`} errors={errors} className={styles.fieldError} />
      <input id={id} name={name} type="search" defaultValue={value ?? ""} aria-describedby={described} aria-invalid={errors?.length ? true : undefined} />
    </div>
  );
}

export function SearchForm({
  action,
  values,
  errors,
  withPlace = false,
  submitLabel,
  label,
}: {
  action: string;
  values: SearchValues;
  errors: Record<string, string[]>;
  withPlace?: boolean;
  submitLabel: string;
  label: string;
}) {
  return (
    <Form method="get" action={action} className={styles.searchForm} aria-label={label} key={JSON.stringify(values)}>
      <TextField name="surname" label="Surname" value={values.surname} errors={errors.surname} />
      <div>
        <label htmlFor="search-surname_mode">Surname matching</label>
        <ErrorText id="search-surname_mode-error" errors={errors.surname_mode} className={styles.fieldError} />
        <select id="search-surname_mode" name="surname_mode" defaultValue={values.surname_mode || DEFAULT_SURNAME_MODE}>
          {SURNAME_MODE_OPTIONS.map(({ value, label: text }) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <TextField name="given" label="Given names" value={values.given} errors={errors.given} />
      {withPlace ? (
        <>
          <TextField name="place" label="Place" value={values.place} errors={errors.place} />
          <TextField name="year" label="Year" value={values.year} errors={errors.year} />
          <div>
            <label htmlFor="search-year_pm">Give or take</label>
            <select id="search-year_pm" name="year_pm" defaultValue={values.year_pm || "0"}>
              {YEAR_RANGES.map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? "exact year" : `${n} year${n === 1 ? "" : "s"}`}
                </option>
              ))}
            </select>
          </div>
        </>
      ) : null}
      <button type="submit" className="button button--primary">
        {submitLabel}
      </button>
    </Form>
  );
}

function eventText(e: EventSummary | null | undefined): string {
  if (!e) return "";
  return [dateText(e.date?.text), e.place].filter(Boolean).join(", ");
}

/** People as a table: name (to the person's page), born, died, and a link to their chart. */
export function PeopleTable({
  rows,
  caption,
  showTree,
}: {
  rows: { tree: { slug: string; title: string }; person: PersonSummary }[];
  caption: ReactNode;
  showTree: boolean;
}) {
  return (
    <div className={styles.tableScroll} role="region" aria-label="Search results" tabIndex={0}>
      <table className={styles.results}>
        <caption>{caption}</caption>
        <TableHead columns={["Name", "Born", "Died", ...(showTree ? ["Family tree"] : []), "Chart"]} />
        <tbody>
          {rows.map(({ tree, person }) => (
            <tr key={`${tree.slug}~${person.id}`}>
              <td>
                <Link to={personPath(tree.slug, person.id)}>{person.name}</Link>
                {person.living ? null : <span className="visually-hidden"> {summaryYears(person)}</span>}
              </td>
              <td>{person.living ? "" : eventText(person.birth)}</td>
              <td>{person.living ? "" : eventText(person.death)}</td>
              {showTree ? (
                <td>
                  <Link to={treePath(tree.slug)}>{tree.title || tree.slug}</Link>
                </td>
              ) : null}
              <td>
                <Link to={viewerHref(tree.slug, { person: person.id, chart: "pedigree", generations: 4 })}>
                  Pedigree<span className="visually-hidden"> of {person.name}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and next links for offset paging, keeping the rest of the query. */
export function Pager({ path, params, offset, limit, total, label }: { path: string; params: URLSearchParams; offset: number; limit: number; total: number; label: string }) {
  if (total <= limit) return null;
  const href = (o: number) => {
    const q = new URLSearchParams(params);
    if (o > 0) q.set("offset", String(o));
    else q.delete("offset");
    return `${path}?${q.toString()}`;
  };
  return (
    <nav className="pagination" aria-label={label}>
      <ul role="list" className="pagination__list">
        <li>
          {offset > 0 ? (
            <Link to={href(Math.max(0, offset - limit))} rel="prev" className="button">
              Previous
            </Link>
          ) : null}
        </li>
        <li className="pagination__position">
          {offset + 1}–{Math.min(total, offset + limit)} of {total.toLocaleString("en-GB")}
        </li>
        <li>
          {offset + limit < total ? (
            <Link to={href(offset + limit)} rel="next" className="button">
              Next
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}

/** The search's values from a page's query. */
export function searchValuesFrom(params: URLSearchParams): SearchValues {
  const get = (k: string) => (params.get(k) ?? "").trim().slice(0, 100);
  return { surname: get("surname"), given: get("given"), surname_mode: get("surname_mode"), place: get("place"), year: get("year"), year_pm: get("year_pm") };
}

export function offsetFrom(params: URLSearchParams): number {
  const n = Number(params.get("offset") ?? 0);
  return Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 0;
}
