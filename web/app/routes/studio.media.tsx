// /studio/media — the picture library: find pictures, upload new ones (with their
// description and copyright), correct a picture's description. The editor's picture
// chooser uploads here too.
import { requireStaff } from "../features/studio/access.server";
import { data, Form, useFetcher } from "react-router";
import type { Route } from "./+types/studio.media";
import { CsrfField, formStyles } from "../components/forms/Forms";
import { Pagination } from "../components/Pagination";
import { formFailure } from "../features/auth/index.server";
import { privateMeta } from "../features/auth/meta";
import { RouteErrorBoundary } from "../features/navigation/RouteErrorBoundary";
import { formToken, listMedia, updateMedia, uploadMedia } from "../features/studio/api.server";
import { thumbUrl, UploadForm } from "../features/studio/MediaPicker";
import styles from "../features/studio/studio.module.css";
import type { Media } from "../features/studio/types";
import { when } from "../features/studio/words";
import { parsePageParam } from "../lib/paging";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(context);
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.trim() ?? "";
  const page = parsePageParam(url.searchParams.get("page")) ?? 1;
  const list = await listMedia(context, { q, page, page_size: 24 });
  if (!list.ok) throw new Response("The picture library could not be loaded just now", { status: 503 });
  return { q, list: list.body };
}

export const meta = privateMeta("Pictures");

export async function action({ request, context }: Route.ActionArgs) {
  requireStaff(context);
  const form = await request.formData();
  const csrf = formToken(form);
  const intent = String(form.get("intent") ?? "");
  if (intent === "upload") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return data({ intent, ok: false, errors: { file: ["Choose a picture to upload."] } }, { status: 422 });
    const body = new FormData();
    body.set("file", file, file.name);
    body.set("alt", String(form.get("alt") ?? ""));
    body.set("copyright", String(form.get("copyright") ?? ""));
    const done = await uploadMedia(context, csrf, body);
    if (done.ok && done.body) return { intent, ok: true, media: done.body, message: "Uploaded." };
    return data({ intent, ...(done.ok ? { ok: false, message: "The picture could not be uploaded just now." } : formFailure(done)) }, { status: done.ok ? 502 : done.status || 502 });
  }
  if (intent === "edit") {
    const id = String(form.get("id") ?? "");
    const done = await updateMedia(context, csrf, id, { alt: String(form.get("alt") ?? ""), copyright: String(form.get("copyright") ?? "") });
    if (done.ok && done.body) return { intent, ok: true, target: id, media: done.body, message: "Saved." };
    return data({ intent, target: id, ...(done.ok ? { ok: false } : formFailure(done)) }, { status: done.ok ? 502 : done.status || 502 });
  }
  return data({ intent, ok: false, message: "Unknown action." }, { status: 400 });
}

export default function StudioMedia({ loaderData }: Route.ComponentProps) {
  const { q, list } = loaderData;
  const totalPages = Math.max(1, Math.ceil(list.total / Math.max(1, list.page_size)));
  return (
    <>
      <h1>Pictures</h1>
      <section aria-labelledby="upload-h" className={styles.panel}>
        <h2 id="upload-h">Upload a picture</h2>
        <p>Smaller copies for phones and lists are made when it is uploaded.</p>
        <UploadForm idBase="library-upload" onUploaded={() => undefined} />
      </section>
      <search>
        <Form method="get" className={styles.addRow} aria-label="Find pictures">
          <label htmlFor="media-q">Find pictures</label>
          <input id="media-q" name="q" type="search" className={formStyles.input} defaultValue={q} />
          <button type="submit" className="button">
            Find
          </button>
        </Form>
      </search>
      <p role="status">{list.total === 0 ? "No pictures found." : list.total === 1 ? "1 picture." : `${list.total} pictures.`}</p>
      <ul className={styles.library}>
        {list.results.map((m) => (
          <MediaCard key={m.id} media={m} />
        ))}
      </ul>
      <Pagination page={list.page} totalPages={totalPages} basePath={q ? `/studio/media?q=${encodeURIComponent(q)}` : "/studio/media"} label="Pages of pictures" />
    </>
  );
}

function MediaCard({ media }: { media: Media }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string; errors?: Record<string, string[]>; media?: Media }>();
  const m = fetcher.data?.ok && fetcher.data.media ? fetcher.data.media : media;
  const id = `media-${m.id}`;
  const altErrors = fetcher.data && !fetcher.data.ok ? fetcher.data.errors?.alt : undefined;
  return (
    <li className={styles.libraryItem}>
      <img src={thumbUrl(m)} alt={m.alt} width={320} height={Math.round((320 * m.height) / Math.max(1, m.width))} loading="lazy" />
      <p className={styles.muted}>
        {m.name}, {m.width} × {m.height} pixels, {when(m.created_at)}
        {m.created_by ? ` by ${m.created_by.name}` : ""}
      </p>
      <fetcher.Form method="post" aria-label={`Description of ${m.name}`}>
        <CsrfField />
        <input type="hidden" name="intent" value="edit" />
        <input type="hidden" name="id" value={m.id} />
        <div className={altErrors ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
          <label htmlFor={`${id}-alt`}>Description (alt text)</label>
          {altErrors ? <p className={formStyles.error}>{altErrors.join(" ")}</p> : null}
          <input id={`${id}-alt`} name="alt" className={formStyles.input} defaultValue={m.alt} required />
        </div>
        <div className={formStyles.field}>
          <label htmlFor={`${id}-copyright`}>Copyright</label>
          <input id={`${id}-copyright`} name="copyright" className={formStyles.input} defaultValue={m.copyright ?? ""} />
        </div>
        <button type="submit" className="button">
          Save<span className="visually-hidden"> the description of {m.name}</span>
        </button>
        <span role="status">{fetcher.state === "idle" && fetcher.data ? (fetcher.data.ok ? " Saved." : ` ${fetcher.data.message ?? "Not saved."}`) : ""}</span>
      </fetcher.Form>
    </li>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
