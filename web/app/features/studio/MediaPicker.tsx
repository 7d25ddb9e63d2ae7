// The picture library inside the editor: find a picture to reuse, or upload a new one
// with its description (alt text) and copyright.
import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import formStyles from "../../components/forms/forms.module.css";
import { CsrfField } from "../../components/forms/Forms";
import styles from "./studio.module.css";
import type { Media, Page } from "./types";
import { LOOKUP_PATH } from "./LinkField";

export const MEDIA_PATH = "/studio/media";

export interface UploadAnswer {
  ok: boolean;
  intent?: string;
  media?: Media;
  message?: string;
  errors?: Record<string, string[]>;
}

/** A picture of the library, smallest variant that fits a thumbnail. */
export function thumbUrl(m: Pick<Media, "url" | "variants">): string {
  const small = [...(m.variants ?? [])].sort((a, b) => a.width - b.width).find((v) => v.width >= 300);
  return small?.url ?? m.url;
}

/** The upload form; calls onUploaded with the new picture. */
export function UploadForm({ onUploaded, idBase }: { onUploaded: (m: Media) => void; idBase: string }) {
  const fetcher = useFetcher<UploadAnswer>();
  const [seen, setSeen] = useState<UploadAnswer | undefined>(undefined);
  const answer = fetcher.data;
  useEffect(() => {
    if (answer && answer !== seen) {
      setSeen(answer);
      if (answer.ok && answer.media) onUploaded(answer.media);
    }
  }, [answer, seen, onUploaded]);
  const err = (name: string) => (answer && !answer.ok ? answer.errors?.[name] : undefined);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={MEDIA_PATH} encType="multipart/form-data" className={styles.upload} aria-label="Upload a new picture">
      <CsrfField />
      <input type="hidden" name="intent" value="upload" />
      {answer && !answer.ok && answer.message ? (
        <p role="alert" className={formStyles.error}>
          {answer.message}
        </p>
      ) : null}
      {(["file", "alt", "copyright"] as const).map((name) => {
        const id = `${idBase}-${name}`;
        const errors = err(name);
        const hint =
          name === "file"
            ? "A JPEG, PNG, GIF or WebP picture, at most 20 MB."
            : name === "alt"
              ? "Say what the picture shows, for people who cannot see it. Needed."
              : "Who owns the picture, if not the society. Optional.";
        return (
          <div key={name} className={errors ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
            <label htmlFor={id}>{name === "file" ? "Picture" : name === "alt" ? "Description (alt text)" : "Copyright"}</label>
            <p id={`${id}-hint`} className={formStyles.hint}>
              {hint}
            </p>
            {errors ? (
              <p id={`${id}-error`} className={formStyles.error}>
                <span className="visually-hidden">Error: </span>
                {errors.join(" ")}
              </p>
            ) : null}
            <input
              id={id}
              name={name}
              type={name === "file" ? "file" : "text"}
              accept={name === "file" ? "image/jpeg,image/png,image/gif,image/webp" : undefined}
              required={name !== "copyright"}
              className={formStyles.input}
              aria-describedby={`${id}-hint${errors ? ` ${id}-error` : ""}`}
              aria-invalid={errors ? true : undefined}
            />
          </div>
        );
      })}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Uploading…" : "Upload the picture"}
      </button>
    </fetcher.Form>
  );
}

/** Search the library and pick a picture, or upload one. */
export function MediaPicker({ onPick, onCancel }: { onPick: (m: Media) => void; onCancel: () => void }) {
  const idBase = useId().replace(/[^A-Za-z0-9_-]/g, "");
  const fetcher = useFetcher<Page<Media> & { message?: string }>();
  const [q, setQ] = useState("");
  useEffect(() => {
    const timer = window.setTimeout(() => void fetcher.load(`${LOOKUP_PATH}?${new URLSearchParams({ kind: "media", q })}`), 250);
    return () => window.clearTimeout(timer);
  }, [q]);
  const results = fetcher.data?.results ?? [];
  return (
    <div className={styles.picker}>
      <h4 className={styles.groupTitle}>Choose a picture</h4>
      <label htmlFor={`${idBase}-q`}>Find a picture in the library</label>
      <input id={`${idBase}-q`} type="search" className={formStyles.input} value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      <div aria-live="polite">
        {fetcher.data?.message ? <p>{fetcher.data.message}</p> : null}
        {fetcher.state === "idle" && fetcher.data && results.length === 0 ? <p>No pictures found.</p> : null}
      </div>
      {results.length ? (
        <ul className={styles.mediaGrid}>
          {results.map((m) => (
            <li key={m.id}>
              <button type="button" className={styles.mediaChoice} onClick={() => onPick(m)}>
                <img src={thumbUrl(m)} alt="" width={160} height={Math.round((160 * m.height) / Math.max(1, m.width))} loading="lazy" />
                <span>
                  <span className="visually-hidden">Choose </span>
                  {m.alt || m.name}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <details className={styles.details}>
        <summary>Upload a new picture</summary>
        <UploadForm idBase={`${idBase}-up`} onUploaded={onPick} />
      </details>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
