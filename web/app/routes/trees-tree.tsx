// /research-hub/our-collections/family-trees/:slug — one family tree: its summary and
// counts, the surname index, a person search within the tree, and the tree viewer.
// The viewer's person, chart and generations are in the query (?person=&chart=&
// generations=), the search's in ?surname=&surname_mode=&given=&offset=.
import { Link } from "react-router";
import type { Route } from "./+types/trees-tree";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { OnThisPage } from "../components/OnThisPage";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { firstPerson, getGraph, getSurnames, getTree, listPeople, notFound } from "../features/trees/api.server";
import { chartGraphFrom, plural } from "../features/trees/format";
import { offsetFrom, Pager, PeopleTable, SearchForm, searchValuesFrom } from "../features/trees/SearchParts";
import { TREES_PATH, treePath, validTreeSlug, viewerStateFrom } from "../features/trees/slug";
import { TreeViewer } from "../features/trees/TreeViewer";
import styles from "../features/trees/trees.module.css";
import type { AuthHandle } from "../features/auth/access";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";

export const handle: AuthHandle = { auth: false };

const PAGE_SIZE = 25;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const slug = params.slug;
  if (!validTreeSlug(slug)) throw notFound();
  const state = viewerStateFrom(url.searchParams);
  const values = searchValuesFrom(url.searchParams);
  const offset = offsetFrom(url.searchParams);
  const searching = Boolean(values.surname || values.given);

  const [tree, surnames, search, start] = await Promise.all([
    getTree(context, slug),
    getSurnames(context, slug),
    searching
      ? listPeople(context, slug, { surname: values.surname, surname_mode: values.surname_mode || undefined, given: values.given, offset, limit: PAGE_SIZE })
      : null,
    state.person ? state.person : firstPerson(context, slug),
  ]);
  if (!tree) throw notFound();
  // The API's generations count the steps from the person; the viewer's count rows, the person's own included.
  const graph = start ? await getGraph(context, slug, start, state.chart, Math.max(1, state.generations - 1)) : null;

  return {
    tree,
    surnames,
    state: { ...state, person: start },
    values,
    search: search ? (search.ok ? { page: search.body, errors: {} } : { page: null, errors: search.errors }) : null,
    offset,
    graph: graph ? chartGraphFrom(graph) : null,
    truncated: graph?.truncated ?? false,
    missingPerson: Boolean(state.person && !graph),
    seo: pageSeo({ request, url }, { title: tree.title, description: tree.description || null }),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function TreePage({ loaderData }: Route.ComponentProps) {
  const { tree, surnames, state, values, search, offset, graph, truncated, missingPerson } = loaderData;
  const path = treePath(tree.slug);
  const searchParams = new URLSearchParams();
  for (const k of ["surname", "surname_mode", "given"] as const) if (values[k]) searchParams.set(k, values[k]);
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/research-hub/our-collections", label: "Our collections" }, { to: TREES_PATH, label: "Family trees" }]} />
      <h1>{tree.title}</h1>
      {!tree.published ? <p className={styles.notice}>This tree is unpublished: only its owner and editors can see it until an editor publishes it.</p> : null}
      {tree.description ? <p className={styles.lead}>{tree.description}</p> : null}
      <ul className={styles.counts} aria-label="Size of this tree">
        <li>
          <strong>{plural(tree.counts.people, "person", "people")}</strong>
        </li>
        <li>
          <strong>{plural(tree.counts.families, "family", "families")}</strong>
        </li>
        <li>
          <strong>{plural(tree.counts.events, "event")}</strong>
        </li>
        <li>
          <strong>{plural(tree.counts.sources, "source")}</strong>
        </li>
      </ul>
      {tree.owner ? <p>Contributed by {tree.owner.name}.</p> : null}
      <OnThisPage
        links={[
          { href: "#search", label: "Find a person" },
          { href: "#surnames", label: "Surname index" },
          { href: "#viewer", label: "Tree viewer" },
        ]}
      />

      <section aria-labelledby="search" id="search-section">
        <h2 id="search">Find a person in this tree</h2>
        <SearchForm action={`${path}#search-results`} values={values} errors={search?.errors ?? {}} submitLabel="Search this tree" label="Find a person in this tree" />
        {search?.page ? (
          <div id="search-results">
            {search.page.results.length === 0 ? (
              <p role="status">Nobody in this tree matches that search.</p>
            ) : (
              <>
                <PeopleTable
                  showTree={false}
                  caption={`${plural(search.page.total, "person", "people")} found`}
                  rows={search.page.results.map((person) => ({ tree: { slug: tree.slug, title: tree.title }, person }))}
                />
                <Pager path={path} params={searchParams} offset={offset} limit={PAGE_SIZE} total={search.page.total} label="Pages of search results" />
              </>
            )}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="surnames">
        <h2 id="surnames">Surname index</h2>
        {surnames.length === 0 ? (
          <p>No surnames to list.</p>
        ) : (
          <ul className={styles.surnames}>
            {surnames.map((s) => (
              <li key={s.surname}>
                <Link to={`${path}?${new URLSearchParams({ surname: s.surname, surname_mode: "exact" })}#search-results`}>
                  {s.surname}
                  <span className={styles.years}> ({s.count.toLocaleString("en-GB")})</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {missingPerson ? <p className={styles.notice}>That person is not in this tree, or cannot be shown.</p> : null}
      {truncated ? <p className={styles.notice}>This chart is very large: only part of it is shown. Choose fewer generations to see it whole.</p> : null}
      <TreeViewer tree={tree.slug} graph={graph} state={state} />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
