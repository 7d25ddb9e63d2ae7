// A link: to a document of the site (found with a search) or a web address.
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import formStyles from "../../components/forms/forms.module.css";
import { controlId, errorsUnder } from "./errors";
import { FieldFrame, useEditorEnv } from "./fields";
import type { FieldModel } from "./models";
import { linkWords, validLinkUrl } from "./richtext";
import styles from "./studio.module.css";
import type { LinkTarget } from "./types";

export const LOOKUP_PATH = "/studio/content/lookup";

export type LinkValue = Record<string, unknown> & { link_type?: string };

/** Finds documents of the site to link to and gives the chosen one's link. */
export function DocumentSearch({ idBase, types, onPick }: { idBase: string; types?: string[]; onPick: (v: LinkValue) => void }) {
  const fetcher = useFetcher<{ results?: LinkTarget[]; message?: string }>();
  const [q, setQ] = useState("");
  const type = types?.length === 1 ? types[0] : undefined;
  useEffect(() => {
    const timer = window.setTimeout(() => {
      void fetcher.load(`${LOOKUP_PATH}?${new URLSearchParams({ kind: "links", q, ...(type ? { type } : {}) })}`);
    }, 250);
    return () => window.clearTimeout(timer);
    // A new search only when the words change (fetcher.load is the fetcher's own).
  }, [q, type]);
  const results = (fetcher.data?.results ?? []).filter((r) => !types?.length || types.includes(r.type));
  return (
    <div className={styles.picker}>
      <label htmlFor={`${idBase}-search`}>Find a page of this site</label>
      <input id={`${idBase}-search`} type="search" className={formStyles.input} value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      <div aria-live="polite">
        {fetcher.state === "loading" ? <p>Searching…</p> : null}
        {fetcher.data?.message ? <p>{fetcher.data.message}</p> : null}
        {fetcher.state === "idle" && fetcher.data && results.length === 0 ? <p>Nothing found.</p> : null}
      </div>
      {results.length ? (
        <ul className={styles.choices}>
          {results.map((r) => (
            <li key={r.id}>
              <button type="button" className="button" onClick={() => onPick({ link_type: "Document", id: r.id, type: r.type, uid: r.uid, lang: r.lang })}>
                Choose <span className="visually-hidden">: </span>“{r.title}”
              </button>{" "}
              <span className={styles.muted}>
                {r.type.replace(/_/g, " ")}
                {r.url ? `, ${r.url}` : ""}
                {r.status !== "published" ? ` (${r.status})` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Choose what a link goes to: a page of this site, a web address, or nothing. */
export function LinkChooser({ idBase, value, onChange, select, customtypes }: { idBase: string; value: LinkValue; onChange: (v: LinkValue) => void; select?: string | null; customtypes?: string[] }) {
  const current = value.link_type === "Document" ? "document" : value.link_type === "Web" ? "web" : "none";
  const [kind, setKind] = useState<"document" | "web" | "none">(current);
  const [url, setUrl] = useState(typeof value.url === "string" ? value.url : "");
  const offers = (["document", "web"] as const).filter((k) => !select || select === k);
  const urlBad = kind === "web" && url !== "" && !validLinkUrl(url) && !url.startsWith("/");
  return (
    <div>
      {value.link_type === "Document" || value.link_type === "Web" ? (
        <p>
          Goes to: <strong>{linkWords(value)}</strong>
        </p>
      ) : null}
      <fieldset className={styles.inlineFieldset}>
        <legend className="visually-hidden">Link to</legend>
        {offers.map((k) => (
          <label key={k} className={styles.radio}>
            <input type="radio" name={`${idBase}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
            {k === "document" ? "A page of this site" : "A web address"}
          </label>
        ))}
        <label className={styles.radio}>
          <input
            type="radio"
            name={`${idBase}-kind`}
            value="none"
            checked={kind === "none"}
            onChange={() => {
              setKind("none");
              onChange({ link_type: "Any" });
            }}
          />
          No link
        </label>
      </fieldset>
      {kind === "document" ? <DocumentSearch idBase={idBase} types={customtypes} onPick={onChange} /> : null}
      {kind === "web" ? (
        <div className={formStyles.field}>
          <label htmlFor={`${idBase}-url`}>Web address</label>
          <p id={`${idBase}-url-hint`} className={formStyles.hint}>
            Starting with https://, or mailto: for an email address.
          </p>
          {urlBad ? (
            <p id={`${idBase}-url-error`} className={formStyles.error}>
              That does not look like a web address.
            </p>
          ) : null}
          <input
            id={`${idBase}-url`}
            type="url"
            className={formStyles.input}
            value={url}
            aria-describedby={`${idBase}-url-hint${urlBad ? ` ${idBase}-url-error` : ""}`}
            aria-invalid={urlBad || undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              onChange(e.target.value ? { link_type: "Web", url: e.target.value.trim() } : { link_type: "Any" });
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

/** A Link field of a document. */
export function LinkField({ path, label, hint, model, value, onChange }: { path: string; label: string; hint?: string; model: FieldModel; value: unknown; onChange: (v: unknown) => void }) {
  const { errors } = useEditorEnv();
  const v = (value && typeof value === "object" ? value : { link_type: "Any" }) as LinkValue;
  return (
    <FieldFrame as="fieldset" path={path} label={label} hint={hint} messages={errorsUnder(errors, path)}>
      {() => (
        <div id={controlId(path)} tabIndex={-1}>
          <LinkChooser idBase={controlId(path)} value={v} onChange={onChange} select={model.config?.select} customtypes={model.config?.customtypes} />
        </div>
      )}
    </FieldFrame>
  );
}
