// Feeds, sitemap and robots.txt: parsed with the browser's own XML parser, checked
// against the demo content, and every URL they name is fetched.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { demoDocuments, newsNewestFirst, titleOf } from "./demo.mjs";

const ctx = setup({ name: "feeds" });

/** GETs p, checks that it answers XML that parses, and returns what `pick` (a function body of `doc`) reads from it. */
async function fetchXml(p, pick) {
  const res = await fetch(ctx.server.at(p));
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /xml/);
  const { error, value } = await parseXml(await res.text(), pick);
  assert.equal(error, undefined, `${p} parses as XML: ${error}`);
  return value;
}

/** Parses XML in the browser; returns a plain summary made by `pick`. */
async function parseXml(xml, pick) {
  const page = await ctx.newPage();
  return page.evaluate(
    ({ xml, pick }) => {
      const doc = new DOMParser().parseFromString(xml, "application/xml");
      const err = doc.getElementsByTagName("parsererror")[0];
      if (err) return { error: err.textContent };
      // eslint-disable-next-line no-new-func
      return { value: new Function("doc", pick)(doc) };
    },
    { xml, pick },
  );
}

/** Where seed-spec §2 (and docs/web.md for the routed types) puts a demo document. */
function expectedPath(doc) {
  const uid = doc.uid;
  const org = ["society-policies", "annual-reports-and-agm", "governance"];
  const gov = ["board-of-trustees", "nominations"];
  const guides = [
    "how-to-use-probate-records",
    "how-to-start-your-family-tree",
    "how-to-use-census-records",
    "how-to-search-for-birth-marriage-and-death-certificates-1",
    "how-to-search-for-birth-marriage-and-death-certificates-2",
  ];
  const hints = [
    "genealogy-as-a-career",
    "how-to-get-the-best-results-from-familysearch",
    "make-connections",
    "genealogy-or-family-history",
    "how-to-get-the-best-results-from-the-igi",
    "writing-genealogical-reports",
    "employing-a-professional-genealogist",
    "finding-and-downloading-pcc-wills-from-the-national",
    "top-10-tips-for-starting-your-family-history",
    "london-research",
    "surname-searching",
  ];
  switch (doc.type) {
    case "home":
      return "/";
    case "news_item":
      return `/news/${uid}`;
    case "feature_item":
      return `/education/learning-hub/featured/${uid}`;
    case "event":
      return `/sog-events/${uid}`;
    case "fhwuifhe":
    case "cwbhvwt":
      return `/${doc.type}/${uid}`;
    case "dheyenbvu":
      // No slug route: one page shows them all, each at #uid.
      return "/dheyenbvu";
  }
  // The page that /sog-events/join shows (seed-spec §2 route; docs/web.md).
  if (uid === "sog-events-join") return "/sog-events/join";
  // The pages that head the custom types' lists (link-resolver.ts CUSTOM_TYPE_LISTINGS).
  const listings = { "research-room-notices": "/fhwuifhe", "volunteer-opportunities": "/cwbhvwt", publications: "/dheyenbvu" };
  if (Object.hasOwn(listings, uid)) return listings[uid];
  if (org.includes(uid)) return `/about/organisation/${uid}`;
  if (gov.includes(uid)) return `/about/organisation/governance/${uid}`;
  if (guides.includes(uid)) return `/learn/guides/${uid}`;
  if (hints.includes(uid)) return `/learn/hints-tips/${uid}`;
  const parent = doc.data?.parent?.uid;
  return parent ? `/${parent}/${uid}` : `/${uid}`;
}

describe("RSS and Atom", () => {
  test("/feeds/news.xml is RSS 2.0 with at least 12 items, newest first", async () => {
    const value = await fetchXml(
      "/feeds/news.xml",
      `const rss = doc.documentElement;
       const ch = rss.getElementsByTagName("channel")[0];
       const text = (el, tag) => el.getElementsByTagName(tag)[0]?.textContent ?? null;
       return {
         root: rss.nodeName, version: rss.getAttribute("version"),
         title: text(ch, "title"), link: text(ch, "link"), description: text(ch, "description"),
         items: [...ch.getElementsByTagName("item")].map((i) => ({
           title: text(i, "title"), link: text(i, "link"), guid: text(i, "guid"),
           pubDate: text(i, "pubDate"), description: text(i, "description"),
         })),
       };`,
    );
    assert.equal(value.root, "rss");
    assert.equal(value.version, "2.0");
    assert.ok(value.title, "channel title");
    assert.ok(value.description, "channel description");
    assert.equal(value.link, ctx.server.at("/news"), "channel link to /news on the public origin");

    const expected = newsNewestFirst();
    assert.ok(value.items.length >= 12, `at least 12 items (got ${value.items.length})`);
    assert.equal(value.items.length, Math.min(expected.length, 20), "every news item, up to the feed size");
    assert.deepEqual(
      value.items.map((i) => i.title),
      expected.slice(0, value.items.length).map(titleOf),
      "items are the news, newest first",
    );
    let previous = Infinity;
    for (const item of value.items) {
      const t = Date.parse(item.pubDate);
      assert.ok(!Number.isNaN(t), `pubDate "${item.pubDate}" is a date`);
      assert.match(item.pubDate, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/, "RFC 822 date");
      assert.ok(t <= previous, "newest first");
      previous = t;
      assert.ok(item.guid, `guid for ${item.title}`);
      assert.ok(item.link.startsWith(`${ctx.server.url}/news/`), `absolute item link ${item.link}`);
    }
    for (const item of value.items) {
      const r = await fetch(item.link);
      assert.equal(r.status, 200, `item link ${item.link}`);
    }
  });

  test("/feeds/news.atom is Atom with the same entries", async () => {
    const value = await fetchXml(
      "/feeds/news.atom",
      `const feed = doc.documentElement;
       return {
         root: feed.localName, ns: feed.namespaceURI,
         entries: [...feed.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "entry")].map((e) => ({
           title: e.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "title")[0]?.textContent,
           id: e.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "id")[0]?.textContent,
           updated: e.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "updated")[0]?.textContent,
         })),
       };`,
    );
    assert.equal(value.root, "feed");
    assert.equal(value.ns, "http://www.w3.org/2005/Atom");
    const expected = newsNewestFirst();
    assert.deepEqual(
      value.entries.map((e) => e.title),
      expected.slice(0, value.entries.length).map(titleOf),
    );
    for (const e of value.entries) {
      assert.ok(e.id, "entry id");
      assert.ok(!Number.isNaN(Date.parse(e.updated)), `updated "${e.updated}"`);
    }
  });

  test("pages advertise the feeds", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/news");
    const rss = await page.locator('head link[rel="alternate"][type="application/rss+xml"]').getAttribute("href");
    assert.equal(rss, "/feeds/news.xml");
  });
});

describe("sitemap and robots", () => {
  test("/sitemap.xml lists every published page at its resolved path, and each answers 200", async () => {
    const value = await fetchXml(
      "/sitemap.xml",
      `const root = doc.documentElement;
       const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
       return { root: root.localName, ns: root.namespaceURI,
         urls: [...root.getElementsByTagNameNS(NS, "url")].map((u) => ({
           loc: u.getElementsByTagNameNS(NS, "loc")[0]?.textContent,
           lastmod: u.getElementsByTagNameNS(NS, "lastmod")[0]?.textContent ?? null })) };`,
    );
    assert.equal(value.root, "urlset");
    assert.equal(value.ns, "http://www.sitemaps.org/schemas/sitemap/0.9");
    const locs = value.urls.map((u) => u.loc);
    assert.equal(new Set(locs).size, locs.length, "no duplicate URLs");
    for (const loc of locs) assert.ok(loc.startsWith(`${ctx.server.url}/`), `absolute on the public origin: ${loc}`);
    for (const u of value.urls) {
      if (u.lastmod) assert.match(u.lastmod, /^\d{4}-\d{2}-\d{2}/, `lastmod of ${u.loc}`);
    }
    const paths = new Set(locs.map((l) => new URL(l).pathname));
    // A newsletter document is what an edition is made from, not a page (editions are at /newsletter/{id}).
    for (const doc of demoDocuments().filter((d) => d.type !== "newsletter")) {
      const p = expectedPath(doc);
      assert.ok(paths.has(p), `sitemap lists ${doc.type} ${doc.uid} at ${p}`);
    }
    const broken = [];
    for (const loc of locs) {
      const r = await fetch(loc, { redirect: "manual" });
      if (r.status !== 200) broken.push(`${r.status} ${loc}`);
      await r.arrayBuffer();
    }
    assert.deepEqual(broken, [], "every sitemap URL answers 200");
  });

  test("/robots.txt allows crawling and names the sitemap", async () => {
    const res = await fetch(ctx.server.at("/robots.txt"));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const body = await res.text();
    assert.match(body, /^User-agent: \*$/m);
    assert.match(body, /^Disallow: \/preview$/m);
    assert.ok(body.split("\n").includes(`Sitemap: ${ctx.server.at("/sitemap.xml")}`), "Sitemap line with the public origin");
  });
});
