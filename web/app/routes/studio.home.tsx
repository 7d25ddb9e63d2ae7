// /studio — the studio's home: what needs attention (drafts waiting, releases due).
import { requireStaff } from "../features/studio/access.server";
import { Link } from "react-router";
import type { Route } from "./+types/studio.home";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { listDocuments, listReleases } from "../features/studio/api.server";
import styles from "../features/studio/studio.module.css";
import { statusText, when } from "../features/studio/words";

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context);
  const [drafts, releases, failed] = await Promise.all([
    listDocuments(context, { status: "draft", sort: "-updated_at" }),
    listReleases(context, "scheduled"),
    listReleases(context, "failed"),
  ]);
  return { drafts: drafts.ok ? drafts.body : null, releases: releases.ok ? releases.body.results : null, failed: failed.ok ? failed.body.results : [] };
}

export const meta = privateMeta("Studio");

export default function StudioHome({ loaderData }: Route.ComponentProps) {
  const { drafts, releases, failed } = loaderData;
  return (
    <>
      <h1>Studio</h1>
      <p>
        Write and publish the site’s content. <Link to="/studio/content">Start with the content list</Link>.
      </p>
      {failed.length ? (
        <section aria-labelledby="failed-h" className={`notice ${styles.panel}`}>
          <h2 id="failed-h">Releases that could not be published</h2>
          <ul className={styles.releaseList}>
            {failed.map((r) => (
              <li key={r.id}>
                <Link to={`/studio/releases/${encodeURIComponent(r.id)}`}>{r.label}</Link>
                {r.error ? ` — ${r.error}` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="drafts-h" className={styles.panel}>
        <h2 id="drafts-h">Drafts waiting</h2>
        {drafts === null ? (
          <p>The drafts could not be listed just now.</p>
        ) : drafts.results.length === 0 ? (
          <p>No drafts waiting.</p>
        ) : (
          <ul className={styles.releaseList}>
            {drafts.results.slice(0, 10).map((d) => (
              <li key={d.id}>
                <Link to={`/studio/content/${encodeURIComponent(d.id)}`}>{d.title || d.uid || d.id}</Link> — {statusText(d.status)}, changed {when(d.updated_at)}
                {d.updated_by ? ` by ${d.updated_by.name}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="due-h" className={styles.panel}>
        <h2 id="due-h">Releases to be published</h2>
        {releases === null ? (
          <p>The releases could not be listed just now.</p>
        ) : releases.length === 0 ? (
          <p>None scheduled.</p>
        ) : (
          <ul className={styles.releaseList}>
            {releases.map((r) => (
              <li key={r.id}>
                <Link to={`/studio/releases/${encodeURIComponent(r.id)}`}>{r.label}</Link> — {when(r.scheduled_at)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
