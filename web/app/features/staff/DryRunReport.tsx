// What a dry run found: how many records the file holds and what the import would do,
// the lines it would skip and why (by line number, as a spreadsheet shows them), notes
// about the file, and the first records as they would be read.
import type { DryRun } from "./types";
import { plural } from "./words";
import styles from "./staff.module.css";
import { TableHead } from "../../components/TableHead";

/** One count of the report: the number in bold, then what it counts. */
function Count({ n, what }: { n: number; what: string }) {
  return (
    <li>
      <strong>{n.toLocaleString("en-GB")}</strong>
      {` ${what}`}
    </li>
  );
}

export function DryRunReport({ report }: { report: DryRun }) {
  const warnings = report.warnings ?? [];
  const notes = report.notes ?? [];
  const sample = report.sample ?? [];
  return (
    <section aria-labelledby="dry-run" className={styles.report}>
      <h2 id="dry-run" tabIndex={-1}>
        What the import would do
      </h2>
      <p>
        Nothing has been imported yet.
        {report.new !== null && report.new !== undefined && !report.collection_exists ? " The collection is new: it will be made by the import." : ""}
      </p>
      <ul className={styles.counts}>
        <Count n={report.records} what="records in the file" />
        <Count n={report.good} what="ready to import" />
        <Count n={report.skipped} what="would be skipped" />
        {report.new !== null && report.new !== undefined ? <Count n={report.new} what="new to the collection" /> : null}
        {report.existing !== null && report.existing !== undefined ? <Count n={report.existing} what="already in it (changed where they differ)" /> : null}
      </ul>
      {warnings.length ? (
        <div className={styles.tableWrap} role="region" aria-labelledby="warnings-caption" tabIndex={0}>
          <table className={styles.table}>
            <caption id="warnings-caption">Problems by line ({plural(report.warning_count, "problem")})</caption>
            <TableHead columns={["Line", "Record", "Problem"]} />
            <tbody>
              {warnings.map((w, i) => (
                <tr key={`${w.line}-${i}`}>
                  <td>{w.line}</td>
                  <td>{w.record || "—"}</td>
                  <td>{w.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.warning_count > warnings.length ? <p>Only the first {warnings.length} problems are listed.</p> : null}
        </div>
      ) : (
        <p>No problems were found.</p>
      )}
      {notes.length ? (
        <details>
          <summary>{plural(notes.length, "note")} about the file</summary>
          <ul>
            {notes.map((n, i) => (
              <li key={`${n.line}-${i}`}>
                Line {n.line}: {n.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {sample.length ? (
        <div className={styles.tableWrap} role="region" aria-labelledby="sample-caption" tabIndex={0}>
          <table className={styles.table}>
            <caption id="sample-caption">The first {plural(sample.length, "record")} as they would be imported</caption>
            <TableHead columns={["Line", "Record", "Type", "Date", "Place", "People"]} />
            <tbody>
              {sample.map((r) => (
                <tr key={`${r.line}-${r.record_id}`}>
                  <td>{r.line}</td>
                  <td>{r.record_id}</td>
                  <td>{r.record_type}</td>
                  <td>{r.date}</td>
                  <td>{r.place}</td>
                  <td>
                    {(r.persons ?? []).map((p, i) => (
                      <span key={i} className={styles.person}>
                        {[p.given_names, p.surname].filter(Boolean).join(" ")}
                        {p.role ? ` (${p.role})` : ""}
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
