// /studio/records (editors and admins): step 1 of importing records — upload a CSV file.
// The next page (studio.records-upload.tsx) matches its columns and checks it. Also
// lists the files uploaded and not yet imported, and the recent imports with their state.
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/studio.records";
import { ActionOutcome, CsrfField, ErrorSummary, Field, formStyles, PostButton, usePageForm } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { deleteMapping, deleteUpload, loadJobs, loadMappings, loadUploads, requireStaff, uploadRecords } from "../features/staff/api.server";
import { JobTable } from "../features/staff/JobTable";
import { bytesText, plural } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { formatDateTime } from "../lib/dates";
import type { FormResult } from "../lib/form-result";
import { ScrollTable } from "../components/ScrollTable";

// Sign-in required (the default); the studio's layout lets only editors and admins in.

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context);
  const [uploads, jobs, mappings] = await Promise.all([loadUploads(context), loadJobs(context, "records"), loadMappings(context)]);
  return { uploads: uploads?.uploads ?? null, jobs, mappings };
}

export const meta = privateMeta("Import records");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  if (form.get("intent") === "delete-mapping") {
    const result = await deleteMapping(context, form);
    return data(result, { status: result.ok ? 200 : 422 });
  }
  if (form.get("intent") === "delete") {
    const result = await deleteUpload(context, form);
    return data(result, { status: result.ok ? 200 : 422 });
  }
  const result = await uploadRecords(context, form);
  if (result.ok && result.upload) return redirect(`/studio/records/${encodeURIComponent(result.upload.id)}`);
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function StudioRecords({ loaderData }: Route.ComponentProps) {
  const { uploads, jobs, mappings } = loaderData;
  const result = useActionData<typeof action>() as FormResult | undefined;
  const upload = result?.intent === "upload" ? result : undefined;
  const removed = result?.intent === "delete" ? result : undefined;
  const forgotten = result?.intent === "delete-mapping" ? result : undefined;
  const { formRef, busy } = usePageForm(upload);
  const waiting = (uploads ?? []).filter((u) => !u.imported);
  return (
    <>
      <h1>Import records</h1>
      <p className={styles.lead}>
        Add transcribed records to the research hub from a spreadsheet saved as a CSV file. After uploading you match the file’s
        columns to ours, check the file (nothing is imported yet), then import it. If anything goes wrong during the import,
        nothing from that file is kept.
      </p>

      <section aria-labelledby="upload">
        <h2 id="upload">1. Upload a CSV file</h2>
        <ErrorSummary result={upload} fields={["file"]} idPrefix="records" />
        <Form method="post" encType="multipart/form-data" ref={formRef} className={formStyles.form} noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="upload" />
          <Field
            name="file"
            idPrefix="records"
            type="file"
            label="CSV file"
            hint="A spreadsheet saved as CSV, with the column names in the first line. At most 64 MB."
            accept=".csv,.txt,text/csv"
            errors={upload?.errors?.file}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Uploading…" : "Upload and match the columns"}
          </button>
        </Form>
      </section>

      <section aria-labelledby="waiting">
        <h2 id="waiting">Files waiting to be imported</h2>
        <ActionOutcome result={removed} className={styles.failed} />
        {uploads === null ? (
          <p>Your files cannot be listed just now. Please try again later.</p>
        ) : waiting.length === 0 ? (
          <p>None. Files are kept for 7 days after they are uploaded.</p>
        ) : (
          <ScrollTable label="Files waiting to be imported" columns={["File", "Size", "Uploaded", "Action"]} className={styles.tableWrap} tableClassName={styles.table}>
            <tbody>
              {waiting.map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link to={`/studio/records/${encodeURIComponent(u.id)}`}>{u.filename}</Link>
                  </td>
                  <td>
                    {plural(u.rows, "line")}, {bytesText(u.bytes)}
                  </td>
                  <td>{formatDateTime(u.created_at)}</td>
                  <td>
                    <PostButton intent="delete" hidden={{ id: u.id, filename: u.filename }}>
                      Remove<span className="visually-hidden"> {u.filename}</span>
                    </PostButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </section>

      <section aria-labelledby="matchings">
        <h2 id="matchings">Saved matchings</h2>
        <p>A file whose columns are all in a saved matching has its columns matched that way when it is uploaded.</p>
        <ActionOutcome result={forgotten} className={styles.failed} />
        {mappings.length === 0 ? (
          <p>None yet. You can save one when you import a file.</p>
        ) : (
          <ul className={styles.plainList}>
            {mappings.map((m) => (
              <li key={m.name}>
                <span>
                  <strong>{m.name}</strong>
                  <span className={styles.sample}>
                    {m.columns.length ? `Columns: ${m.columns.slice(0, 6).join(", ")}${m.columns.length > 6 ? "…" : ""}. ` : ""}
                    Saved {formatDateTime(m.updated_at)}
                    {m.updated_by ? ` by ${m.updated_by.name}` : ""}.
                  </span>
                </span>
                <PostButton intent="delete-mapping" hidden={{ name: m.name }}>
                  Forget<span className="visually-hidden"> the matching {m.name}</span>
                </PostButton>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="imports">
        <h2 id="imports">Recent imports</h2>
        {jobs === null ? <p>The imports cannot be listed just now.</p> : <JobTable jobs={jobs} caption="Recent imports of records" />}
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
