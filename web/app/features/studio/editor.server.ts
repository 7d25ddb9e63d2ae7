// The editor's action: autosave, and publish, preview, schedule and the other document
// actions, each after saving what the browser sent (so what goes live or is previewed
// is what the editor sees). Answers an EditorAnswer; never throws for an API failure.
import { redirect } from "react-router";
import { getAuth } from "../auth/index.server";
import type { ApiFailure } from "../../lib/api-result";
import {
  createRelease,
  documentAction,
  formToken,
  loadDocument,
  makePreview,
  releaseDocument,
  saveDocument,
  updateRelease,
} from "./api.server";
import type { EditorAnswer } from "./DocumentEditor";
import type { StudioDocument } from "./types";

type Context = Parameters<typeof getAuth>[0];

const FAILED = "the server did not answer";

function failure(intent: string, f: ApiFailure): EditorAnswer {
  const message =
    f.status === 0 || f.status >= 500
      ? FAILED
      : f.status === 413
        ? f.message ?? "The document is too large to save."
        : f.status === 404
          ? "This document no longer exists."
          : f.status === 403
            ? "You are not allowed to do that."
            : f.message;
  return { intent, ok: false, status: f.status, message, errors: f.errors };
}

interface Payload {
  revision: number;
  uid: string | null;
  tags: string[];
  data: Record<string, unknown>;
}

/** The document the browser sent, or null when the field is missing or not the right shape. */
export function parsePayload(raw: FormDataEntryValue | null): Payload | null {
  if (typeof raw !== "string" || raw.length === 0) return null;
  try {
    const p = JSON.parse(raw) as Partial<Payload>;
    if (!p || typeof p !== "object" || typeof p.revision !== "number" || !Array.isArray(p.tags) || !p.data || typeof p.data !== "object" || Array.isArray(p.data)) return null;
    return { revision: p.revision, uid: typeof p.uid === "string" ? p.uid : null, tags: p.tags.filter((t): t is string => typeof t === "string"), data: p.data as Record<string, unknown> };
  } catch {
    return null;
  }
}

async function saved(context: Context, csrf: string | null, id: string, intent: string, payload: Payload | null): Promise<{ doc?: StudioDocument; answer?: EditorAnswer }> {
  if (!payload) return {};
  const done = await saveDocument(context, csrf, id, payload);
  if (done.ok && done.body) return { doc: done.body };
  if (!done.ok && done.status === 409) {
    const current = await loadDocument(context, id);
    return { answer: { ...failure(intent, done), current: current.ok ? current.body : undefined } };
  }
  return { answer: done.ok ? { intent, ok: false, message: FAILED } : failure(intent, done) };
}

export async function editorAction(context: Context, id: string, form: FormData): Promise<EditorAnswer | Response> {
  const intent = String(form.get("intent") ?? "");
  const csrf = formToken(form);
  const payload = parsePayload(form.get("payload"));
  if (form.has("payload") && !payload) return { intent, ok: false, status: 400, message: "The editor sent something it should not have. Please reload the page." };

  const first = await saved(context, csrf, id, intent, payload);
  if (first.answer) return first.answer;
  const doc = first.doc;
  if (intent === "save") return doc ? { intent, ok: true, document: doc } : { intent, ok: false, status: 400, message: "Nothing to save." };

  const revision = doc?.revision;
  switch (intent) {
    case "publish":
    case "unpublish":
    case "archive":
    case "unarchive": {
      const done = await documentAction(context, csrf, id, intent, revision);
      if (!done.ok) return { ...failure(intent, done), document: doc };
      return { intent, ok: true, document: done.body ?? doc };
    }
    case "duplicate": {
      const done = await documentAction(context, csrf, id, "duplicate");
      if (!done.ok || !done.body) return done.ok ? { intent, ok: false, message: FAILED } : failure(intent, done);
      throw redirect(`/studio/content/${encodeURIComponent(done.body.id)}`);
    }
    case "preview": {
      const done = await makePreview(context, csrf, { document_id: id });
      if (!done.ok || !done.body) return done.ok ? { intent, ok: false, message: FAILED } : { ...failure(intent, done), document: doc };
      return { intent, ok: true, document: doc, preview: { url: done.body.url } };
    }
    case "schedule": {
      let release = String(form.get("release") ?? "");
      // A new release is made, given this document, then its time: the API does not
      // schedule an empty release.
      const at = String(form.get("scheduled_at") ?? "").trim();
      if (!release) {
        const label = String(form.get("label") ?? "").trim();
        const made = await createRelease(context, csrf, { label });
        if (!made.ok || !made.body) return made.ok ? { intent, ok: false, message: FAILED } : { ...failure(intent, made), document: doc };
        release = made.body.id;
      }
      const added = await releaseDocument(context, csrf, release, id, true);
      if (!added.ok) return { ...failure(intent, added), document: doc };
      if (at && !form.get("release")) {
        const timed = await updateRelease(context, csrf, release, { scheduled_at: at });
        if (!timed.ok) return { ...failure(intent, timed), message: `The release was made without a time: ${failure(intent, timed).message ?? FAILED}`, document: doc };
      }
      const fresh = await loadDocument(context, id);
      return { intent, ok: true, document: fresh.ok ? fresh.body : doc };
    }
    case "unschedule": {
      const release = String(form.get("release") ?? "");
      const removed = await releaseDocument(context, csrf, release, id, false);
      if (!removed.ok) return { ...failure(intent, removed), document: doc };
      const fresh = await loadDocument(context, id);
      return { intent, ok: true, document: fresh.ok ? fresh.body : doc };
    }
    default:
      return { intent, ok: false, status: 400, message: "Unknown action." };
  }
}
