// /user-account/trees (sign-in required): a member uploads a family tree as a GEDCOM
// file (.ged or .gdz) and sees their trees with their status; an upload stays
// unpublished until an editor publishes it. Editors and admins also see how many trees
// wait for publication, with a link to the studio's queue (/studio/trees), where they
// review and publish them. The forms are plain posts
// (multipart for the upload), so they work without JavaScript.
import { useRef } from "react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/user-account.trees";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { ActionOutcome, CsrfField, ErrorSummary, Field, FormStatus, formStyles, PostButton, useFocusFirstError } from "../components/forms/Forms";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { deleteTree, listTrees, myTrees, uploadTree, type UploadResult } from "../features/trees/api.server";
import { plural } from "../features/trees/format";
import { TREES_PATH, treePath } from "../features/trees/slug";
import styles from "../features/trees/trees.module.css";
import type { Tree } from "../features/trees/types";
import { getAuth } from "../features/auth/context";
import { privateMeta } from "../features/auth/meta";
import { text } from "../features/auth/results.server";
import type { FormResult } from "../lib/form-result";
import { ScrollTable } from "../components/ScrollTable";

// Sign-in required: the default, so no `handle.auth`.

function isEditor(role: string | undefined): boolean {
  return role === "editor" || role === "admin";
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = getAuth(context).state.user!;
  const editor = isEditor(user.role);
  const [mine, all] = await Promise.all([myTrees(context), editor ? listTrees(context) : Promise.resolve([] as Tree[])]);
  return { mine, waiting: all.filter((t) => !t.published), editor };
}

export const meta = privateMeta("Your family trees");

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = text(form, "intent");
  const result: UploadResult | FormResult = intent === "upload" ? await uploadTree(context, form) : await deleteTree(context, form);
  return data(result, { status: result.ok ? 200 : 422 });
}

function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });
}

const UPLOAD_FIELDS = ["file", "title", "description"] as const;

export default function UserTrees({ loaderData }: Route.ComponentProps) {
  const { mine, waiting, editor } = loaderData;
  const result = useActionData<typeof action>() as (UploadResult & FormResult) | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "upload";
  const formRef = useRef<HTMLFormElement>(null);
  const upload = result?.intent === "upload" ? result : undefined;
  const deleting = result?.intent === "delete" ? result : undefined;
  useFocusFirstError(formRef, upload);
  const errors = upload && !upload.ok ? (upload.errors ?? {}) : {};
  const values = upload && !upload.ok ? upload.values : undefined;

  return (
    <>
      <Breadcrumbs items={[{ to: "/", label: "Home" }, { to: "/user-account", label: "Your account" }]} />
      <h1>Your family trees</h1>
      <p className={styles.lead}>
        Upload your family tree as a GEDCOM file (.ged, or .gdz with media) exported from your family history program. It stays
        unpublished, seen only by you and the society’s editors, until an editor publishes it to the{" "}
        <Link to={TREES_PATH}>family trees</Link>. Living people are shown to others as “Living”, without details.
      </p>

      <section aria-labelledby="upload">
        <h2 id="upload">Upload a family tree</h2>
        <ErrorSummary result={upload} fields={UPLOAD_FIELDS} idPrefix="upload" />
        <FormStatus result={upload}>
          {upload?.ok ? (
            <>
              <p>{upload.message}</p>
              {upload.tree ? (
                <p>
                  <Link to={treePath(upload.tree.slug)}>Open “{upload.tree.title}”</Link> ({plural(upload.tree.counts.people, "person", "people")}).
                </p>
              ) : null}
              {upload.warningCount ? (
                <details>
                  <summary>{plural(upload.warningCount, "warning")} while reading the file</summary>
                  <ul>
                    {upload.warnings?.map((w, i) => (
                      <li key={i}>{w}</li>
                    ))}
                  </ul>
                  {upload.warningCount > (upload.warnings?.length ?? 0) ? <p>Only the first {upload.warnings?.length} are listed.</p> : null}
                </details>
              ) : null}
            </>
          ) : null}
        </FormStatus>
        <Form method="post" encType="multipart/form-data" ref={formRef} className={formStyles.form} key={upload?.ok ? "done" : "form"}>
          <CsrfField />
          <input type="hidden" name="intent" value="upload" />
          <Field
            name="file"
            idPrefix="upload"
            type="file"
            label="GEDCOM file"
            hint="A .ged or .gdz file of at most 50 MB."
            accept=".ged,.gdz,.GED,.GDZ"
            errors={errors.file}
            autoFocus={Boolean(errors.file)}
          />
          <Field name="title" idPrefix="upload" label="Title" hint="For example, “The Ashworth family of Lancashire”." defaultValue={values?.title ?? ""} errors={errors.title} maxLength={200} />
          <Field name="description" idPrefix="upload" label="Description (optional)" defaultValue={values?.description ?? ""} errors={errors.description} maxLength={2000} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Uploading…" : "Upload tree"}
          </button>
        </Form>
      </section>

      <section aria-labelledby="mine">
        <h2 id="mine">Your uploads</h2>
        <ActionOutcome result={deleting} failed="The tree could not be deleted." className={styles.fieldError} />
        {mine === null ? (
          <p>Your trees cannot be listed just now. Please try again later.</p>
        ) : mine.length === 0 ? (
          <p>You have not uploaded a family tree yet.</p>
        ) : (
          <TreeTable trees={mine} caption="Your family trees" remove />
        )}
      </section>

      {editor ? (
        <section aria-labelledby="waiting">
          <h2 id="waiting">Trees waiting to be published</h2>
          <p>
            {waiting.length === 0 ? "No trees are waiting." : `${plural(waiting.length, "tree")} ${waiting.length === 1 ? "is" : "are"} waiting.`}{" "}
            <Link to="/studio/trees">Review and publish trees in the studio</Link>
          </p>
        </section>
      ) : null}
    </>
  );
}

/** The outcome of a delete button: its status, or an alert when it failed. */
function TreeTable({ trees, caption, remove = false }: { trees: Tree[]; caption: string; remove?: boolean }) {
  return (
    <ScrollTable label={caption} columns={remove ? ["Tree", "Status", "People", "Uploaded", "Action"] : ["Tree", "Status", "People", "Uploaded"]} className={styles.tableScroll} tableClassName={styles.results}>
      <tbody>
        {trees.map((t) => (
          <tr key={t.slug}>
            <td>
              <Link to={treePath(t.slug)}>{t.title}</Link>
            </td>
            <td>
              {t.published ? (
                `Published ${formatDate(t.published_at)}`.trim()
              ) : (
                <span className={styles["status-unpublished"]}>Unpublished: waiting for an editor</span>
              )}
            </td>
            <td>{t.counts.people.toLocaleString("en-GB")}</td>
            <td>{formatDate(t.created_at)}</td>
            {remove ? (
              <td>
                {!t.published ? (
                  <PostButton intent="delete" hidden={{ slug: t.slug, title: t.title }}>
                    Delete<span className="visually-hidden"> {t.title}</span>
                  </PostButton>
                ) : (
                  "—"
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
