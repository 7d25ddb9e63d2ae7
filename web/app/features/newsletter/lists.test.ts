import { describe, expect, it } from "vitest";
import { audienceText, listRequest } from "./lists";
import { formData as form } from "../../lib/form-data.test-support";

describe("listRequest", () => {
  it("reads a public list, trimmed, with no scope even when one was typed", () => {
    expect(
      listRequest(form([["slug", " Family-News "], ["name", " Family news "], ["description", "Monthly"], ["audience", "public"], ["scope", "member"]])),
    ).toEqual({ slug: "family-news", name: "Family news", description: "Monthly", audience: "public", scope: "" });
  });

  it("reads a members' list with its scope", () => {
    expect(listRequest(form([["name", "Inner circle"], ["audience", "members"], ["scope", "council"]]))).toMatchObject({ audience: "members", scope: "council" });
  });

  it("takes anything else for public", () => {
    expect(listRequest(form([["audience", "everyone"]])).audience).toBe("public");
  });
});

describe("audienceText", () => {
  it.each([
    [{ audience: "public", scope: "" }, "Anyone"],
    [{ audience: "members", scope: "member" }, "Members (scope “member”)"],
    [{ audience: "members", scope: "" }, "Members (scope “member”)"],
  ])("%j → %s", (list, want) => {
    expect(audienceText(list)).toBe(want);
  });
});
