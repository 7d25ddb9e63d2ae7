import { describe, expect, it } from "vitest";
import { formToken } from "./api.server";

describe("formToken", () => {
  const form = (entries: [string, string | Blob][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return f;
  };
  it("reads the token CsrfField sent", () => {
    expect(formToken(form([["_token", "abc"]]))).toBe("abc");
    expect(formToken(form([["_token", ""]]))).toBe("");
  });
  it("is null when the form sent none, or a file in its place", () => {
    expect(formToken(form([["other", "abc"]]))).toBeNull();
    expect(formToken(form([["_token", new Blob(["abc"])]]))).toBeNull();
  });
});
