// /research-hub/our-collections/:slug? — without a slug the collections
// overview (every collection, grouped by kind, with counts); with one, that
// collection's page. The kind routes (record-sets, indexes, memorial-cards,
// birth-briefs, searchexplore, records…) are static and outrank the slug.
import { Link } from "react-router";
import type { Route } from "./+types/research-collections";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { getCollection, listCollections, notFound } from "../features/research/collections/api.server";
import { CollectionPage, HUB_TRAIL } from "../features/research/collections/CollectionPage";
import { CollectionList } from "../features/research/collections/CollectionViews";
import {
  HUB_PATH,
  RESERVED_SLUGS,
  SEARCH_PATH,
  collectionPath,
  countText,
  groupByKind,
  isCatalogue,
  parseSearchForm,
} from "../features/research/collections/model";
import { scopedSearch } from "../features/research/collections/pages.server";
import { SurnameSearch } from "../features/research/search/SurnameSearch";
import styles from "../features/research/collections/collections.module.css";
import { routeMeta } from "../lib/seo";
import { pageSeo } from "../lib/site.server";
import type { AuthHandle } from "../features/auth/access";

// Public: anyone may read it (features/auth/access.ts; the default is sign-in required).
export const handle: AuthHandle = { auth: false };

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  if (params.slug !== undefined) {
    if (RESERVED_SLUGS.has(params.slug)) throw notFound();
    const detail = await getCollection(context, params.slug, { after: url.searchParams.get("after") ?? undefined });
    const c = detail.collection;
    const search = isCatalogue(c.kind)
      ? { form: parseSearchForm(new URLSearchParams()), asked: false, outcome: null }
      : await scopedSearch(context, url, [c.slug], true);
    const seo = pageSeo({ request, url }, { title: c.title, description: c.description || `${c.title}: ${countText(c)}.` });
    // Record collections have their kind's page too; that one is canonical.
    seo.url = new URL(collectionPath(c), seo.url).toString();
    return { kind: "collection" as const, detail, ...search, seo };
  }
  const collections = await listCollections(context);
  return {
    kind: "overview" as const,
    groups: groupByKind(collections),
    total: collections.reduce((n, c) => n + (isCatalogue(c.kind) ? 0 : c.count), 0),
    seo: pageSeo(
      { request, url },
      { title: "Our collections", description: "The society's record sets, indexes, memorial cards, birth briefs, library and archive." },
    ),
  };
}

export const meta: Route.MetaFunction = routeMeta;

export default function ResearchCollections({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "collection") {
    const { detail, form, asked, outcome } = loaderData;
    const path = `${HUB_PATH}/${encodeURIComponent(detail.collection.slug)}`;
    return (
      <CollectionPage
        detail={detail}
        path={path}
        trail={HUB_TRAIL}
        form={form}
        asked={asked}
        outcome={outcome}
      />
    );
  }
  const { groups, total } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }]} />
      <h1>Our collections</h1>
      <p className={styles.lead}>
        {total.toLocaleString("en-GB")} records transcribed and indexed by the society&rsquo;s volunteers, and the catalogues of
        its library and archive. Search every collection at once in <Link to={SEARCH_PATH}>search and explore</Link>, or
        choose a collection below.
      </p>
      <SurnameSearch idPrefix="collections-surname" title="Search every collection for an ancestor" />
      <nav aria-labelledby="collection-kinds" className={styles.group}>
        <h2 id="collection-kinds" className="visually-hidden">
          Kinds of collection
        </h2>
        <ul className={styles.kindNav} role="list">
          {groups.map((g) => (
            <li key={g.kind}>
              <a href={`#kind-${g.kind}`}>{g.heading}</a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.length === 0 ? <p>There are no collections yet.</p> : null}
      {groups.map((g) => (
        <section key={g.kind} id={`kind-${g.kind}`} aria-labelledby={`kind-${g.kind}-title`} className={styles.group}>
          <h2 id={`kind-${g.kind}-title`}>{g.heading}</h2>
          {g.intro ? <p>{g.intro}</p> : null}
          <CollectionList collections={g.collections} />
        </section>
      ))}
      <section id="more-research" aria-labelledby="more-research-title" className={styles.group}>
        <h2 id="more-research-title">Family trees and scans</h2>
        <ul role="list">
          <li>
            <Link to={`${HUB_PATH}/family-trees`}>Family trees</Link>: pedigrees researched by members, with a chart of
            each family.
          </li>
          <li>
            <Link to={`${HUB_PATH}/pedigree-search`}>Pedigree search</Link>: find an ancestor in every family tree at once.
          </li>
          <li>
            <Link to="/image-viewer">Image explorer</Link>: scans of the original registers, memorial cards and birth
            briefs.
          </li>
        </ul>
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
