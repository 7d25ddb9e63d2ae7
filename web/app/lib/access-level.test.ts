import { describe, expect, it } from "vitest";
import { isOpenAccess, parseAccess, scopeLabel, titleWithAccess } from "./access-level";

describe("parseAccess", () => {
  it.each([
    ["public", "public", [], "Free to search", ""],
    ["", "public", [], "Free to search", ""],
    ["  PUBLIC ", "public", [], "Free to search", ""],
    ["registered", "registered", [], "Free with an account", "free with an account"],
    ["Registered", "registered", [], "Free with an account", "free with an account"],
    ["members", "members", ["member"], "Members only", "members"],
    ["scopes:member", "members", ["member"], "Members only", "members"],
    ["scopes:member:overseas", "scopes", ["member:overseas"], "Overseas members only", "overseas members"],
    ["SCOPES: member:overseas , member:life_fellow,member:overseas", "scopes", ["member:life_fellow", "member:overseas"], "Life fellow members or Overseas members only", "life fellow members or Overseas members"],
    ["scopes:staff", "scopes", ["staff"], "Members (staff) only", "members (staff)"],
    ["scopes:registered,member", "scopes", ["member", "registered"], "Members or Account holders only", "members or Account holders"],
  ])("reads %j", (text, kind, scopes, label, note) => {
    const level = parseAccess(text);
    expect(level.kind).toBe(kind);
    expect(level.scopes).toEqual(scopes);
    expect(level.label).toBe(label);
    expect(level.note).toBe(note);
    expect(level.open).toBe(kind === "public");
    expect(isOpenAccess(text)).toBe(kind === "public");
  });

  it("describes each level for a collection's facts", () => {
    expect(parseAccess("public").description).toBe("Free to search and read");
    expect(parseAccess("registered").description).toMatch(/^Free with an account: sign in/);
    expect(parseAccess("members").description).toBe("Members only: visitors see names, years and the collection");
    expect(parseAccess("scopes:member:overseas").description).toMatch(/^Overseas members only: /);
  });

  // Whatever the web app cannot read is restricted, never free.
  it.each([
    ["everyone"],
    ["member"],
    ["publicx"],
    ["scopes:"],
    ["scopes"],
    ["scopes:a,,b"],
    ["scopes:a b"],
    ["scopes:<script>"],
    [`scopes:${"x".repeat(65)}`],
    [`scopes:${Array.from({ length: 17 }, (_, i) => `s${i}`).join(",")}`],
    ["public,members"],
  ])("treats %j as restricted", (text) => {
    const level = parseAccess(text);
    expect(level.kind).toBe("unknown");
    expect(level.open).toBe(false);
    expect(level.label).toBe("Restricted");
    expect(isOpenAccess(text)).toBe(false);
  });

  it.each([[undefined], [null], [0], [true], [{}], [["public"]]])("treats the non-string %j as restricted", (value) => {
    expect(parseAccess(value).kind).toBe("unknown");
    expect(isOpenAccess(value)).toBe(false);
  });

  it("keeps the limits Go keeps", () => {
    expect(parseAccess(`scopes:${"x".repeat(64)}`).kind).toBe("scopes");
    expect(parseAccess(`scopes:${Array.from({ length: 16 }, (_, i) => `s${i}`).join(",")}`).scopes).toHaveLength(16);
  });
});

describe("scopeLabel", () => {
  it.each([
    ["member", "Members"],
    ["member:overseas", "Overseas members"],
    ["member:life-fellow", "Life fellow members"],
    ["member:", "Members (member:)"],
    ["member:a:b", "Members (member:a:b)"],
    ["staff", "Members (staff)"],
  ])("names %j", (scope, label) => {
    expect(scopeLabel(scope)).toBe(label);
  });
});

describe("titleWithAccess", () => {
  it.each([
    ["public", "Burials"],
    ["", "Burials"],
    ["members", "Burials (members)"],
    ["registered", "Burials (free with an account)"],
    ["scopes:member:overseas", "Burials (overseas members)"],
    ["nonsense", "Burials (restricted)"],
  ])("marks a %j collection", (access, title) => {
    expect(titleWithAccess("Burials", access)).toBe(title);
  });
});
