// /studio/releases/:id — one release: its documents, its time (set, change or clear),
// a preview of the site as it will be, publish now, delete.
import { requireStaff } from "../features/studio/access.server";
import { data, Form, Link, redirect, useFetcher } from "react-router";
import type { Route } from "./+types/studio.release";
import { CsrfField, formStyles, PostButton } from "../components/forms/Forms";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { deleteRelease, formToken, loadRelease, makePreview, publishRelease, releaseDocument, updateRelease } from "../features/studio/api.server";
import { localTimeToUtc, RELEASE_WORDS, ScheduleInput } from "../features/studio/ReleaseFields";
import styles from "../features/studio/studio.module.css";
import { statusText, when } from "../features/studio/words";

export async function loader({ params, context }: Route.LoaderArgs) {
  requireStaff(context);
  const r = await loadRelease(context, params.id);
  if (!r.ok && r.status === 404) throw new Response("This release could not be found", { status: 404, statusText: "Not Found" });
  if (!r.ok) throw new Response("The release could not be loaded just now", { status: 503 });
  return { release: r.body };
}

export const meta = privateMeta("Release");

export async function action({ request, params, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const intent = String(form.get("intent") ?? "");
  const id = params.id;
  if (intent === "schedule") {
    const at = String(form.get("scheduled_at") ?? "");
    const done = await updateRelease(context, csrf, id, { label: String(form.get("label") ?? "").trim() || undefined, scheduled_at: at || null });
    return done.ok ? { intent, ok: true, message: at ? "The time is set." : "It will not be published until you publish it." } : data({ intent, ...formFailure(done) }, { status: done.status || 502 });
  }
  if (intent === "publish") {
    const done = await publishRelease(context, csrf, id);
    return done.ok ? { intent, ok: true, message: "Published. Its documents are on the site now." } : data({ intent, ...formFailure(done) }, { status: done.status || 502 });
  }
  if (intent === "remove") {
    const done = await releaseDocument(context, csrf, id, String(form.get("document") ?? ""), false);
    return done.ok ? { intent, ok: true, message: "Taken out of the release." } : data({ intent, ...formFailure(done) }, { status: done.status || 502 });
  }
  if (intent === "delete") {
    const done = await deleteRelease(context, csrf, id);
    if (done.ok) throw redirect("/studio/releases");
    return data({ intent, ...formFailure(done) }, { status: done.status || 502 });
  }
  if (intent === "preview") {
    const done = await makePreview(context, csrf, { release_id: id });
    return done.ok && done.body ? { intent, ok: true, preview: done.body.url } : data({ intent, ...(done.ok ? { ok: false, message: "No preview." } : formFailure(done)) }, { status: 502 });
  }
  return data({ intent, ok: false, message: "Unknown action." }, { status: 400 });
}

type Answer = { intent: string; ok: boolean; message?: string; errors?: Record<string, string[]>; preview?: string };

export default function StudioRelease({ loaderData, actionData }: Route.ComponentProps) {
  const { release } = loaderData;
  const answer = actionData as Answer | undefined;
  const preview = useFetcher<Answer>();
  const published = release.status === "published";
  const errors = answer && !answer.ok ? (answer.errors ?? {}) : {};
  return (
    <>
      <p className={styles.breadcrumb}>
        <Link to="/studio/releases">Releases</Link>
      </p>
      <h1>{release.label}</h1>
      <p>
        <strong>{RELEASE_WORDS[release.status]}</strong>
        {release.status === "scheduled" && release.scheduled_at ? ` for ${when(release.scheduled_at)}` : ""}
        {published && release.published_at ? ` on ${when(release.published_at)}` : ""}
      </p>
      {release.status === "failed" ? (
        <p className={formStyles.error}>
          {release.error || "Something stopped it."} Correct the documents, then set a new time or publish it now.
        </p>
      ) : null}
      {answer ? (
        <div role={answer.ok ? "status" : "alert"} className={answer.ok ? styles.ok : formStyles.error}>
          <p>{answer.message ?? (answer.ok ? "" : "That did not work.")}</p>
          {Object.entries(errors).length ? (
            <ul>
              {Object.entries(errors).map(([k, m]) => (
                <li key={k}>{m.join(" ")}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <h2>Documents</h2>
      {(release.documents ?? []).length === 0 ? (
        <p>No documents yet. Add one from its editor (“Publish later”).</p>
      ) : (
        <ul className={styles.releaseList}>
          {(release.documents ?? []).map((d) => (
            <li key={d.id}>
              <Link to={`/studio/content/${encodeURIComponent(d.id)}`}>{d.title || d.uid || d.id}</Link> ({statusText(d.status)})
              {published ? null : (
                <Form method="post" className={styles.inlineForm}>
                  <CsrfField />
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="document" value={d.id} />
                  <button type="submit" className={styles.linkButton}>
                    Take it out<span className="visually-hidden"> of the release: {d.title || d.uid || d.id}</span>
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}

      {published ? null : (
        <>
          <section aria-labelledby="when-h" className={styles.panel}>
            <h2 id="when-h">When</h2>
            <Form method="post" aria-labelledby="when-h" onSubmit={localTimeToUtc}>
              <CsrfField />
              <input type="hidden" name="intent" value="schedule" />
              <ScheduleInput value={release.scheduled_at} errors={errors.scheduled_at} />
              <button type="submit" className="button button--primary">
                Save the time
              </button>
            </Form>
          </section>
          <section aria-labelledby="now-h" className={styles.panel}>
            <h2 id="now-h">Other actions</h2>
            <div className={styles.stack}>
              <preview.Form method="post">
                <CsrfField />
                <input type="hidden" name="intent" value="preview" />
                <button type="submit" className="button">
                  Preview the site with this release
                </button>
              </preview.Form>
              {preview.data?.preview ? (
                <p>
                  <a href={preview.data.preview} target="_blank" rel="noopener">
                    Open the preview in a new tab
                  </a>
                </p>
              ) : null}
              <PostButton intent="publish">
                Publish it now
              </PostButton>
              <PostButton intent="delete">
                Delete the release
              </PostButton>
            </div>
          </section>
        </>
      )}
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
