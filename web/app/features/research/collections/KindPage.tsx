// A page for one kind of collection (record sets, indexes, memorial cards,
// birth briefs): its collections, a search over them with a collection
// multi-select, and the results.
import type { ReactNode } from "react";
import { Breadcrumbs, type Crumb } from "../../../components/Breadcrumbs";
import { CollectionPage, HUB_TRAIL } from "./CollectionPage";
import { CollectionSearchForm, SearchProblem, SearchResults } from "./CollectionSearch";
import { CollectionList } from "./CollectionViews";
import type { Collection, SearchFields, SearchForm, SearchOutcome } from "./model";
import type { KindLoaderData } from "./pages.server";
import styles from "./collections.module.css";

export interface KindPageProps {
  title: string;
  intro: ReactNode;
  trail: Crumb[];
  /** The page's address (the form's action). */
  path: string;
  collections: Collection[];
  formHeading: string;
  fields: SearchFields | null;
  form: SearchForm;
  asked: boolean;
  outcome: SearchOutcome | null;
  /** The results' caption when the visitor asked for nothing (browsing). */
  browseCaption: string;
  advanced?: boolean;
}

export function KindPage(props: KindPageProps) {
  const { title, intro, trail, path, collections, formHeading, fields, form, asked, outcome, browseCaption, advanced } = props;
  const options = collections.map((c) => ({ value: c.slug, label: c.title, count: c.count }));
  return (
    <>
      <Breadcrumbs items={trail} />
      <h1>{title}</h1>
      <div className={styles.lead}>{intro}</div>
      <section aria-labelledby="kind-collections" className={styles.group}>
        <h2 id="kind-collections">{collections.length === 1 ? "The collection" : "The collections"}</h2>
        {collections.length === 0 ? <p>There are no collections of this kind yet.</p> : <CollectionList collections={collections} />}
      </section>
      {collections.length > 0 ? (
        <CollectionSearchForm
          action={path}
          id="kind-search"
          heading={formHeading}
          form={form}
          errors={outcome && !outcome.ok ? outcome.errors : undefined}
          fields={fields}
          collections={options}
          advanced={advanced}
        />
      ) : null}
      {outcome && !outcome.ok ? <SearchProblem message={outcome.message ?? ""} /> : null}
      {outcome?.ok ? (
        <SearchResults
          answer={outcome.body}
          showCollection={collections.length > 1}
          saveable={asked}
          caption={asked ? `${title}: records matching your search` : browseCaption}
        />
      ) : null}
    </>
  );
}

export interface KindRoutePageProps {
  loaderData: KindLoaderData;
  title: string;
  /** The kind's page address; a collection's page is under it. */
  path: string;
  intro: ReactNode;
  formHeading: string;
  browseCaption: string;
  advanced?: boolean;
}

/** The page of a kind's `…/:slug?` route (kindLoader's data): one collection or the kind's page. */
export function KindRoutePage({ loaderData, title, path, intro, formHeading, browseCaption, advanced }: KindRoutePageProps) {
  if (loaderData.kind === "collection") {
    const { detail, form, asked, outcome } = loaderData;
    return (
      <CollectionPage
        detail={detail}
        path={`${path}/${encodeURIComponent(detail.collection.slug)}`}
        trail={[...HUB_TRAIL, { to: path, label: title }]}
        form={form}
        asked={asked}
        outcome={outcome}
      />
    );
  }
  const { collections, form, asked, outcome } = loaderData;
  return (
    <KindPage
      title={title}
      intro={intro}
      trail={HUB_TRAIL}
      path={path}
      collections={collections}
      formHeading={formHeading}
      fields={null}
      form={form}
      asked={asked}
      outcome={outcome}
      browseCaption={browseCaption}
      advanced={advanced}
    />
  );
}
