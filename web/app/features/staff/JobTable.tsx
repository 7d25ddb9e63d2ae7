// A list of background jobs (records or scans imports) with their state, each linking
// to its page, where the progress is followed live.
import { Link } from "react-router";
import { formatDateTime } from "../../lib/dates";
import { progressText } from "./JobProgress";
import type { Job } from "./types";
import { jobStateText } from "./words";
import styles from "./staff.module.css";
import { ScrollTable } from "../../components/ScrollTable";

export function JobTable({ jobs, caption }: { jobs: Job[]; caption: string }) {
  if (!jobs.length) return <p>None yet.</p>;
  return (
    <ScrollTable label={caption} columns={["Started", "By", "Collection", "State"]} className={styles.tableWrap} tableClassName={styles.table}>
      <tbody>
        {jobs.map((j) => (
          <tr key={j.id}>
            <td>
              <Link to={`/studio/jobs/${j.id}`}>{formatDateTime(j.created_at)}</Link>
            </td>
            <td>{j.started_by?.name ?? "—"}</td>
            <td>{j.collection ?? "—"}</td>
            <td>
              {jobStateText(j.state)}
              {j.state === "running" ? <span className={styles.sample}>{progressText(j)}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
