// /research-hub/our-collections/pedigree-search — people across every published family
// tree by surname (any of the research search's matching modes), given names, place and
// period; lists the pedigrees (trees) they appear in, and the people, with links to
// their pages and to the trees.
import { Link } from "react-router";
import type { Route } from "./+types/trees-pedigree-search";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { recordSearch } from "../features/members/search-history.server";
import { SaveSearchForm } from "../features/members/SaveSearchForm";
import { pedigreeSearch } from "../features/trees/api.server";
import { plural } from "../features/trees/format";
import { offsetFrom, Pager, PeopleTable, SearchForm, searchValuesFrom } from "../features/trees/SearchParts";
import { PEDIGREE_SEARCH_PATH, TREES_PATH, treePath } from "../features/trees/slug";
import styles from "../features/trees/trees.module.css";
import type { AuthHandle } from "../features/auth/access";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

export const handle: AuthHandle = { auth: false };

const PAGE_SIZE = 20;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const values = searchValuesFrom(url.searchParams);
  const offset = offsetFrom(url.searchParams);
  const seo = pageSeo({ request, url }, { title: "Pedigree search", description: "Find people and the family trees they appear in." });
  const asked = Boolean(values.surname || values.place || values.given || values.year);
  if (!asked) return { values, offset, answer: null, errors: {}, seo };
  const r = await pedigreeSearch(context, {
    surname: values.surname,
    surname_mode: values.surname_mode || undefined,
    given: values.given,
    place: values.place,
    year: values.year,
    year_pm: values.year ? values.year_pm || undefined : undefined,
    offset,
    limit: PAGE_SIZE,
  });
  if (!r.ok) {
    const errors = r.status === 422 ? r.errors : {};
    return { values, offset, answer: null, errors: Object.keys(errors).length ? errors : { surname: [r.message ?? "Check the search."] }, seo };
  }
  const summary = [values.surname, values.given, values.place, values.year].filter(Boolean).join(", ");
  await recordSearch(context, url.pathname + url.search, `${summary}, ${plural(r.body.total, "result")}`);
  return { values, offset, answer: r.body, errors: {}, seo };
}

export const meta: Route.MetaFunction = routeMeta;

export default function PedigreeSearch({ loaderData }: Route.ComponentProps) {
  const { values, offset, answer, errors } = loaderData;
  const params = new URLSearchParams();
  for (const k of ["surname", "surname_mode", "given", "place", "year", "year_pm"] as const) if (values[k]) params.set(k, values[k]!);
  const treeQuery = new URLSearchParams();
  if (values.surname) treeQuery.set("surname", values.surname);
  if (values.surname_mode) treeQuery.set("surname_mode", values.surname_mode);
  if (values.given) treeQuery.set("given", values.given);
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/research-hub/our-collections", label: "Our collections" }]} />
      <h1>Pedigree search</h1>
      <p className={styles.lead}>
        Find people in every one of the society’s <Link to={TREES_PATH}>family trees</Link> by surname, place and period, and see which
        pedigrees they appear in.
      </p>
      <SearchForm action={`${PEDIGREE_SEARCH_PATH}#results`} values={values} errors={errors} withPlace submitLabel="Search the family trees" label="Pedigree search" />
      {answer ? (
        <section aria-labelledby="results">
          <h2 id="results">Results</h2>
          {answer.total === 0 ? (
            <p role="status">Nobody in the family trees matches that search.</p>
          ) : (
            <>
              <h3>Pedigrees they appear in</h3>
              <ul className={styles.people}>
                {answer.trees.map((t) => (
                  <li key={t.slug}>
                    <Link to={treeQuery.size && values.surname ? `${treePath(t.slug)}?${treeQuery}#search-results` : treePath(t.slug)}>{t.title}</Link> —{" "}
                    {plural(t.matches, "match", "matches")}
                  </li>
                ))}
              </ul>
              <PeopleTable showTree caption={`${plural(answer.total, "person", "people")} found`} rows={answer.results} />
              <Pager path={PEDIGREE_SEARCH_PATH} params={params} offset={offset} limit={PAGE_SIZE} total={answer.total} label="Pages of results" />
              <SaveSearchForm suggestedName={[values.surname, values.place].filter(Boolean).join(", ")} />
            </>
          )}
        </section>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
