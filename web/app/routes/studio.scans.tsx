// /studio/scans (editors and admins): upload scans (JPEG, PNG or TIFF) to a collection
// and attach them to records, catalogue items or people — all to one record or person,
// by their file names, or through a list (a manifest CSV, docs/iiif.md). The images are
// prepared for the viewer in the background; the next page shows the progress live.
import { data, Form, redirect, useActionData } from "react-router";
import type { Route } from "./+types/studio.scans";
import { CsrfField, ErrorSummary, Field, formStyles, SelectField, usePageForm } from "../components/forms/Forms";
import { SCAN_FIELDS } from "../features/staff/fields";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { loadJobs, requireStaff, type ScansResult, uploadScans } from "../features/staff/api.server";
import { JobTable } from "../features/staff/JobTable";
import { accessText } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { recordCollections } from "../features/research/search/api.server";
import { ACCESS_LEVELS } from "../lib/vocabulary";

// Sign-in required (the default); the studio's layout lets only editors and admins in.

const ATTACH = [
  { value: "names", label: "By their file names", hint: "As the command line does: a file named after a record’s reference goes with that record." },
  { value: "record", label: "All to one record or catalogue item", hint: "The scans become its pages, in the order of the files." },
  { value: "person", label: "All to one person in a family tree", hint: "" },
  { value: "manifest", label: "With a list of the scans (CSV file)", hint: "The list says which record, item or person each file belongs to." },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context);
  const [jobs, collections] = await Promise.all([loadJobs(context, "scans"), recordCollections(context)]);
  return { jobs, collections: collections.map((c) => ({ slug: c.slug, title: c.title })) };
}

export const meta = privateMeta("Scans");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const result = await uploadScans(context, await request.formData());
  if (result.ok && result.job) return redirect(`/studio/jobs/${result.job.id}`);
  return data(result, { status: result.ok ? 200 : 422 });
}

export default function StudioScans({ loaderData }: Route.ComponentProps) {
  const { jobs, collections } = loaderData;
  const result = useActionData<typeof action>() as ScansResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const values = result?.values ?? {};
  const attach = values.attach || "names";
  return (
    <>
      <h1>Scans</h1>
      <p className={styles.lead}>
        Add scanned pages to the records, catalogue items or family tree people they belong to. Large images take a while to prepare
        for viewing; you can follow the progress and leave the page meanwhile.
      </p>
      <section aria-labelledby="upload">
        <h2 id="upload">Upload scans</h2>
        <ErrorSummary result={result && !result.ok ? result : undefined} fields={SCAN_FIELDS} idPrefix="scans" />
        <Form method="post" encType="multipart/form-data" ref={formRef} className={formStyles.form} noValidate>
          <CsrfField />
          <Field
            name="files"
            idPrefix="scans"
            type="file"
            multiple
            label="Scans"
            hint="One or more JPEG, PNG or TIFF images: at most 200 files and 512 MB in all."
            accept=".jpg,.jpeg,.png,.tif,.tiff,image/jpeg,image/png,image/tiff"
            errors={errors.files}
          />
          <Field
            name="folder"
            idPrefix="scans"
            type="file"
            multiple
            label="Or a whole folder of scans"
            hint="Its JPEG, PNG and TIFF images are sent; anything else in it is left out."
            {...{ webkitdirectory: "" }}
          />
          <SelectField
            name="collection"
            idPrefix="scans"
            label="Collection"
            options={[{ value: "", label: "Choose" }, ...collections.map((c) => ({ value: c.slug, label: c.title }))]}
            defaultValue={values.collection ?? ""}
            errors={errors.collection}
          />
          <fieldset className={styles.fieldset}>
            <legend>Attach the scans</legend>
            {ATTACH.map((a) => (
              <div key={a.value} className={styles.radio}>
                <input type="radio" id={`attach-${a.value}`} name="attach" value={a.value} defaultChecked={attach === a.value} />
                <label htmlFor={`attach-${a.value}`}>
                  {a.label}
                  {a.hint ? <span className={styles.sample}>{a.hint}</span> : null}
                </label>
              </div>
            ))}
          </fieldset>
          <Field name="record" idPrefix="scans" label="Record or catalogue reference (for “all to one record”)" defaultValue={values.record ?? ""} errors={errors.record} maxLength={200} />
          <Field name="person" idPrefix="scans" label="Person (for “all to one person”)" hint="The tree’s short name and the person’s id, such as smith-family:I12." defaultValue={values.person ?? ""} errors={errors.person} maxLength={200} />
          <Field name="manifest" idPrefix="scans" type="file" label="List of the scans (for “with a list”)" hint="A CSV file as described in the society’s guide to scans. At most 1 MB." accept=".csv,text/csv" errors={errors.manifest} />
          <SelectField
            name="access"
            idPrefix="scans"
            label="Who may see the scans"
            options={[{ value: "", label: "As the collection says" }, ...ACCESS_LEVELS.map((a) => ({ value: a, label: accessText(a) }))]}
            defaultValue={values.access ?? ""}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Uploading…" : "Upload and prepare the scans"}
          </button>
        </Form>
      </section>
      <section aria-labelledby="recent">
        <h2 id="recent">Recent scans</h2>
        {jobs === null ? <p>The recent scans cannot be listed just now.</p> : <JobTable jobs={jobs} caption="Recent scans" />}
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
