// /studio/content/:id/history — every saved version of a document, who made it and
// when; one version's text; restoring one makes it the draft again.
import { requireStaff } from "../features/studio/access.server";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/studio.content-history";
import { CsrfField, formStyles } from "../components/forms/Forms";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { formToken, loadDocument, loadVersion, loadVersions, restoreVersion } from "../features/studio/api.server";
import { plainText } from "../features/studio/richtext";
import styles from "../features/studio/studio.module.css";
import { when } from "../features/studio/words";

const KIND_WORDS: Record<string, string> = { draft: "Saved draft", published: "Published", restored: "Restored", unpublished: "Taken off the site", archived: "Archived" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireStaff(context);
  const vid = new URL(request.url).searchParams.get("version");
  const [doc, versions, version] = await Promise.all([loadDocument(context, params.id), loadVersions(context, params.id), vid ? loadVersion(context, params.id, vid) : null]);
  if (!doc.ok && doc.status === 404) throw new Response("This document could not be found", { status: 404, statusText: "Not Found" });
  if (!doc.ok || !versions.ok) throw new Response("The history could not be loaded just now", { status: 503 });
  return { doc: doc.body, versions: versions.body.results, version: version && version.ok ? version.body : null };
}

export const meta = privateMeta("History of a document");

export async function action({ request, params, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const done = await restoreVersion(context, csrf, params.id, String(form.get("version") ?? ""), Number(form.get("revision")));
  if (done.ok) throw redirect(`/studio/content/${encodeURIComponent(params.id)}`);
  return data(formFailure(done), { status: done.status || 502 });
}

export default function StudioHistory({ loaderData, actionData }: Route.ComponentProps) {
  const { doc, versions, version } = loaderData;
  const title = plainText(doc.data?.title) || doc.uid || doc.id;
  return (
    <>
      <p className={styles.breadcrumb}>
        <Link to={`/studio/content/${encodeURIComponent(doc.id)}`}>Back to the editor</Link>
      </p>
      <h1>History of “{title}”</h1>
      {actionData && !actionData.ok ? (
        <p role="alert" className={formStyles.error}>
          {actionData.message}
        </p>
      ) : null}
      {versions.length === 0 ? (
        <p>No earlier versions.</p>
      ) : (
        <ol className={styles.history}>
          {versions.map((v) => (
            <li key={v.id}>
              <Link to={`?version=${v.id}`} aria-current={version?.id === v.id ? "true" : undefined}>
                {KIND_WORDS[v.kind] ?? v.kind}, {when(v.created_at)}
              </Link>
              {v.author ? ` by ${v.author.name}` : ""}
            </li>
          ))}
        </ol>
      )}
      {version ? (
        <section aria-labelledby="version-h" className={styles.panel}>
          <h2 id="version-h">
            {KIND_WORDS[version.kind] ?? version.kind}, {when(version.created_at)}
            {version.author ? ` by ${version.author.name}` : ""}
          </h2>
          <dl className={styles.versionFields}>
            <dt>Address</dt>
            <dd>{version.uid ?? "(none)"}</dd>
            <dt>Tags</dt>
            <dd>{(version.tags ?? []).join(", ") || "(none)"}</dd>
            {Object.entries(version.data ?? {}).map(([k, v]) => {
              const text = plainText(v) || (typeof v === "string" || typeof v === "number" ? String(v) : "");
              return text ? (
                <div key={k}>
                  <dt>{k.replace(/_/g, " ")}</dt>
                  <dd>{text.length > 400 ? `${text.slice(0, 400)}…` : text}</dd>
                </div>
              ) : null;
            })}
          </dl>
          <Form method="post">
            <CsrfField />
            <input type="hidden" name="version" value={version.id} />
            <input type="hidden" name="revision" value={doc.revision} />
            <p>Restoring makes this version the draft. Publish it afterwards to put it on the site.</p>
            <button type="submit" className="button button--primary">
              Restore this version
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
