// A table of index search results: the persons of each record with their roles (the
// matched person in bold), record type, date, place, collection and how well it matches
// what was asked, in words. Members-only records seen by visitors show what the teaser
// holds and say the rest is for members.
import type { CSSProperties } from "react";
import { Link } from "react-router";
import { matchLabel, personName, recordPath, roleLabel, type AskedFields } from "./query";
import type { SearchResult } from "./types";
import styles from "./search.module.css";
import { TableHead } from "../../../components/TableHead";

function Withheld() {
  return <span className={styles.withheld}>Members only</span>;
}

/** The results table's columns (an empty group of the global search shows the same head). */
export const RESULT_COLUMNS = ["Names", "Record", "Date", "Place", "Collection", "Match"] as const;

/** `asked`: the fields the search asked for, which the match column measures against. */
export function ResultsTable({ results, caption, id, asked }: { results: SearchResult[]; caption: string; id?: string; asked: AskedFields }) {
  const captionId = id ? `${id}-caption` : undefined;
  return (
    // A wide table scrolls sideways inside a focusable region on narrow screens.
    <div className={styles.tableWrap} role="region" aria-labelledby={captionId} tabIndex={0} id={id} style={{ "--rows": results.length } as CSSProperties}>
      <table className={styles.table}>
        <caption id={captionId}>{caption}</caption>
        <TableHead columns={RESULT_COLUMNS} />
        <tbody>
          {results.map((result) => {
            const key = result.persons[result.match] ?? result.persons[0];
            return (
              <tr key={result.id}>
                <td>
                  <ul className={styles.persons}>
                    {result.persons.map((person, i) => (
                      <li key={i} className={i === result.match ? styles.matched : undefined}>
                        {i === result.match ? (
                          <Link to={recordPath(result.id)}>{personName(person)}</Link>
                        ) : (
                          personName(person)
                        )}{" "}
                        <span className={styles.role}>({roleLabel(person.role)})</span>
                      </li>
                    ))}
                    {!key ? (
                      <li>
                        <Link to={recordPath(result.id)}>View the record</Link>
                      </li>
                    ) : null}
                  </ul>
                  {result.teaser ? <span className={styles.membersOnly}>Members only</span> : null}
                </td>
                <td>{result.record_type_label}</td>
                <td>{result.date === null ? result.year ?? <Withheld /> : result.date || "—"}</td>
                <td>{result.place === null ? <Withheld /> : result.place || "—"}</td>
                <td>{result.collection_title}</td>
                <td>{matchLabel(result.score, asked)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
