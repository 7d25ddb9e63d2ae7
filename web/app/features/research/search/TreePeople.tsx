// "In family trees": the people of the society's family trees found by the records
// search's surname (and given names, place, year ±), after the records results. A plain
// server-rendered table of links, so it works without JavaScript.
import { Link } from "react-router";
import type { ApiResult } from "../../../lib/api-result";
import { resultsText } from "./query";
import { pedigreeSearchUrl, treePeopleRows } from "./tree-people";
import type { PedigreeSearchAnswer } from "../../trees";
import styles from "./search.module.css";
import { TableHead } from "../../../components/TableHead";

export type TreePeopleResult = { params: string; outcome: ApiResult<PedigreeSearchAnswer> };

export function TreePeople({ result }: { result: TreePeopleResult }) {
  const { outcome } = result;
  const seeAll = pedigreeSearchUrl(new URLSearchParams(result.params));
  return (
    <section aria-labelledby="tree-people-title" id="tree-people">
      <h2 id="tree-people-title" className={styles.groupHeading}>
        In family trees
        {outcome.ok ? <span className={styles.role}> ({resultsText(outcome.body.total, true)})</span> : null}
      </h2>
      {!outcome.ok ? (
        <p className={styles.error}>The family trees cannot be searched at the moment, so people in them are not shown.</p>
      ) : outcome.body.total === 0 ? (
        <>
          <p>No one in the society’s family trees matches this surname search.</p>
          <p>
            <Link to={seeAll}>Try other spellings or places in the pedigree search</Link>
          </p>
        </>
      ) : (
        <>
          <div className={styles.tableWrap} role="region" aria-labelledby="tree-people-caption" tabIndex={0}>
            <table className={styles.table} id="tree-people-table">
              <caption id="tree-people-caption">
                People in family trees{outcome.body.total > outcome.body.results.length ? ` (the first ${outcome.body.results.length})` : ""}
              </caption>
              <TableHead columns={["Name", "Born", "Died", "Family tree"]} />
              <tbody>
                {treePeopleRows(outcome.body).map((row) => (
                  <tr key={row.key}>
                    <td>
                      <Link to={row.href}>{row.name}</Link>
                    </td>
                    <td>{row.born}</td>
                    <td>{row.died}</td>
                    <td>
                      <Link to={row.treeHref}>{row.tree}</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            <Link to={seeAll} className="button">
              See all {resultsText(outcome.body.total, true)} in the pedigree search
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
