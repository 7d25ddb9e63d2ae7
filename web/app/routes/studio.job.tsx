// /studio/jobs/:id (editors and admins): one import of records or scans, followed live
// (features/staff/JobProgress.tsx reads the API's server-sent events). When it has
// finished: what it did, with a link to search the records it imported or to the scans;
// while it runs: a button to stop it (nothing it loaded is kept).
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/studio.job";
import { ActionOutcome, CsrfField } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { cancelJob, loadJob, notFound, requireStaff } from "../features/staff/api.server";
import { JobProgress } from "../features/staff/JobProgress";
import type { Job } from "../features/staff/types";
import { jobFinished, plural } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { searchUrl, readQuery } from "../features/research/search/query";
import { formatDateTime } from "../lib/dates";
import type { FormResult } from "../lib/form-result";

// Sign-in required (the default); the studio's layout lets only editors and admins in.

export async function loader({ params, context }: Route.LoaderArgs) {
  requireStaff(context);
  const job = await loadJob(context, params.id);
  if (!job) throw notFound();
  const search = job.kind === "records" && job.collection ? searchUrl(readQuery(new URLSearchParams({ collection: job.collection }))) : null;
  return { job, search };
}

export const meta = privateMeta("Import");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const result = await cancelJob(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function StudioJob({ loaderData }: Route.ComponentProps) {
  const { job, search } = loaderData;
  const result = useActionData<typeof action>() as FormResult | undefined;
  const back = job.kind === "scans" ? { to: "/studio/scans", label: "Scans" } : { to: "/studio/records", label: "Import records" };
  return (
    <>
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
      <h1>
        {job.kind === "scans" ? "Scans for" : "Import into"} “{job.collection ?? "—"}”
      </h1>
      <p>
        Started {formatDateTime(job.created_at)}
        {job.started_by ? ` by ${job.started_by.name}` : ""}. You can leave this page: the work goes on, and you can come back to it from{" "}
        <Link to={back.to}>{back.label.toLowerCase()}</Link>.
      </p>
      <ActionOutcome result={result} className={styles.failed} />
      <JobProgress initial={job}>{(live) => <JobOutcome job={live} search={search} />}</JobProgress>
    </>
  );
}

/** An import's counts, in the order a person reads them, with the word for each. */
const IMPORT_COUNTS = [
  ["added", "added"],
  ["updated", "changed"],
  ["unchanged", "unchanged"],
  ["skipped", "skipped"],
] as const;

function JobOutcome({ job, search }: { job: Job; search: string | null }) {
  if (job.state === "undoing") return <p>Taking back what it loaded, so that nothing from it is kept. This page says when that is done.</p>;
  if (!jobFinished(job.state)) {
    return (
      <>
        <noscript>
          <p>
            <a href="">Look again</a> to see how far it has got.
          </p>
        </noscript>
        <Form method="post">
          <CsrfField />
          <input type="hidden" name="id" value={job.id} />
          <button type="submit" className="button">
            Stop this {job.kind === "scans" ? "work" : "import"}
          </button>
        </Form>
      </>
    );
  }
  if (job.state === "failed" || job.state === "canceled") {
    return (
      <p className={styles.failed}>
        {job.error ?? (job.state === "canceled" ? "The import was stopped. Nothing from it was kept." : "The import failed. Nothing from it was kept.")}
      </p>
    );
  }
  const r = job.report;
  if (job.kind === "scans") {
    return (
      <>
        <p>
          {plural(r?.scans ?? 0, "scan")}: {r?.cut ?? 0} prepared for viewing, {r?.unchanged ?? 0} unchanged.
        </p>
        {r?.items?.length ? (
          <ul>
            {r.items.map((item) => (
              <li key={item.id}>
                {item.file}: {item.id}
              </li>
            ))}
          </ul>
        ) : null}
      </>
    );
  }
  return (
    <>
      <ul className={styles.counts}>
        {IMPORT_COUNTS.map(([count, word]) => (
          <li key={count}>
            <strong>{(r?.[count] ?? 0).toLocaleString("en-GB")}</strong>
            {` ${word}`}
          </li>
        ))}
      </ul>
      {r?.errors?.length ? (
        <details>
          <summary>{plural(r.error_count, "line")} could not be imported</summary>
          <ul>
            {r.errors.map((e, i) => (
              <li key={i}>
                Line {e.line}
                {e.record ? ` (record ${e.record})` : ""}: {e.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {search ? (
        <p>
          <Link to={search} className="button button--primary">
            Search the imported records
          </Link>
        </p>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
