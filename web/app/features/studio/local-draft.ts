// A document's unsaved changes kept in the browser (localStorage), so that nothing
// typed is lost when a save fails or the session ends: written on every change, removed
// once the server has saved exactly that, offered back when the editor opens again.

export interface DraftContent {
  uid: string | null;
  tags: string[];
  data: Record<string, unknown>;
}

export interface LocalDraft extends DraftContent {
  /** The revision the changes were made on. */
  revision: number;
  /** When they were last changed (ISO time). */
  changedAt: string;
}

const PREFIX = "lineage.studio.draft.";

export function draftKey(id: string): string {
  return PREFIX + id;
}

/** The same content, whatever the order of object keys. */
export function sameContent(a: DraftContent, b: DraftContent): boolean {
  return stable({ uid: a.uid ?? null, tags: a.tags, data: a.data }) === stable({ uid: b.uid ?? null, tags: b.tags, data: b.data });
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}

export function keepDraft(storage: Storage | undefined, id: string, draft: LocalDraft): boolean {
  if (!storage) return false;
  try {
    storage.setItem(draftKey(id), JSON.stringify(draft));
    return true;
  } catch {
    // Full or refused (private browsing): the page still warns that changes are unsaved.
    return false;
  }
}

export function readDraft(storage: Storage | undefined, id: string): LocalDraft | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(draftKey(id));
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<LocalDraft>;
    if (!d || typeof d !== "object" || !d.data || typeof d.data !== "object" || !Array.isArray(d.tags) || typeof d.revision !== "number") return null;
    return { uid: typeof d.uid === "string" ? d.uid : null, tags: d.tags.map(String), data: d.data, revision: d.revision, changedAt: String(d.changedAt ?? "") };
  } catch {
    return null;
  }
}

export function dropDraft(storage: Storage | undefined, id: string): void {
  try {
    storage?.removeItem(draftKey(id));
  } catch {
    // Nothing to do: a stale copy is offered again and can be discarded then.
  }
}

/** The kept changes worth offering back: only when they differ from what the server has. */
export function draftToOffer(storage: Storage | undefined, id: string, server: DraftContent): LocalDraft | null {
  const local = readDraft(storage, id);
  if (!local) return null;
  if (sameContent(local, server)) {
    dropDraft(storage, id);
    return null;
  }
  return local;
}
