// /research-hub/our-collections/searchexplore: "Search and explore".
// Without `q`: the advanced search over every index (all of /api/research/search's
// parameters, facets as filters, keyset paging, the live "See N results"; for a surname,
// the family trees' people "In family trees" after the records). With `q`:
// the global search's four tables (archive, family trees, index, library).
// The URL is the state: every search is a GET, bookmarkable, and the back button works.
import { Form, Link } from "react-router";
import type { Route } from "./+types/research-searchexplore";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { recordSearch } from "../features/members/search-history.server";
import { SaveSearchForm } from "../features/members/SaveSearchForm";
import { GlobalResults } from "../features/research/search/GlobalResults";
import {
  SEARCH_PATH,
  describeQuery,
  hasAnyField,
  readGlobalQuery,
  readQuery,
  resultsText,
  searchUrl,
  withChanges,
} from "../features/research/search/query";
import { ResultsTable } from "../features/research/search/ResultsTable";
import { TreePeople } from "../features/research/search/TreePeople";
import { FORM_FIELDS, SearchForm, collectionChoices, fieldId } from "../features/research/search/SearchForm";
import styles from "../features/research/search/search.module.css";
import type { RouteHandle } from "../layouts/layouts";
import type { AuthHandle } from "../features/auth/access";
import { globalSearch, recordCollections, searchRecords, searchTrees } from "../features/research/search/api.server";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

// Public (features/auth/access.ts; the default is sign-in required).
export const handle: RouteHandle & AuthHandle = { layout: "wide", auth: false };

const TITLE = "Search and explore";
const UNAVAILABLE = "The search is not available at the moment. Please try again in a few minutes.";

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const description = "Search the society's indexes, library and archive for your ancestors.";
  const seoFor = (what: string) => pageSeo({ request, url }, { title: what ? `${what} – ${TITLE}` : TITLE, description });

  if (url.searchParams.has("q")) {
    const q = readGlobalQuery(url.searchParams);
    const seo = seoFor(q && `“${q}”`);
    if (!q) return { mode: "global" as const, seo, q, global: null, message: "Enter something to search for." };
    const outcome = await globalSearch(context, q);
    if (outcome.ok) {
      const { archive, family_trees, index, library } = outcome.body;
      const found = archive.total + family_trees.total + index.total + library.total;
      await recordSearch(context, `${url.pathname}?${new URLSearchParams({ q })}`, `${q}: ${found} found`);
      return { mode: "global" as const, seo, q, global: outcome.body, message: "" };
    }
    const message = outcome.status === 422 ? (outcome.message ?? "") : UNAVAILABLE;
    return { mode: "global" as const, seo, q, global: null, message };
  }

  const query = readQuery(url.searchParams);
  const seo = seoFor(describeQuery(query));
  const collections = recordCollections(context).then(collectionChoices);
  if (!hasAnyField(query)) {
    return { mode: "search" as const, seo, query, collections: await collections, answer: null, errors: {}, message: "", trees: null };
  }
  // The records and, for a surname search, the family trees' people, asked at once; the
  // trees' part never throws (a failure there is a notice, not a broken page).
  const [outcome, trees] = await Promise.all([searchRecords(context, query), searchTrees(context, query)]);
  if (outcome.ok) {
    // History keeps the search, not the page of it.
    if (!query.after) {
      const titles = Object.fromEntries((await collections).map((c) => [c.slug, c.title]));
      const summary = `${describeQuery(query, { collections: titles })}: ${resultsText(outcome.body.total, outcome.body.total_exact)}`;
      await recordSearch(context, searchUrl(query), summary);
    }
    return { mode: "search" as const, seo, query, collections: await collections, answer: outcome.body, errors: {}, message: "", trees };
  }
  const invalid = outcome.status === 422;
  const errors = invalid ? outcome.errors : {};
  const message = invalid ? (outcome.message ?? "") : UNAVAILABLE;
  // A search the records API refuses (a bad field) shows no trees either: fix the form first.
  return { mode: "search" as const, seo, query, collections: await collections, answer: null, errors, message, trees: invalid ? null : trees };
}

export const meta: Route.MetaFunction = routeMeta;

function GlobalSearchBox({ q, autoFocus }: { q: string; autoFocus?: boolean }) {
  return (
    <Form method="get" action={SEARCH_PATH} role="search" aria-labelledby="global-search-title" className={styles.surnameBox} key={q}>
      <h2 id="global-search-title" className={styles.surnameTitle}>
        Search everything
      </h2>
      <div className={styles.surnameFields}>
        <div className={styles.field}>
          <label htmlFor="global-q">Names, places, titles or words</label>
          <p className={styles.hint} id="global-q-hint">
            For example “John Smith 1850” or “parish registers”. Searches the indexes, family trees, the library and the archive.
          </p>
          <input id="global-q" name="q" type="search" defaultValue={q} maxLength={200} autoComplete="off" aria-describedby="global-q-hint" className={styles.input} autoFocus={autoFocus} />
        </div>
        <div className={styles.surnameSubmit}>
          <button type="submit" className="button button--primary">
            Search everything
          </button>
        </div>
      </div>
    </Form>
  );
}

/** Errors that belong to no field of the form: a stale page link, a search too broad. */
function PageErrors({ errors, message }: { errors: Record<string, string[]>; message: string }) {
  const shown = new Set<string>(FORM_FIELDS);
  const fieldMessages = Object.entries(errors).filter(([name]) => shown.has(name) || name === "county");
  const other = Object.entries(errors).filter(([name]) => !shown.has(name) && name !== "county");
  if (!message && !fieldMessages.length && !other.length) return null;
  return (
    <div className={styles.problem} role="alert" tabIndex={-1} data-error-summary="">
      <h2>There is a problem</h2>
      <ul>
        {fieldMessages.flatMap(([name, list]) =>
          list.map((m) => (
            <li key={`${name}:${m}`}>
              <a href={`#${fieldId(name)}`}>{m}</a>
            </li>
          )),
        )}
        {other.flatMap(([name, list]) => list.map((m) => <li key={`${name}:${m}`}>{m}</li>))}
        {!fieldMessages.length && !other.length && message ? <li>{message}</li> : null}
      </ul>
    </div>
  );
}

export default function SearchExplore({ loaderData }: Route.ComponentProps) {
  const crumbs = [
    { to: "/", label: "Home" },
    { to: "/research-hub/our-collections", label: "Our collections" },
  ];
  if (loaderData.mode === "global") {
    const { q, global, message } = loaderData;
    return (
      <div className="container">
        <Breadcrumbs items={crumbs} />
        <h1>{q ? `Search results for “${q}”` : TITLE}</h1>
        <GlobalSearchBox q={q} autoFocus={Boolean(message)} />
        {message ? (
          <p role="alert" className={styles.error}>
            {message}
          </p>
        ) : null}
        {global ? <GlobalResults answer={global} /> : null}
        {global ? <SaveSearchForm suggestedName={q} /> : null}
        <p>
          <Link to={SEARCH_PATH}>Advanced search of the indexes</Link>
        </p>
      </div>
    );
  }

  const { query, collections, answer, errors, message, trees } = loaderData;
  const firstPage = query.after ? searchUrl(withChanges(query, {})) : "";
  const nextPage = answer?.next ? searchUrl(withChanges(query, { after: answer.next })) : "";
  const suggestedName = describeQuery(query, { collections: Object.fromEntries(collections.map((c) => [c.slug, c.title])) });
  return (
    <div className="container">
      <Breadcrumbs items={crumbs} />
      <h1>{TITLE}</h1>
      <GlobalSearchBox q="" />
      <PageErrors errors={errors} message={message} />
      <SearchForm
        query={query}
        errors={errors}
        facets={answer?.facets ?? null}
        collections={collections}
        shown={answer ? { total: answer.total, exact: answer.total_exact } : null}
      />
      {answer ? (
        <section aria-labelledby="results-title">
          <h2 id="results-title">Results</h2>
          <p className={styles.summary} role="status">
            {answer.total ? (
              <>
                <strong>{resultsText(answer.total, answer.total_exact)}</strong>
                {suggestedName ? ` for ${suggestedName}` : ""}
                {query.after ? " (a later page)" : ""}
              </>
            ) : (
              "No records match this search. Try fewer filters, another spelling mode or a wider year range."
            )}
          </p>
          {answer.results.length ? <ResultsTable results={answer.results} caption="Records found" id="results-table" asked={query} /> : null}
          {firstPage || nextPage ? (
            <nav aria-label="Pages of results" className={styles.paging}>
              {firstPage ? (
                <Link to={firstPage} className="button">
                  First page
                </Link>
              ) : null}
              {nextPage ? (
                <Link to={nextPage} className="button button--primary">
                  Next page
                </Link>
              ) : null}
            </nav>
          ) : null}
          {query.after ? (
            <p>
              <Link to={firstPage}>Go to the first page to save this search</Link>
            </p>
          ) : (
            <SaveSearchForm suggestedName={suggestedName} />
          )}
        </section>
      ) : null}
      {trees ? <TreePeople result={trees} /> : null}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
