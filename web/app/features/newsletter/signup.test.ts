import { describe, expect, it } from "vitest";
import { ACCOUNT_CONSENT_WORDING, CONSENT_WORDING, footerOffersSignup, listNames, listsOffered, signupRequest, sourcePath, tickedLists } from "./signup";
import type { NewsletterList } from "./types";
import { formData as form } from "../../lib/form-data.test-support";

const list = (slug: string, audience: "public" | "members" = "public", scope = ""): NewsletterList => ({
  slug,
  name: slug[0]!.toUpperCase() + slug.slice(1),
  description: "",
  audience,
  scope,
});
const LISTS = [list("news"), list("members", "members", "member"), list("events")];

describe("listsOffered", () => {
  it.each([
    ["a visitor", null, ["news", "events"]],
    ["a signed-in user without the scope", ["registered"], ["news", "events"]],
    ["a member (array of scopes)", ["registered", "member"], ["news", "members", "events"]],
    ["a member (map of scopes)", { member: true }, ["news", "members", "events"]],
    ["a map with the scope off", { member: false }, ["news", "events"]],
  ])("%s", (_name, scopes, want) => {
    expect(listsOffered(LISTS, scopes).map((l) => l.slug)).toEqual(want);
  });

  it("never offers a members' list that names no scope", () => {
    expect(listsOffered([list("odd", "members", "")], ["member"])).toEqual([]);
  });
});

describe("sourcePath", () => {
  it.each([
    ["/about/organisation", "/about/organisation"],
    ["/", "/"],
    ["https://evil.example/x", ""],
    ["//evil.example/x", ""],
    ["/\\evil.example", ""],
    ["about", ""],
    ["", ""],
  ])("%s → %s", (value, want) => {
    expect(sourcePath(value)).toBe(want);
  });

  it("keeps at most 500 characters", () => {
    expect(sourcePath(`/${"a".repeat(600)}`)).toHaveLength(500);
  });
});

describe("signupRequest", () => {
  it("reads the email (trimmed), the ticked lists once each in order, the source and the wording", () => {
    const request = signupRequest(
      form([
        ["email", "  ann@example.org "],
        ["lists", "news"],
        ["lists", "events"],
        ["lists", "news"],
        ["lists", ""],
        ["source", "/learn"],
        ["wording", CONSENT_WORDING],
      ]),
    );
    expect(request).toEqual({ email: "ann@example.org", lists: ["news", "events"], source: "/learn", wording: CONSENT_WORDING });
  });

  it("sends the account's wording when the account's form showed it", () => {
    expect(signupRequest(form([["wording", ACCOUNT_CONSENT_WORDING]])).wording).toBe(ACCOUNT_CONSENT_WORDING);
  });

  it("never sends wording the site did not show (a forged post gets the form's own)", () => {
    expect(signupRequest(form([["wording", "I agree to anything"]])).wording).toBe(CONSENT_WORDING);
    expect(signupRequest(form([])).wording).toBe(CONSENT_WORDING);
  });

  it("drops a source that is not a path of this site", () => {
    expect(signupRequest(form([["source", "https://evil.example/"]])).source).toBe("");
  });
});

describe("tickedLists", () => {
  it("is the ticked boxes once each; none ticked is an empty list (unsubscribe from all)", () => {
    expect(tickedLists(form([["lists", "events"], ["lists", "events"], ["lists", "news"]]))).toEqual(["events", "news"]);
    expect(tickedLists(form([["token", "x"]]))).toEqual([]);
  });
});

describe("listNames", () => {
  it.each([
    [[], ""],
    [["News"], "News"],
    [["News", "Events"], "News and Events"],
    [["News", "Members", "Events"], "News, Members and Events"],
  ])("%j → %s", (names, want) => {
    expect(listNames(names.map((name) => ({ name })))).toBe(want);
  });
});

describe("footerOffersSignup", () => {
  it.each([
    ["/", true],
    ["/news/agm", true],
    ["/newsletters-of-1900", true],
    ["/user-account", true],
    ["/newsletter", false],
    ["/newsletter/subscribe", false],
    ["/newsletter/preferences", false],
    ["/newsletter/12", false],
    ["/user-account/newsletter", false],
  ])("%s → %s", (pathname, want) => {
    expect(footerOffersSignup(pathname)).toBe(want);
  });
});
