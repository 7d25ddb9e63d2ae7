import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import routes from "./routes";

interface ConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigEntry[];
}

function toRouteObjects(entries: ConfigEntry[]): RouteObject[] {
  return entries.map((entry) =>
    entry.index
      ? { index: true, id: entry.id ?? entry.file }
      : { path: entry.path, id: entry.id ?? entry.file, children: entry.children ? toRouteObjects(entry.children) : undefined },
  );
}

const table = [{ path: "/", id: "root", children: toRouteObjects(routes as unknown as ConfigEntry[]) }];

function leaf(path: string) {
  const matches = matchRoutes(table, path);
  const last = matches?.[matches.length - 1];
  return { id: last?.route.id, params: last?.params };
}

describe("route table", () => {
  it.each([
    ["/", "routes/home.tsx"],
    ["/preview", "routes/preview.ts"],
    ["/news", "routes/news.tsx"],
    ["/news/agm", "routes/news-item.tsx"],
    ["/education", "routes/education.tsx"],
    ["/education/learning-hub/featured", "routes/featured.tsx"],
    ["/education/learning-hub/featured/dna", "routes/featured.tsx"],
    ["/fhwuifhe", "fhwuifhe-list"],
    ["/fhwuifhe/a", "fhwuifhe-item"],
    ["/cwbhvwt", "cwbhvwt"],
    ["/cwbhvwt/b", "cwbhvwt"],
    ["/dheyenbvu", "dheyenbvu-list"],
    ["/sog-events", "routes/events.tsx"],
    ["/sog-events/agm-2026", "routes/events.tsx"],
    ["/sog-events/join", "routes/events-join.tsx"],
    ["/feeds/events.ics", "routes/feeds.events-ics.ts"],
    ["/feeds/events/agm-2026.ics", "routes/feeds.event-ics.ts"],
    ["/feeds/news.xml", "routes/feeds.news-rss.ts"],
    ["/feeds/news.atom", "routes/feeds.news-atom.ts"],
    ["/sitemap.xml", "routes/sitemap.ts"],
    ["/robots.txt", "routes/robots.ts"],
    ["/learn", "routes/content-page.tsx"],
    ["/learn/guides/how-to-use-census-records", "routes/content-page.tsx"],
    ["/a/b/c/d/e/f", "routes/content-page.tsx"],
    ["/a/b/c/d/e/f/g", "routes/not-found.tsx"],
    ["/dheyenbvu/c", "routes/content-page.tsx"],
    ["/research-hub/our-collections/family-trees", "routes/trees-list.tsx"],
    ["/research-hub/our-collections/family-trees/ashworth-family", "routes/trees-tree.tsx"],
    ["/research-hub/our-collections/family-trees-record", "routes/trees-person.tsx"],
    ["/research-hub/our-collections/family-trees-record/ashworth-family~I12", "routes/trees-person.tsx"],
    ["/research-hub/our-collections/pedigree-search", "routes/trees-pedigree-search.tsx"],
    ["/research-hub/our-collections", "routes/research-collections.tsx"],
    ["/research-hub/our-collections/society-library", "routes/research-collections.tsx"],
    ["/research-hub/our-collections/memorial-cards", "routes/research-memorial-cards.tsx"],
    ["/research-hub/our-collections/memorial-cards/memorial-cards", "routes/research-memorial-cards.tsx"],
    ["/research-hub/our-collections/record-sets", "routes/research-record-sets.tsx"],
    ["/research-hub/our-collections/record-sets/parish-baptisms", "routes/research-record-sets.tsx"],
    ["/research-hub/our-collections/indexes", "routes/research-indexes.tsx"],
    ["/research-hub/our-collections/indexes/wills-index", "routes/research-indexes.tsx"],
    ["/research-hub/our-collections/birth-briefs", "routes/research-birth-briefs.tsx"],
    ["/research-hub/our-collections/birth-briefs/x", "routes/content-page.tsx"],
    ["/user-account/trees", "routes/user-account.trees.tsx"],
    ["/studio/records", "routes/studio.records.tsx"],
    ["/studio/records/u_7f3a", "routes/studio.records-upload.tsx"],
    ["/studio/jobs/12", "routes/studio.job.tsx"],
    ["/studio/scans", "routes/studio.scans.tsx"],
    ["/studio/trees", "routes/studio.trees.tsx"],
    ["/studio/people", "routes/studio.people.tsx"],
    ["/studio/audit", "routes/studio.audit.tsx"],
    ["/newsletter", "routes/newsletter.tsx"],
    ["/newsletter/subscribe", "routes/newsletter.subscribe.tsx"],
    ["/newsletter/confirm", "routes/newsletter.confirm.tsx"],
    ["/newsletter/preferences", "routes/newsletter.preferences.tsx"],
    ["/newsletter/12", "routes/newsletter.edition.tsx"],
    ["/feeds/newsletter.xml", "routes/feeds.newsletter-rss.ts"],
    ["/user-account/newsletter", "routes/user-account.newsletter.tsx"],
    ["/admin/newsletter", "routes/admin.newsletter.tsx"],
    ["/admin/newsletter/3", "routes/admin.newsletter-edition.tsx"],
    ["/admin/newsletter/lists", "routes/admin.newsletter-lists.tsx"],
  ])("%s → %s", (path, id) => {
    expect(leaf(path).id).toBe(id);
  });

  it("passes the catch-all's segments as s1…s6", () => {
    expect(leaf("/about/organisation/governance").params).toMatchObject({ s1: "about", s2: "organisation", s3: "governance" });
  });
});
