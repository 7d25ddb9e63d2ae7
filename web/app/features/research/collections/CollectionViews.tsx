// How collections read on the hub's pages: a list of collections, one
// collection's facts, and the catalogue of a library or archive.
import { Link, useLocation } from "react-router";
import {
  type CatalogueItem,
  type Collection,
  type CollectionDetail,
  collectionPath,
  countText,
  dateSpan,
  kindLabel,
} from "./model";
import { parseAccess } from "../../../lib/access-level";
import styles from "./collections.module.css";
import { TableHead } from "../../../components/TableHead";

export function AccessTag({ access }: { access: string }) {
  const level = parseAccess(access);
  return <span className={level.open ? styles.badgePublic : styles.badge}>{level.label}</span>;
}

/** Collections as a list of linked titles with their kind, count, access and description. */
export function CollectionList({ collections, headingLevel = 3, showKind = false }: { collections: readonly Collection[]; headingLevel?: 2 | 3; showKind?: boolean }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul role="list" className={styles.collectionList}>
      {collections.map((c) => (
        <li key={c.slug} className={styles.collectionCard}>
          <Heading className={styles.collectionTitle}>
            <Link to={collectionPath(c)}>{c.title}</Link>
          </Heading>
          <p className={styles.collectionMeta}>
            {showKind ? <span>{kindLabel(c.kind)} · </span> : null}
            <span data-count={c.count}>{countText(c)}</span> <AccessTag access={c.access} />
          </p>
          {c.description ? <p>{c.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** A collection's facts: kind, records, years, access and what record types it holds. */
export function CollectionFacts({ detail }: { detail: CollectionDetail }) {
  const c = detail.collection;
  const span = dateSpan(detail.year_from, detail.year_to);
  return (
    <dl className={styles.facts}>
      <div>
        <dt>Kind</dt>
        <dd>{kindLabel(c.kind)}</dd>
      </div>
      <div>
        <dt>Size</dt>
        <dd>{countText(c)}</dd>
      </div>
      {span ? (
        <div>
          <dt>Years</dt>
          <dd>{span}</dd>
        </div>
      ) : null}
      <div>
        <dt>Access</dt>
        <dd>{parseAccess(c.access).description}</dd>
      </div>
      {detail.record_types.length > 0 ? (
        <div>
          <dt>Records</dt>
          <dd>
            <ul role="list" className={styles.inlineList}>
              {detail.record_types.map((t) => (
                <li key={t.value}>
                  {t.label} ({t.count.toLocaleString("en-GB")})
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
      {detail.counties.filter((x) => x.value !== "").length > 0 ? (
        <div>
          <dt>Counties</dt>
          <dd>
            {detail.counties
              .filter((x) => x.value !== "")
              .slice(0, 12)
              .map((x) => x.label)
              .join(", ")}
            {detail.counties.filter((x) => x.value !== "").length > 12 ? " and others" : ""}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

function catalogueRow(kind: string, item: CatalogueItem) {
  if (kind === "archive") {
    return (
      <tr key={item.id}>
        <th scope="row">{item.reference}</th>
        <td>
          {item.title}
          {item.description ? <span className={styles.detail}>{item.description}</span> : null}
        </td>
        <td>{item.date ?? ""}</td>
        <td>{item.level ?? ""}</td>
        <td>{item.parent ?? ""}</td>
      </tr>
    );
  }
  return (
    <tr key={item.id}>
      <th scope="row">{item.title}</th>
      <td>{item.authors ?? ""}</td>
      <td>{item.year ?? ""}</td>
      <td>{item.publisher ?? ""}</td>
      <td>{item.subjects ?? ""}</td>
      <td>{item.shelfmark ?? ""}</td>
    </tr>
  );
}

/** A library's or archive's catalogue entries, 20 a page (`after` = the answer's `next`). */
export function CatalogueTable({ detail }: { detail: CollectionDetail }) {
  const location = useLocation();
  const kind = detail.collection.kind;
  const params = new URLSearchParams(location.search);
  const onLaterPage = params.has("after");
  const nextParams = new URLSearchParams(params);
  if (detail.next !== null && detail.next !== undefined) nextParams.set("after", String(detail.next));
  const heads =
    kind === "archive" ? ["Reference", "Title", "Date", "Level", "Part of"] : ["Title", "Authors", "Year", "Publisher", "Subjects", "Shelfmark"];
  return (
    <section aria-labelledby="catalogue-title" className={styles.results}>
      <h2 id="catalogue-title">Catalogue</h2>
      {detail.items.length === 0 ? (
        <p>The catalogue has no entries yet.</p>
      ) : (
        <div className={styles.tableWrap} role="region" aria-labelledby="catalogue-caption" tabIndex={0}>
          <table className={styles.table}>
            <caption id="catalogue-caption">Entries in {detail.collection.title}</caption>
            <TableHead columns={heads} />
            <tbody>{detail.items.map((item) => catalogueRow(kind, item))}</tbody>
          </table>
        </div>
      )}
      {detail.next !== null || onLaterPage ? (
        <nav className={styles.paging} aria-label="Catalogue pages">
          {onLaterPage ? (
            <Link to={location.pathname} className="button">
              <span aria-hidden="true">« </span>First page
            </Link>
          ) : null}
          {detail.next !== null ? (
            <Link to={`${location.pathname}?${nextParams}`} rel="next" className="button">
              Next page<span aria-hidden="true"> »</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
