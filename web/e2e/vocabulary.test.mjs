// The vocabulary the web app and the Go API share (surname modes, kinds of research
// collection, access levels) is written once per language: app/lib/vocabulary.ts here,
// the Go packages there. This test asks the real server for its lists and compares them
// with the TypeScript constants, word for word and in order, so the two cannot drift.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
// Node strips the types of this import-free TypeScript file itself.
import { ACCESS_LEVELS, RECORD_KINDS, SURNAME_MODES } from "../app/lib/vocabulary.ts";

const ctx = setup({ browser: false, name: "vocabulary" });

test("the TypeScript vocabulary equals GET /api/research/vocabulary", async () => {
  const res = await fetch(`${ctx.server.url}/api/research/vocabulary`, { headers: { Accept: "application/json" } });
  assert.equal(res.status, 200, "GET /api/research/vocabulary");
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const go = await res.json();
  assert.deepEqual(go.surname_modes, [...SURNAME_MODES], "surname modes (internal/names)");
  assert.deepEqual(go.record_kinds, [...RECORD_KINDS], "kinds of research collection (internal/research)");
  assert.deepEqual(go.access_levels, [...ACCESS_LEVELS], "access levels (internal/access)");
});
