// The global search's answer (/api/search?q=): four tables — archive, family trees,
// index and library — each with its total and, where there is more, "see all".
import type { ReactNode } from "react";
import { Link } from "react-router";
import { RESULT_COLUMNS, ResultsTable } from "./ResultsTable";
import { resultsText, seeAllUrl } from "./query";
import type { CatalogueItem, GlobalAnswer, GlobalGroup, GlobalReading, TreeHit } from "./types";
import styles from "./search.module.css";
import { TableHead } from "../../../components/TableHead";

const PEDIGREE_SEARCH_PATH = "/research-hub/our-collections/pedigree-search";

/** "11 Jun 1908, Rochdale, Lancashire" from a tree person's birth or death; "—" without. */
function lifeEvent(event: TreeHit["person"]["birth"]): string {
  const parts = [event?.date?.text, event?.place].filter(Boolean);
  return parts.length ? parts.join(", ") : "—";
}

function collectionPath(slug: string): string {
  return `/research-hub/our-collections/${encodeURIComponent(slug)}`;
}

function GroupTable({ id, caption, columns, empty, rows }: { id: string; caption: string; columns: readonly string[]; empty: string; rows: ReactNode[][] }) {
  return (
    <div className={styles.tableWrap} role="region" aria-labelledby={`${id}-caption`} tabIndex={0} id={id}>
      <table className={styles.table}>
        <caption id={`${id}-caption`}>{caption}</caption>
        <TableHead columns={columns} />
        <tbody>
          {rows.length ? (
            rows.map((cells, i) => (
              <tr key={i}>
                {cells.map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function Heading({ id, title, group }: { id: string; title: string; group: GlobalGroup<unknown> }) {
  return (
    <h2 id={id} className={styles.groupHeading}>
      {title} <span className={styles.role}>({resultsText(group.total, group.total_exact)})</span>
    </h2>
  );
}

/** "See all N in …": a group's whole search on its own page, when the group found any. */
function SeeAll({ group, to, where }: { group: GlobalGroup<unknown>; to: string; where: string }) {
  if (!group.search || group.total <= 0) return null;
  return (
    <p>
      <Link to={to} className="button">
        See all {resultsText(group.total, group.total_exact)} in {where}
      </Link>
    </p>
  );
}

/** "See all" for a catalogue group: the collections its entries come from. */
function CatalogueLinks({ items, what }: { items: CatalogueItem[]; what: string }) {
  const slugs = [...new Set(items.map((i) => i.collection))];
  if (!slugs.length) return null;
  return (
    <p>
      {slugs.map((slug) => (
        <Link key={slug} to={collectionPath(slug)} className="button">
          See all of {what}
          <span className="visually-hidden"> ({slug})</span>
        </Link>
      ))}
    </p>
  );
}

/** "Showing Smith, John, 1850 ± 10 (nothing for Smith, John, 1850 ± 2)." */
export function readingText(reading: GlobalReading): string {
  return `Showing ${reading.text}${reading.asked ? ` (nothing for ${reading.asked})` : ""} in the index records and family trees.`;
}

export function GlobalResults({ answer }: { answer: GlobalAnswer }) {
  const { q, archive, family_trees: trees, index, library, reading } = answer;
  const quoted = `“${q}”`;
  // The index and the trees search the reading of q; the catalogues, q's words.
  const read = reading ? `“${reading.text}”` : quoted;
  const asked = reading ? { surname: reading.surname, given: reading.given, year: reading.year ? String(reading.year) : "", place: reading.place } : {};
  return (
    <div>
      {reading ? (
        <p className={styles.summary} id="global-reading">
          {readingText(reading)}
        </p>
      ) : null}
      <section aria-labelledby="global-archive">
        <Heading id="global-archive" title="Archive" group={archive} />
        <GroupTable
          id="global-archive-table"
          caption={`Archive catalogue entries matching ${quoted}`}
          columns={["Reference", "Title", "Date", "Level", "Description"]}
          empty={`No archive entries match ${quoted}.`}
          rows={archive.results.map((i) => [i.reference ?? "", i.title, i.date || "—", i.level ?? "", i.description || "—"])}
        />
        {archive.total > archive.results.length ? <CatalogueLinks items={archive.results} what="the archive" /> : null}
      </section>

      <section aria-labelledby="global-family-trees">
        <Heading id="global-family-trees" title="Family trees" group={trees} />
        <GroupTable
          id="global-family-trees-table"
          caption={`People in family trees matching ${read}`}
          columns={["Name", "Born", "Died", "Tree"]}
          empty={`No one in the society's family trees matches ${read}.`}
          rows={trees.results.map((hit) => [
            <Link key="name" to={hit.url}>
              {hit.person.name || "(no name recorded)"}
            </Link>,
            lifeEvent(hit.person.birth),
            lifeEvent(hit.person.death),
            hit.tree.title,
          ])}
        />
        <SeeAll group={trees} to={`${PEDIGREE_SEARCH_PATH}?${trees.search}`} where="the family trees" />
      </section>

      <section aria-labelledby="global-index">
        <Heading id="global-index" title="Index records" group={index} />
        {index.results.length ? (
          <ResultsTable results={index.results} caption={`Index records matching ${read}`} id="global-index-table" asked={asked} />
        ) : (
          <GroupTable id="global-index-empty" caption={`Index records matching ${read}`} columns={RESULT_COLUMNS} empty={`No index records match ${read}.`} rows={[]} />
        )}
        <SeeAll group={index} to={seeAllUrl(index.search)} where="the indexes" />
      </section>

      <section aria-labelledby="global-library">
        <Heading id="global-library" title="Library" group={library} />
        <GroupTable
          id="global-library-table"
          caption={`Library catalogue entries matching ${quoted}`}
          columns={["Title", "Authors", "Year", "Publisher", "Shelfmark"]}
          empty={`No library books or journals match ${quoted}.`}
          rows={library.results.map((i) => [i.title, i.authors || "—", i.year ?? "—", i.publisher || "—", i.shelfmark || "—"])}
        />
        {library.total > library.results.length ? <CatalogueLinks items={library.results} what="the library" /> : null}
      </section>
    </div>
  );
}
