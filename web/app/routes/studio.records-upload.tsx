// /studio/records/:upload (editors and admins): steps 2 and 3 of importing records.
// The file's columns matched to ours (the API's proposal, a matching saved before, or
// the form as sent), "Check the file" for a dry run (counts, problems by line, the first
// records as read), then "Import", which starts the import in the background and goes
// to its page, where its progress shows live. Everything is a plain form.
import { useEffect } from "react";
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/studio.records-upload";
import { CsrfField, ErrorSummary, Field, fieldId, formStyles, SelectField, usePageForm } from "../components/forms/Forms";
import { IMPORT_FIELDS } from "../features/staff/fields";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { loadMappings, loadUpload, notFound, recordsAction, type RecordsFormResult, requireStaff } from "../features/staff/api.server";
import { DryRunReport } from "../features/staff/DryRunReport";
import { columnName, mappingRows } from "../features/staff/mapping";
import { MAPPING_ID_PREFIX, MappingEditor } from "../features/staff/MappingEditor";
import type { Mapping } from "../features/staff/types";
import { accessText, bytesText, plural } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { recordCollections } from "../features/research/search/api.server";
import { KINDS, RECORD_KINDS } from "../features/research/collections/model";
import { ACCESS_LEVELS } from "../lib/vocabulary";

// Sign-in required (the default); the studio's layout lets only editors and admins in.

async function uploadAndBase(context: Route.LoaderArgs["context"], id: string, savedName: string) {
  const [upload, saved] = await Promise.all([loadUpload(context, id), loadMappings(context)]);
  if (!upload) throw notFound();
  const chosen = savedName ? saved.find((m) => m.name === savedName) : undefined;
  const base: Mapping = chosen?.mapping ?? upload.proposed.mapping;
  return { upload, saved, chosen, base };
}

export async function loader({ params, url, context }: Route.LoaderArgs) {
  requireStaff(context);
  const { upload, saved, chosen, base } = await uploadAndBase(context, params.upload, url.searchParams.get("mapping") ?? "");
  const collections = await recordCollections(context);
  return {
    upload,
    saved: saved.map((m) => m.name),
    using: chosen?.name ?? upload.proposed.from_saved ?? "",
    base,
    collections: collections.map((c) => ({ slug: c.slug, title: c.title })),
    kinds: KINDS.filter((k) => RECORD_KINDS.has(k.kind)).map((k) => ({ value: k.kind, label: k.singular })),
  };
}

export const meta = privateMeta("Match the columns");

export async function action({ request, params, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const { upload, base } = await uploadAndBase(context, params.upload, typeof form.get("base") === "string" ? (form.get("base") as string) : "");
  const result = await recordsAction(context, upload, base, form);
  if (result.ok && result.job) return redirect(`/studio/jobs/${result.job.id}`);
  return data(result, { status: result.ok ? 200 : 422 });
}

/** The first choice of a drop-down that starts with nothing chosen. */
const CHOOSE = { value: "", label: "Choose" };

export default function StudioRecordsUpload({ loaderData }: Route.ComponentProps) {
  const { upload, saved, using, base, collections, kinds } = loaderData;
  const result = useActionData<typeof action>() as RecordsFormResult | undefined;
  const { formRef, busy } = usePageForm(result);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const values = result?.values;
  const rows = mappingRows(upload.canonical, base, values);
  const dryRun = result?.ok && result.dryRun ? result.dryRun : undefined;
  const fieldOrder = [...rows.map((r) => columnName(r.field.name)), "mapping", ...IMPORT_FIELDS];
  const defaultName = using || upload.filename.replace(/\.[^.]+$/, "");

  // After a dry run the page comes back with its report: take the reader there.
  useEffect(() => {
    if (dryRun) document.getElementById("dry-run")?.focus();
  }, [dryRun]);

  return (
    <>
      <p>
        <Link to="/studio/records">Import records</Link>
      </p>
      <h1>Match the columns of “{upload.filename}”</h1>
      <p className={styles.lead}>
        {plural(upload.rows, "line")}, {bytesText(upload.bytes)}. For each kind of information below, choose the column of your file
        that holds it. We have guessed where we could{using ? `, using the matching saved as “${using}”` : ""}; please check. Then
        check the file: nothing is imported until you press “Import”.
      </p>
      {upload.imported ? <p className={styles.badge}>This file has been imported already.</p> : null}

      {saved.length ? (
        <Form method="get" className={`${formStyles.form} ${styles.inline}`} aria-label="Use a saved matching">
          <SelectField
            name="mapping"
            idPrefix="saved"
            label="Use a matching saved before"
            options={[{ value: "", label: "Our guess for this file" }, ...saved.map((name) => ({ value: name, label: name }))]}
            defaultValue={using}
          />
          <div className={formStyles.actions}>
            <button type="submit" className={`button ${formStyles.button}`}>
              Use this matching
            </button>
          </div>
        </Form>
      ) : null}

      <ErrorSummary result={result && !result.ok ? result : undefined} fields={fieldOrder} idPrefix={MAPPING_ID_PREFIX} />
      {dryRun ? <DryRunReport report={dryRun} /> : null}

      <Form method="post" ref={formRef} className={styles.wideForm} noValidate aria-labelledby="columns">
        <CsrfField />
        <input type="hidden" name="base" value={using} />
        <h2 id="columns">2. Match the columns</h2>
        {base.persons?.length ? <p>The people on each line are matched as saved before.</p> : null}
        {errors.mapping?.length ? (
          <p id={fieldId("mapping", MAPPING_ID_PREFIX)} className={formStyles.error} tabIndex={-1}>
            <span className="visually-hidden">Error: </span>
            {errors.mapping.join(" ")}
          </p>
        ) : null}
        <MappingEditor rows={rows} columns={upload.columns} errors={errors} />

        <h2>3. Where the records go</h2>
        <div className={formStyles.form}>
          <Field
            name="collection"
            idPrefix={MAPPING_ID_PREFIX}
            label="Collection"
            hint="The short name of the collection to add these records to. For a new one, use small letters, numbers and dashes, such as parish-1851."
            defaultValue={values?.collection ?? ""}
            errors={errors.collection}
            list="collections"
            autoComplete="off"
            maxLength={100}
          />
          <datalist id="collections">
            {collections.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.title}
              </option>
            ))}
          </datalist>
          <fieldset className={styles.fieldset}>
            <legend>Only for a new collection</legend>
            <Field name="title" idPrefix={MAPPING_ID_PREFIX} label="Title" hint="As readers will see it, such as “Parish registers 1851”." defaultValue={values?.title ?? ""} errors={errors.title} maxLength={200} />
            <SelectField name="kind" idPrefix={MAPPING_ID_PREFIX} label="Kind of collection" defaultValue={values?.kind ?? ""} errors={errors.kind} options={[CHOOSE, ...kinds]} />
            <SelectField
              name="access"
              idPrefix={MAPPING_ID_PREFIX}
              label="Who may see the records"
              defaultValue={values?.access ?? ""}
              errors={errors.access}
              options={[CHOOSE, ...ACCESS_LEVELS.map((a) => ({ value: a, label: accessText(a) }))]}
            />
          </fieldset>
          <Field
            name="save_mapping_as"
            idPrefix={MAPPING_ID_PREFIX}
            label="Remember this matching as"
            hint="Next time you upload a file with the same columns, they are matched this way. Leave it empty to not remember it."
            defaultValue={values?.save_mapping_as ?? defaultName}
            errors={errors.save_mapping_as}
            maxLength={100}
          />
        </div>
        <div className={formStyles.actions}>
          <button type="submit" name="intent" value="dry-run" className={`button ${dryRun ? "" : "button--primary"} ${formStyles.button}`} disabled={busy}>
            Check the file
          </button>
          <button type="submit" name="intent" value="import" className={`button ${dryRun ? "button--primary" : ""} ${formStyles.button}`} disabled={busy}>
            Import
          </button>
        </div>
      </Form>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
