// /studio/trees (editors and admins): the family trees waiting to be published — their
// size, the living people in them (shown to others as "Living") and the problems the
// upload reported — with Publish; the published ones with Unpublish; and an upload form
// for a GEDCOM file sent to the society. Members upload their own from
// /user-account/trees, which links here for editors.
import { data, Form, Link, useActionData } from "react-router";
import type { Route } from "./+types/studio.trees";
import { ActionOutcome, CsrfField, ErrorSummary, Field, FormStatus, formStyles, PostButton, usePageForm } from "../components/forms/Forms";
import { TREE_STATES } from "../features/staff/fields";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { privateMeta } from "../features/auth/meta";
import { loadTreeQueue, requireStaff, treeAction, type TreeResult } from "../features/staff/api.server";
import type { QueueTree } from "../features/staff/types";
import { plural } from "../features/staff/words";
import styles from "../features/staff/staff.module.css";
import { treePath } from "../features/trees/slug";
import { formatDate } from "../lib/dates";
import { ScrollTable } from "../components/ScrollTable";

// Sign-in required (the default); the studio's layout lets only editors and admins in.

const STATE_WORDS: Record<(typeof TREE_STATES)[number], string> = { waiting: "Waiting", published: "Published", all: "All" };

export async function loader({ url, context }: Route.LoaderArgs) {
  requireStaff(context);
  const asked = url.searchParams.get("state") ?? "waiting";
  const state = (TREE_STATES as readonly string[]).includes(asked) ? (asked as (typeof TREE_STATES)[number]) : "waiting";
  const queue = await loadTreeQueue(context, state);
  if (!queue) throw new Response("The family trees cannot be listed just now", { status: 503 });
  return { state, trees: queue.trees ?? [], counts: queue.counts };
}

export const meta = privateMeta("Family trees");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const result = await treeAction(context, await request.formData());
  return data(result, { status: result.ok ? 200 : 422 });
}

const UPLOAD_FIELDS = ["file", "title", "description"] as const;

export default function StudioTrees({ loaderData }: Route.ComponentProps) {
  const { state, trees, counts } = loaderData;
  const result = useActionData<typeof action>() as TreeResult | undefined;
  const upload = result?.intent === "upload" ? result : undefined;
  const changed = result && result.intent !== "upload" ? result : undefined;
  const { formRef, busy } = usePageForm(upload);
  const errors = upload && !upload.ok ? (upload.errors ?? {}) : {};
  return (
    <>
      <h1>Family trees</h1>
      <p className={styles.lead}>
        Trees that members upload wait here until an editor publishes them. Before publishing, check the problems the upload found
        and that the tree is one the society wants to show. Living people are shown to visitors as “Living”, without details.
      </p>
      <nav aria-label="Which trees">
        <ul className={styles.tabs}>
          {TREE_STATES.map((s) => (
            <li key={s}>
              <Link to={`/studio/trees?state=${s}`} aria-current={s === state ? "page" : undefined}>
                {STATE_WORDS[s]}
                {s === "waiting" ? ` (${counts.waiting})` : s === "published" ? ` (${counts.published})` : ""}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="queue">
        <h2 id="queue">{state === "waiting" ? "Waiting to be published" : state === "published" ? "Published trees" : "All trees"}</h2>
        <ActionOutcome result={changed} failed="The tree could not be changed." className={styles.failed} />
        {trees.length === 0 ? <p>{state === "waiting" ? "No trees are waiting." : "No trees."}</p> : <QueueTable trees={trees} />}
      </section>

      <section aria-labelledby="upload">
        <h2 id="upload">Upload a tree for the society</h2>
        <ErrorSummary result={upload} fields={UPLOAD_FIELDS} idPrefix="upload" />
        {upload?.ok ? (
          <FormStatus>
            <p>{upload.message}</p>
            {upload.warningCount ? (
              <p>
                {plural(upload.warningCount, "problem")} found while reading the file: see the tree’s row above.
              </p>
            ) : null}
          </FormStatus>
        ) : null}
        <Form method="post" encType="multipart/form-data" ref={formRef} className={formStyles.form} key={upload?.ok ? "done" : "form"} noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="upload" />
          <Field name="file" idPrefix="upload" type="file" label="GEDCOM file" hint="A .ged or .gdz file of at most 50 MB." accept=".ged,.gdz,.GED,.GDZ" errors={errors.file} />
          <Field name="title" idPrefix="upload" label="Title" hint="For example, “The Ashworth family of Lancashire”." defaultValue={upload?.values?.title ?? ""} errors={errors.title} maxLength={200} />
          <Field name="description" idPrefix="upload" label="Description (optional)" defaultValue={upload?.values?.description ?? ""} errors={errors.description} maxLength={2000} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Uploading…" : "Upload tree"}
          </button>
        </Form>
      </section>
    </>
  );
}

function QueueTable({ trees }: { trees: QueueTree[] }) {
  return (
    <ScrollTable label="Family trees" columns={["Tree", "Size", "Problems", "Uploaded", "Action"]} className={styles.tableWrap} tableClassName={styles.table}>
      <tbody>
        {trees.map((t) => (
          <tr key={t.slug}>
            <td>
              <Link to={treePath(t.slug)}>{t.title}</Link>
              <span className={styles.sample}>
                {t.owner ? `By ${t.owner.name}` : ""}
                {t.source_file ? ` · ${t.source_file}` : ""}
              </span>
            </td>
            <td>
              {plural(t.counts.people, "person", "people")}, {plural(t.counts.families, "family", "families")}
              <span className={styles.sample}>{plural(t.living, "living person", "living people")}</span>
            </td>
            <td>
              {t.warning_count === null ? (
                "Not recorded"
              ) : t.warning_count === 0 ? (
                "None"
              ) : (
                <details>
                  <summary>{plural(t.warning_count, "problem")}</summary>
                  <ul>
                    {(t.warnings ?? []).map((w, i) => (
                      <li key={i}>{w}</li>
                    ))}
                  </ul>
                  {t.warning_count > (t.warnings?.length ?? 0) ? <p>Only the first {t.warnings?.length ?? 0} are listed.</p> : null}
                </details>
              )}
            </td>
            <td>
              {formatDate(t.created_at)}
              {t.published ? <span className={styles.sample}>Published {formatDate(t.published_at)}</span> : null}
            </td>
            <td>
              <PostButton intent={t.published ? "unpublish" : "publish"} hidden={{ slug: t.slug, title: t.title }}>
                {t.published ? "Unpublish" : "Publish"}
                <span className="visually-hidden"> {t.title}</span>
              </PostButton>
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
