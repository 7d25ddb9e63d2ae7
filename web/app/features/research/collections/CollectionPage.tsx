// One collection's page: a record collection (facts, a search form scoped to
// it and its records) or a catalogue (facts and entries).
import type { ReactNode } from "react";
import { Breadcrumbs, type Crumb } from "../../../components/Breadcrumbs";
import { SaveSearchForm } from "../../members";
import { CollectionSearchForm, SearchProblem, SearchResults } from "./CollectionSearch";
import { AccessTag, CatalogueTable, CollectionFacts } from "./CollectionViews";
import { type CollectionDetail, HUB_PATH, type SearchForm, type SearchOutcome, isCatalogue, searchFields } from "./model";
import styles from "./collections.module.css";

export const HUB_TRAIL: Crumb[] = [
  { to: "/", label: "Home" },
  { to: HUB_PATH, label: "Our collections" },
];

export interface CollectionPageProps {
  detail: CollectionDetail;
  /** The page's own address (the form's action). */
  path: string;
  trail: Crumb[];
  form: SearchForm;
  asked: boolean;
  outcome: SearchOutcome | null;
  /** Extra content under the facts. */
  children?: ReactNode;
}

export function CollectionPage({ detail, path, trail, form, asked, outcome, children }: CollectionPageProps) {
  const c = detail.collection;
  const catalogue = isCatalogue(c.kind);
  const types = detail.record_types.map((t) => t.value);
  return (
    <>
      <Breadcrumbs items={trail} />
      <h1>{c.title}</h1>
      <p className={styles.lead}>
        {c.description || "A collection of the society."} <AccessTag access={c.access} />
      </p>
      <CollectionFacts detail={detail} />
      {children}
      {catalogue ? (
        <>
          <CatalogueTable detail={detail} />
          <section aria-labelledby="follow-catalogue">
            <h2 id="follow-catalogue">Follow this catalogue</h2>
            <p>
              Save it with your searches, then choose an email alert for it on your account page: we will tell you when new
              entries are added.
            </p>
            <SaveSearchForm suggestedName={c.title} />
          </section>
        </>
      ) : (
        <>
          <CollectionSearchForm
            action={path}
            id="collection-search"
            heading={`Search ${c.title}`}
            form={form}
            errors={outcome && !outcome.ok ? outcome.errors : undefined}
            fields={searchFields(types)}
            recordTypes={detail.record_types}
            counties={detail.counties}
            decades={detail.decades}
            advanced
          />
          {outcome && !outcome.ok ? <SearchProblem message={outcome.message ?? ""} /> : null}
          {outcome?.ok ? (
            <SearchResults
              answer={outcome.body}
              showCollection={false}
              saveable={asked}
              caption={asked ? `Records in ${c.title} matching your search` : `Records in ${c.title}, by date`}
            />
          ) : null}
        </>
      )}
    </>
  );
}
