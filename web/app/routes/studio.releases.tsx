// /studio/releases — groups of changes published together, now or at a set time.
import { requireStaff } from "../features/studio/access.server";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/studio.releases";
import { CsrfField, formStyles } from "../components/forms/Forms";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { createRelease, formToken, listReleases } from "../features/studio/api.server";
import styles from "../features/studio/studio.module.css";
import { when } from "../features/studio/words";
import { localTimeToUtc, RELEASE_WORDS, ScheduleInput } from "../features/studio/ReleaseFields";

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context);
  const list = await listReleases(context);
  if (!list.ok) throw new Response("The releases could not be loaded just now", { status: 503 });
  return { releases: list.body.results };
}

export const meta = privateMeta("Releases");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const at = String(form.get("scheduled_at") ?? "");
  const done = await createRelease(context, csrf, { label: String(form.get("label") ?? "").trim(), scheduled_at: at || null });
  if (done.ok && done.body) throw redirect(`/studio/releases/${encodeURIComponent(done.body.id)}`);
  return data(done.ok ? { ok: false, message: "The release could not be made just now." } : formFailure(done), { status: done.ok ? 502 : done.status || 502 });
}

export default function StudioReleases({ loaderData, actionData }: Route.ComponentProps) {
  const { releases } = loaderData;
  const errors = actionData && !actionData.ok ? (actionData.errors ?? {}) : {};
  return (
    <>
      <h1>Releases</h1>
      <p>A release publishes several documents together, at once or at the time you set. Add documents to a release from their editor.</p>
      {releases.length === 0 ? (
        <p>There are no releases yet.</p>
      ) : (
        <ul className={styles.releaseList}>
          {releases.map((r) => (
            <li key={r.id}>
              <Link to={`/studio/releases/${encodeURIComponent(r.id)}`}>{r.label}</Link> — {RELEASE_WORDS[r.status]}
              {r.status === "scheduled" && r.scheduled_at ? ` for ${when(r.scheduled_at)}` : ""}
              {r.status === "published" && r.published_at ? ` on ${when(r.published_at)}` : ""}, {(r.documents ?? []).length === 1 ? "1 document" : `${(r.documents ?? []).length} documents`}
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="new-release" className={styles.panel}>
        <h2 id="new-release">New release</h2>
        {actionData && !actionData.ok && actionData.message ? (
          <p role="alert" className={formStyles.error}>
            {actionData.message}
          </p>
        ) : null}
        <Form method="post" aria-labelledby="new-release" onSubmit={localTimeToUtc}>
          <CsrfField />
          <div className={errors.label ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
            <label htmlFor="release-label">Name</label>
            {errors.label ? <p className={formStyles.error}>{errors.label.join(" ")}</p> : null}
            <input id="release-label" name="label" className={formStyles.input} required />
          </div>
          <ScheduleInput errors={errors.scheduled_at} />
          <button type="submit" className="button button--primary">
            Make the release
          </button>
        </Form>
      </section>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
