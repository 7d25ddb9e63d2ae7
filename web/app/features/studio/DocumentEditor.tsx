// The editor of one document: its fields generated from the type's model, saved as
// the editor types (autosave), kept in this browser until the server has them, with
// the API's messages at their fields, a warning when someone else saved meanwhile,
// publishing, preview, scheduling in a release and the other document actions.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link, useFetcher, useRouteLoaderData } from "react-router";
import { ErrorText } from "../../components/forms/Forms";
import formStyles from "../../components/forms/forms.module.css";
import { linkResolver } from "../content";
import type { FieldErrors } from "../../lib/form-result";
import { controlId, errorsUnder, nearestControl } from "./errors";
import { EditorContext, FieldEditor, useEditorEnv } from "./fields";
import { draftToOffer, dropDraft, keepDraft, sameContent, type DraftContent, type LocalDraft } from "./local-draft";
import { LOOKUP_PATH } from "./LinkField";
import { hasUid, labelOf, tabsOf, typeLabel, withAllFields, type CustomType, type SliceModel } from "./models";
import { plainText } from "./richtext";
import styles from "./studio.module.css";
import type { Release, StudioDocument, UidCheck } from "./types";
import { addTags, slugify, statusText, when } from "./words";

export interface EditorAnswer {
  intent: string;
  ok: boolean;
  status?: number;
  message?: string;
  errors?: FieldErrors;
  document?: StudioDocument;
  /** The stored document when a save met someone else's (409). */
  current?: StudioDocument;
  preview?: { url: string };
}

type SaveState = "saved" | "waiting" | "saving" | "invalid" | "failed" | "conflict" | "signed-out";

const AUTOSAVE_MS = 1200;

function contentOf(doc: Pick<StudioDocument, "uid" | "tags" | "data">, type: CustomType): DraftContent {
  return { uid: doc.uid ?? null, tags: doc.tags ?? [], data: withAllFields(type, doc.data) };
}

function localStore(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function DocumentEditor({ doc: initial, type, slices, tags: knownTags, releases }: { doc: StudioDocument; type: CustomType; slices: SliceModel[]; tags: string[]; releases: Release[] }) {
  const root = useRouteLoaderData("root") as { csrf?: string | null } | undefined;
  const csrf = root?.csrf ?? "";
  const saver = useFetcher<EditorAnswer>({ key: `studio-save-${initial.id}` });
  const actor = useFetcher<EditorAnswer>();
  const [doc, setDoc] = useState(initial);
  const [content, setContent] = useState<DraftContent>(() => contentOf(initial, type));
  const [revision, setRevision] = useState(initial.revision);
  const [state, setState] = useState<SaveState>("saved");
  const [errors, setErrors] = useState<FieldErrors | undefined>(undefined);
  const [message, setMessage] = useState("");
  const [offer, setOffer] = useState<LocalDraft | null>(null);
  const [conflict, setConflict] = useState<StudioDocument | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [focusProblems, setFocusProblems] = useState(0);
  const sent = useRef<DraftContent | null>(null);
  const handled = useRef<EditorAnswer | undefined>(undefined);
  const handledAction = useRef<EditorAnswer | undefined>(undefined);

  // A new document loaded into the same route (after a restore, a duplicate): start from it.
  useEffect(() => {
    setDoc(initial);
    setRevision(initial.revision);
    setContent(contentOf(initial, type));
    setState("saved");
    setErrors(undefined);
    setConflict(null);
  }, [initial, type]);

  // Changes kept in this browser that the server does not have: offer them back.
  useEffect(() => {
    setOffer(draftToOffer(localStore(), initial.id, contentOf(initial, type)));
  }, [initial, type]);

  const change = useCallback(
    (next: DraftContent) => {
      setContent(next);
      setState((s) => (s === "conflict" || s === "signed-out" ? s : "waiting"));
      keepDraft(localStore(), initial.id, { ...next, revision, changedAt: new Date().toISOString() });
    },
    [initial.id, revision],
  );
  const setData = (id: string, v: unknown) => change({ ...content, data: { ...content.data, [id]: v } });

  const payload = useCallback((c: DraftContent) => JSON.stringify({ revision, uid: c.uid, tags: c.tags, data: c.data }), [revision]);

  const save = useCallback(() => {
    sent.current = content;
    setState("saving");
    void saver.submit({ intent: "save", _token: csrf, payload: payload(content) }, { method: "post" });
  }, [content, csrf, payload, saver]);

  // Autosave: a moment after the last change, when no save (nor an action's) is under way.
  useEffect(() => {
    if (state !== "waiting" || saver.state !== "idle" || actor.state !== "idle") return;
    const timer = window.setTimeout(save, AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [state, saver.state, actor.state, save]);

  // The answer to a save.
  useEffect(() => {
    const answer = saver.data;
    if (!answer || saver.state !== "idle" || handled.current === answer) return;
    handled.current = answer;
    if (answer.ok && answer.document) {
      const d = answer.document;
      setDoc(d);
      setRevision(d.revision);
      setErrors(undefined);
      setSavedAt(new Date().toISOString());
      const stillSame = sent.current !== null && sameContent(sent.current, content);
      if (stillSame) {
        dropDraft(localStore(), initial.id);
        setState("saved");
      } else {
        keepDraft(localStore(), initial.id, { ...content, revision: d.revision, changedAt: new Date().toISOString() });
        setState("waiting");
      }
      return;
    }
    if (answer.status === 409) {
      setConflict(answer.current ?? null);
      setState("conflict");
      return;
    }
    if (answer.status === 422) {
      setErrors(answer.errors);
      setState("invalid");
      return;
    }
    if (answer.status === 401 || answer.status === 419) {
      setState("signed-out");
      return;
    }
    setMessage(answer.message ?? "");
    setState("failed");
  }, [saver.data, saver.state, content, initial.id]);

  // The answer to publish, preview and the other actions (each saved what was on screen first).
  useEffect(() => {
    const answer = actor.data;
    if (!answer || actor.state !== "idle" || handledAction.current === answer) return;
    handledAction.current = answer;
    if (answer.document) {
      setDoc(answer.document);
      setRevision(answer.document.revision);
      if (sameContent(contentOf(answer.document, type), content)) {
        dropDraft(localStore(), initial.id);
        setState("saved");
      } else {
        setState("waiting");
      }
    }
    if (answer.ok) setErrors(undefined);
    else if (answer.errors && Object.keys(answer.errors).length) {
      setErrors(answer.errors);
      // A button the editor pressed was refused: take them to the list of problems
      // (autosave's messages never move focus while one types).
      setFocusProblems((n) => n + 1);
    }
    if (answer.ok || answer.document) return;
    // The save before the action did not happen.
    if (answer.status === 409) {
      setConflict(answer.current ?? null);
      setState("conflict");
    } else if (answer.status === 422) setState("invalid");
    else if (answer.status === 401 || answer.status === 419) setState("signed-out");
    else {
      setMessage(answer.message ?? "");
      setState("failed");
    }
  }, [actor.data, actor.state, content, initial.id, type]);

  useEffect(() => {
    if (focusProblems > 0) document.querySelector<HTMLElement>("[data-error-summary]")?.focus();
  }, [focusProblems]);

  const act = (intent: string, extra: Record<string, string> = {}) => {
    sent.current = content;
    // No autosave beside the action's own save (both would send the same revision).
    setState("saving");
    void actor.submit({ intent, _token: csrf, payload: payload(content), ...extra }, { method: "post" });
  };

  const tabs = useMemo(() => tabsOf(type), [type]);
  const title = plainText(content.data.title) || content.uid || `Untitled ${typeLabel(type).toLowerCase()}`;
  const allErrors = { ...(errors ?? {}) };
  // While a save or an action is under way, the actions wait (they save first themselves).
  const busy = actor.state !== "idle" || saver.state !== "idle";
  const publishing = busy && actor.formData?.get("intent") === "publish";
  // Where the published version is on the site (the link resolver, as the site places it).
  const siteUrl = doc.status === "published" && doc.published ? linkResolver({ type: doc.type, uid: doc.published.uid, data: doc.published.data }) : null;

  return (
    <EditorContext.Provider value={{ errors, slices }}>
      <div className={styles.editor}>
        <p className={styles.breadcrumb}>
          <Link to={`/studio/content?type=${encodeURIComponent(type.id)}`}>{typeLabel(type)}s</Link>
        </p>
        <h1 className={styles.title}>{title}</h1>
        <p>
          <strong>{statusText(doc.status, doc.has_changes)}</strong>
          {siteUrl ? (
            <>
              {" · "}
              <a href={siteUrl}>See it on the site</a>
            </>
          ) : null}
          {doc.releases?.length ? ` · In ${doc.releases.map((r) => `“${r.label}”${r.scheduled_at ? ` (${when(r.scheduled_at)})` : ""}`).join(", ")}` : ""}
        </p>

        <SaveStatus state={state} savedAt={savedAt} message={message} onRetry={save} />

        {offer ? (
          <div className={`notice ${styles.notice}`} role="region" aria-label="Changes kept on this computer">
            <h2>Changes you made were not saved</h2>
            <p>
              This computer kept changes you made {offer.changedAt ? `on ${when(offer.changedAt)}` : "earlier"} that were not saved.
              {offer.revision !== doc.revision ? " Someone has saved the document since then: restoring your changes replaces theirs." : ""}
            </p>
            <div className={styles.tools}>
              <button
                type="button"
                className="button button--primary"
                onClick={() => {
                  setOffer(null);
                  change({ uid: offer.uid, tags: offer.tags, data: withAllFields(type, offer.data) });
                }}
              >
                Restore my changes
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  dropDraft(localStore(), initial.id);
                  setOffer(null);
                }}
              >
                Discard them
              </button>
            </div>
          </div>
        ) : null}

        {conflict || state === "conflict" ? (
          <div className={`notice ${styles.notice}`} role="alert">
            <h2>Someone else saved this document</h2>
            <p>
              {conflict?.updated_by ? `${conflict.updated_by.name} saved it` : "It was saved by someone else"}
              {conflict?.updated_at ? ` on ${when(conflict.updated_at)}` : ""}, after you opened it. Your changes are still here and kept on this computer.
            </p>
            <div className={styles.tools}>
              <button
                type="button"
                className="button button--primary"
                onClick={() => {
                  if (conflict) setRevision(conflict.revision);
                  setConflict(null);
                  setState("waiting");
                }}
                disabled={!conflict}
              >
                Keep my version and save it
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  if (conflict) {
                    dropDraft(localStore(), initial.id);
                    setDoc(conflict);
                    setRevision(conflict.revision);
                    setContent(contentOf(conflict, type));
                  }
                  setConflict(null);
                  setState("saved");
                }}
                disabled={!conflict}
              >
                Use their version instead
              </button>
            </div>
          </div>
        ) : null}

        <ErrorList errors={allErrors} />

        <div className={styles.columns}>
          <div className={styles.fields}>
            {hasUid(type) ? <UidField type={type} docId={doc.id} lang={doc.lang} value={content.uid} title={plainText(content.data.title)} onChange={(uid) => change({ ...content, uid })} /> : null}
            {tabs.map((tab) => (
              <section key={tab.name} aria-label={tabs.length > 1 ? tab.name : undefined}>
                {tabs.length > 1 ? <h2>{tab.name}</h2> : null}
                {tab.fields.map((f) => (
                  <FieldEditor key={f.id} path={`data.${f.id}`} field={f} value={content.data[f.id]} onChange={(v) => setData(f.id, v)} />
                ))}
              </section>
            ))}
            <TagsField tags={content.tags} known={knownTags} onChange={(tags) => change({ ...content, tags })} />
          </div>

          <aside className={styles.side} aria-label="Publishing">
            <h2>Publishing</h2>
            {Object.keys(doc.problems ?? {}).length ? (
              <div>
                <p>Before it can be published:</p>
                <ErrorLinks errors={doc.problems} />
              </div>
            ) : null}
            <div className={styles.stack}>
              <button type="button" className="button button--primary" disabled={busy || doc.status === "archived"} onClick={() => act("publish")}>
                {publishing ? "Publishing…" : doc.status === "published" && !doc.has_changes ? "Publish again" : "Publish now"}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => act("preview")}>
                Preview
              </button>
            </div>
            <ActionOutcome answer={actor.state === "idle" ? actor.data : undefined} />
            {actor.data?.preview && actor.state === "idle" ? <PreviewLinks url={actor.data.preview.url} /> : null}

            <ScheduleForm doc={doc} releases={releases} busy={busy} act={act} />

            <h2>More</h2>
            <div className={styles.stack}>
              <Link className="button" to={`/studio/content/${encodeURIComponent(doc.id)}/history`}>
                History and earlier versions
              </Link>
              <button type="button" className="button" disabled={busy} onClick={() => act("duplicate")}>
                Make a copy
              </button>
              {doc.status === "published" ? (
                <button type="button" className="button" disabled={busy} onClick={() => act("unpublish")}>
                  Take it off the site
                </button>
              ) : null}
              {doc.status === "archived" ? (
                <button type="button" className="button" disabled={busy} onClick={() => act("unarchive")}>
                  Bring it back from the archive
                </button>
              ) : (
                <button type="button" className="button" disabled={busy} onClick={() => act("archive")}>
                  Archive it
                </button>
              )}
            </div>
          </aside>
        </div>
      </div>
    </EditorContext.Provider>
  );
}

function SaveStatus({ state, savedAt, message, onRetry }: { state: SaveState; savedAt: string | null; message: string; onRetry: () => void }) {
  const signIn = typeof window === "undefined" ? "/sign-in" : `/sign-in?redirect=${encodeURIComponent(window.location.pathname)}`;
  const text: Record<SaveState, string> = {
    saved: savedAt ? `All changes saved (${new Date(savedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}).` : "No changes yet.",
    waiting: "Changes not saved yet…",
    saving: "Saving…",
    invalid: "Not saved: please correct the problems marked below. Your changes are kept on this computer.",
    failed: `Not saved: ${message || "the server did not answer"}. Your changes are kept on this computer.`,
    conflict: "Not saved: someone else saved this document after you opened it.",
    "signed-out": "Not saved: you have been signed out. Your changes are kept on this computer; sign in again to save them.",
  };
  return (
    <div className={styles.saveStatus} data-state={state}>
      <p role="status">{text[state]}</p>
      {state === "failed" ? (
        <button type="button" className="button" onClick={onRetry}>
          Try saving again
        </button>
      ) : null}
      {state === "signed-out" ? (
        <a className="button" href={signIn}>
          Sign in again
        </a>
      ) : null}
    </div>
  );
}

function ActionOutcome({ answer }: { answer: EditorAnswer | undefined }) {
  if (!answer || answer.intent === "save") return null;
  const done: Record<string, string> = {
    publish: "Published. It is on the site now.",
    unpublish: "Taken off the site. It is a draft again.",
    archive: "Archived.",
    unarchive: "Back from the archive, as a draft.",
    schedule: "Added to the release.",
    unschedule: "Taken out of the release.",
    preview: "",
  };
  const text = answer.ok ? done[answer.intent] : answer.message || (answer.errors && Object.keys(answer.errors).length ? "It cannot be published yet: see the problems marked in the form." : "That did not work. Please try again.");
  return text ? (
    <p role="status" className={answer.ok ? styles.ok : formStyles.error}>
      {text}
    </p>
  ) : null;
}

function PreviewLinks({ url }: { url: string }) {
  const [beside, setBeside] = useState(false);
  return (
    <div className={styles.preview}>
      <p>
        <a href={url} target="_blank" rel="noopener">
          Open the preview in a new tab
        </a>
      </p>
      <button type="button" className="button" aria-expanded={beside} onClick={() => setBeside(!beside)}>
        {beside ? "Hide the preview" : "Show the preview here"}
      </button>
      {beside ? <iframe title="Preview of the page" src={url} className={styles.previewFrame} /> : null}
    </div>
  );
}

/** Every message of the last answer, each a link to its field. */
function ErrorList({ errors }: { errors: FieldErrors }) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return (
    <div className={formStyles.summary} role="alert" tabIndex={-1} data-error-summary="">
      <h2>There is a problem</h2>
      <ErrorLinks errors={errors} />
    </div>
  );
}

/** Each message of errors as a link to its field. */
function ErrorLinks({ errors }: { errors: FieldErrors }) {
  return (
    <ul>
      {Object.entries(errors).map(([path, msgs]) =>
        msgs.map((m) => (
          <li key={`${path}:${m}`}>
            <ErrorLink path={path}>{m}</ErrorLink>
          </li>
        )),
      )}
    </ul>
  );
}

function ErrorLink({ path, children }: { path: string; children: string }) {
  return (
    <a
      href={`#${controlId(path)}`}
      onClick={(e) => {
        const id = nearestControl(path, (x) => document.getElementById(x) !== null);
        const el = id ? document.getElementById(id) : null;
        if (el) {
          e.preventDefault();
          el.focus();
          el.scrollIntoView({ block: "center" });
        }
      }}
    >
      {children}
    </a>
  );
}

function UidField({ type, docId, lang, value, title, onChange }: { type: CustomType; docId: string; lang: string; value: string | null; title: string; onChange: (uid: string | null) => void }) {
  const checker = useFetcher<UidCheck & { message?: string }>();
  const uidModel = Object.values(type.json ?? {}).flatMap((f) => Object.entries(f)).find(([, m]) => m.type === "UID");
  const label = uidModel ? labelOf(uidModel[0], uidModel[1]) : "Address";
  const id = controlId("uid");
  useEffect(() => {
    if (!value) return;
    const timer = window.setTimeout(() => void checker.load(`${LOOKUP_PATH}?${new URLSearchParams({ kind: "uid", type: type.id, lang, uid: value, id: docId })}`), 400);
    return () => window.clearTimeout(timer);
  }, [value, type.id, lang, docId]);
  const check = checker.data && checker.data.uid === value ? checker.data : null;
  return (
    <UidFrame id={id} label={label} check={check}>
      {(describedBy, invalid) => (
        <>
          <input
            id={id}
            className={formStyles.input}
            value={value ?? ""}
            onChange={(e) => onChange(e.target.value.trim() ? e.target.value.trim().toLowerCase() : null)}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            spellCheck={false}
          />
          {title && slugify(title) !== value ? (
            <button type="button" className={styles.linkButton} onClick={() => onChange(slugify(title))}>
              Make it from the title: {slugify(title)}
            </button>
          ) : null}
        </>
      )}
    </UidFrame>
  );
}

function UidFrame({ id, label, check, children }: { id: string; label: string; check: (UidCheck & { message?: string }) | null; children: (d: string, invalid: boolean) => ReactNode }) {
  const ctxErrors = useEditorEnv().errors;
  const messages = errorsUnder(ctxErrors, "uid");
  const bad = messages.length > 0 || (check !== null && (!check.valid || !check.available));
  return (
    <div className={bad ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-hint`} className={formStyles.hint}>
        Lower-case letters, numbers and hyphens. It becomes the end of the page’s web address.
      </p>
      <ErrorText id={`${id}-error`} errors={messages} />
      <p id={`${id}-check`} className={check && (!check.valid || !check.available) ? formStyles.error : styles.muted} aria-live="polite">
        {check ? (check.valid && check.available ? "This address is free." : check.message || "This address cannot be used.") : ""}
      </p>
      {children(`${id}-hint ${id}-check${messages.length ? ` ${id}-error` : ""}`, bad)}
    </div>
  );
}

function TagsField({ tags, known, onChange }: { tags: string[]; known: string[]; onChange: (tags: string[]) => void }) {
  const [typed, setTyped] = useState("");
  const errors = useEditorEnv().errors;
  const messages = errorsUnder(errors, "tags");
  const id = controlId("tags");
  const add = () => {
    onChange(addTags(tags, typed));
    setTyped("");
  };
  return (
    <fieldset className={`${formStyles.field} ${styles.fieldset} ${messages.length ? formStyles.fieldError : ""}`}>
      <legend className={formStyles.legend}>Tags</legend>
      {messages.length ? <p className={formStyles.error}>{messages.join(" ")}</p> : null}
      {tags.length ? (
        <ul className={styles.tags}>
          {tags.map((t) => (
            <li key={t}>
              {t}{" "}
              <button type="button" className={styles.linkButton} onClick={() => onChange(tags.filter((x) => x !== t))}>
                Remove<span className="visually-hidden"> the tag {t}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>No tags.</p>
      )}
      <label htmlFor={id}>Add a tag</label>
      <p id={`${id}-hint`} className={formStyles.hint}>
        Tags group documents (for example “news” or “dna”). Separate several with commas.
      </p>
      <div className={styles.addRow}>
        <input
          id={id}
          className={formStyles.input}
          list={`${id}-known`}
          value={typed}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <datalist id={`${id}-known`}>
          {known.filter((k) => !tags.includes(k)).map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <button type="button" className="button" onClick={add} disabled={!typed.trim()}>
          Add the tag
        </button>
      </div>
    </fieldset>
  );
}

/** Put this document in a release, new or existing, to publish it at a set time. */
function ScheduleForm({ doc, releases, busy, act }: { doc: StudioDocument; releases: Release[]; busy: boolean; act: (intent: string, extra?: Record<string, string>) => void }) {
  const [choice, setChoice] = useState("new");
  const [label, setLabel] = useState("");
  const [at, setAt] = useState("");
  const open = releases.filter((r) => r.status !== "published" && !doc.releases?.some((d) => d.id === r.id));
  const id = "schedule";
  return (
    <section aria-labelledby={`${id}-h`} className={styles.schedule}>
      <h2 id={`${id}-h`}>Publish later</h2>
      {doc.releases?.length ? (
        <ul>
          {doc.releases.map((r) => (
            <li key={r.id}>
              In <Link to={`/studio/releases/${encodeURIComponent(r.id)}`}>“{r.label}”</Link>
              {r.scheduled_at ? `, to be published on ${when(r.scheduled_at)}` : ", not scheduled yet"}{" "}
              <button type="button" className={styles.linkButton} disabled={busy} onClick={() => act("unschedule", { release: r.id })}>
                Take it out<span className="visually-hidden"> of “{r.label}”</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>A release publishes its documents together, at the time you set.</p>
      )}
      <div className={formStyles.field}>
        <label htmlFor={`${id}-release`}>Add it to</label>
        <select id={`${id}-release`} className={formStyles.input} value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="new">A new release</option>
          {open.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
              {r.scheduled_at ? ` (${when(r.scheduled_at)})` : ""}
            </option>
          ))}
        </select>
      </div>
      {choice === "new" ? (
        <>
          <div className={formStyles.field}>
            <label htmlFor={`${id}-label`}>Name of the release</label>
            <input id={`${id}-label`} className={formStyles.input} value={label} onChange={(e) => setLabel(e.target.value)} />
          </div>
          <div className={formStyles.field}>
            <label htmlFor={`${id}-at`}>Publish on (date and time)</label>
            <p id={`${id}-at-hint`} className={formStyles.hint}>
              In this computer’s time. Leave it empty to set the time later.
            </p>
            <input id={`${id}-at`} type="datetime-local" step={1} className={formStyles.input} value={at} aria-describedby={`${id}-at-hint`} onChange={(e) => setAt(e.target.value)} />
          </div>
        </>
      ) : null}
      <button
        type="button"
        className="button"
        disabled={busy || (choice === "new" && !label.trim())}
        onClick={() => {
          const scheduled = at ? new Date(at) : null;
          act("schedule", choice === "new" ? { label: label.trim(), scheduled_at: scheduled && !Number.isNaN(scheduled.getTime()) ? scheduled.toISOString() : "" } : { release: choice });
        }}
      >
        {choice === "new" ? "Make the release and add this document" : "Add it to the release"}
      </button>
    </section>
  );
}
