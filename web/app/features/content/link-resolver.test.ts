import { describe, expect, it } from "vitest";
import { asLink } from "@prismicio/client";
import {
  GOVERNANCE_UIDS,
  GUIDE_UIDS,
  HINTS_TIPS_UIDS,
  linkResolver,
  normalisePath,
  ORGANISATION_UIDS,
} from "./link-resolver";

describe("linkResolver", () => {
  it("sends news items to /news/{uid}", () => {
    expect(linkResolver({ type: "news_item", uid: "agm-2024" })).toBe("/news/agm-2024");
  });

  it("sends featured items to the learning hub", () => {
    expect(linkResolver({ type: "feature_item", uid: "dna-basics" })).toBe(
      "/education/learning-hub/featured/dna-basics",
    );
  });

  it.each([
    ["society-policies", "/about/organisation/society-policies"],
    ["annual-reports-and-agm", "/about/organisation/annual-reports-and-agm"],
    ["governance", "/about/organisation/governance"],
  ])("places %s under /about/organisation/", (uid, path) => {
    expect(linkResolver({ type: "page", uid })).toBe(path);
  });

  it.each([
    ["board-of-trustees", "/about/organisation/governance/board-of-trustees"],
    ["nominations", "/about/organisation/governance/nominations"],
  ])("places %s under /about/organisation/governance/", (uid, path) => {
    expect(linkResolver({ type: "page", uid })).toBe(path);
  });

  it("places every guide under /learn/guides/", () => {
    expect(GUIDE_UIDS).toHaveLength(5);
    expect(GUIDE_UIDS).toContain("how-to-search-for-birth-marriage-and-death-certificates-1");
    expect(GUIDE_UIDS).toContain("how-to-search-for-birth-marriage-and-death-certificates-2");
    for (const uid of GUIDE_UIDS) {
      expect(linkResolver({ type: "page", uid })).toBe(`/learn/guides/${uid}`);
    }
  });

  it("places every hint and tip under /learn/hints-tips/", () => {
    expect(HINTS_TIPS_UIDS).toHaveLength(11);
    for (const uid of HINTS_TIPS_UIDS) {
      expect(linkResolver({ type: "page", uid })).toBe(`/learn/hints-tips/${uid}`);
    }
  });

  it("lets the uid lists win over a parent", () => {
    const parent = { uid: "somewhere-else" };
    for (const uid of [...ORGANISATION_UIDS, ...GOVERNANCE_UIDS, ...GUIDE_UIDS, ...HINTS_TIPS_UIDS]) {
      expect(linkResolver({ type: "page", uid, data: { parent } })).not.toContain("somewhere-else");
    }
  });

  it("uses /{parentUid}/{uid} for other documents with a parent", () => {
    expect(linkResolver({ type: "page", uid: "volunteering", data: { parent: { uid: "about" } } })).toBe(
      "/about/volunteering",
    );
  });

  it("uses /{uid} without a parent", () => {
    expect(linkResolver({ type: "page", uid: "contact" })).toBe("/contact");
    expect(linkResolver({ type: "page", uid: "contact", data: { parent: { uid: null } } })).toBe("/contact");
    expect(linkResolver({ type: "page", uid: "contact", data: {} })).toBe("/contact");
  });

  it("uses the document's own url without a uid", () => {
    expect(linkResolver({ type: "page", uid: null, url: "/somewhere" })).toBe("/somewhere");
    expect(linkResolver({ type: "news_item", url: "/news-archive" })).toBe("/news-archive");
    expect(linkResolver({ type: "page" })).toBeNull();
  });

  it("routes the site's own typed routes", () => {
    expect(linkResolver({ type: "home", uid: "home" })).toBe("/");
    expect(linkResolver({ type: "event", uid: "spring-fair" })).toBe("/sog-events/spring-fair");
    expect(linkResolver({ type: "fhwuifhe", uid: "a" })).toBe("/fhwuifhe/a");
    expect(linkResolver({ type: "cwbhvwt", uid: "b" })).toBe("/cwbhvwt/b");
    expect(linkResolver({ type: "dheyenbvu", uid: "c" })).toBe("/dheyenbvu#c");
  });

  it("places routed pages (events join, the lists' headings) at their routes, not at their generic paths", () => {
    expect(linkResolver({ type: "page", uid: "sog-events-join" })).toBe("/sog-events/join");
    // The pages that head the custom types' lists live at the lists' routes.
    expect(linkResolver({ type: "page", uid: "research-room-notices" })).toBe("/fhwuifhe");
    expect(linkResolver({ type: "page", uid: "volunteer-opportunities" })).toBe("/cwbhvwt");
    expect(linkResolver({ type: "page", uid: "publications" })).toBe("/dheyenbvu");
    expect(linkResolver({ type: "page", uid: "sog-events-join", data: { parent: { uid: "about" } } })).toBe("/sog-events/join");
    // Only a page: another type with that uid keeps its own rule.
    expect(linkResolver({ type: "news_item", uid: "sog-events-join" })).toBe("/news/sog-events-join");
    // Names on the object prototype are not routed pages.
    expect(linkResolver({ type: "page", uid: "constructor" })).toBe("/constructor");
  });

  it("works through asLink for links and documents", () => {
    const link = { link_type: "Document" as const, id: "X", type: "news_item", uid: "n1", tags: [] as string[], lang: "en-gb", isBroken: false };
    expect(asLink(link, { linkResolver })).toBe("/news/n1");
    expect(asLink({ link_type: "Web", url: "https://example.org/" }, { linkResolver })).toBe("https://example.org/");
  });
});

describe("normalisePath", () => {
  it("drops trailing slashes and decodes", () => {
    expect(normalisePath("/learn/guides/")).toBe("/learn/guides");
    expect(normalisePath("/")).toBe("/");
    expect(normalisePath("/caf%C3%A9")).toBe("/café");
  });
});
