import { describe, expect, it } from "vitest";
import { draftKey, draftToOffer, dropDraft, keepDraft, readDraft, sameContent, type LocalDraft } from "./local-draft";

/** A Storage of the Web Storage API, in memory (the browser's is not in Node). */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  full = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    if (this.full) throw new DOMException("full", "QuotaExceededError");
    this.items.set(k, v);
  }
}

const draft: LocalDraft = { uid: "agm", tags: ["news"], data: { title: [{ type: "heading1", text: "AGM", spans: [] }], b: 1 }, revision: 3, changedAt: "2026-11-26T01:00:00Z" };

describe("local drafts", () => {
  it("keeps, reads and drops a draft", () => {
    const s = new MemoryStorage();
    expect(keepDraft(s, "X1", draft)).toBe(true);
    expect(readDraft(s, "X1")).toEqual(draft);
    dropDraft(s, "X1");
    expect(readDraft(s, "X1")).toBeNull();
  });
  it("says so when the browser refuses to keep it", () => {
    const s = new MemoryStorage();
    s.full = true;
    expect(keepDraft(s, "X1", draft)).toBe(false);
    expect(keepDraft(undefined, "X1", draft)).toBe(false);
  });
  it.each([["not json{"], ["null"], ['{"data":{},"tags":"x","revision":1}'], ['{"tags":[],"revision":1}'], ['{"data":{},"tags":[]}']])("ignores a damaged copy %s", (raw) => {
    const s = new MemoryStorage();
    s.setItem(draftKey("X1"), raw);
    expect(readDraft(s, "X1")).toBeNull();
  });
  it("compares content whatever the key order", () => {
    expect(sameContent(draft, { uid: "agm", tags: ["news"], data: { b: 1, title: [{ spans: [], text: "AGM", type: "heading1" }] } })).toBe(true);
    expect(sameContent(draft, { ...draft, tags: ["news", "agm"] })).toBe(false);
  });
  it("offers the kept changes only when they differ from the server's", () => {
    const s = new MemoryStorage();
    keepDraft(s, "X1", draft);
    expect(draftToOffer(s, "X1", { uid: "agm", tags: ["news"], data: { ...draft.data, b: 2 } })).toEqual(draft);
    expect(draftToOffer(s, "X1", draft)).toBeNull();
    // The same content is not offered again: the copy was dropped.
    expect(s.getItem(draftKey("X1"))).toBeNull();
  });
});
