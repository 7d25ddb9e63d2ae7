// Runs the real @prismicio/client against a Lineage content API started by
// TestPrismicClient (prismic_client_test.go). Environment: BASE (server origin with the
// fixtures and /_publish, /_draft, /_preview control endpoints), PRIVATE (a private
// instance, token s3cret), CLIENT (path of the installed @prismicio/client).
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";

const prismic = await import(pathToFileURL(process.env.CLIENT).href);
const base = process.env.BASE;
const endpoint = base + "/content/api/v2";
const routes = [
  { type: "page", path: "/:uid" },
  { type: "news_item", path: "/news/:uid" },
];
const client = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, routes, brokenRoute: "/404" });
let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log("ok  ", name);
  } catch (e) {
    failures++;
    console.log("FAIL", name, "-", e?.constructor?.name, e?.message);
  }
}
const quiet = console.warn;
console.warn = () => {}; // the client warns on each ref retry; that is expected here

await check("getRepository", async () => {
  const repo = await client.getRepository();
  assert.equal(repo.refs[0].isMasterRef, true);
  assert.equal(repo.types.news_item, "News item");
});
await check("getAllByType pages through next_page", async () => {
  const all = await client.getAllByType("news_item", { pageSize: 3 });
  assert.deepEqual(all.map((d) => d.id).sort(), ["n1", "n2", "n3", "n4"]);
  assert.equal(all.find((d) => d.id === "n1").url, "/news/census-1851");
});
await check("getByType with orderings, filters and fetchLinks", async () => {
  const res = await client.getByType("news_item", {
    orderings: [{ field: "my.news_item.date", direction: "desc" }, { field: "document.first_publication_date" }],
    filters: [prismic.filter.dateAfter("my.news_item.date", new Date(0)), prismic.filter.has("my.news_item.title")],
    fetchLinks: ["author.name"],
    pageSize: 2,
  });
  assert.deepEqual(res.results.map((d) => d.id), ["n3", "n2"]);
  assert.equal(res.total_pages, 2);
  assert.equal(res.results[1].data.author.data.name, "Jane Doe");
});
await check("getByUID, url from routes, dates", async () => {
  const d = await client.getByUID("page", "about");
  assert.equal(d.url, "/about");
  assert.equal(prismic.asDate(d.first_publication_date).toISOString(), "2024-01-03T09:00:00.000Z");
  assert.equal(prismic.asText(d.data.title), "About the Society");
  assert.equal(prismic.asLink(d.data.parent), "/home");
});
await check("lang * finds the translation", async () => {
  const all = await client.getAllByUIDs("page", ["home"], { lang: "*" });
  assert.deepEqual(all.map((d) => d.lang).sort(), ["en-gb", "fr-fr"]);
});
await check("unknown uid and unknown type give NotFoundError", async () => {
  await assert.rejects(client.getByUID("page", "no-such-page"), prismic.NotFoundError);
  await assert.rejects(client.getByUID("country", "ie"), prismic.NotFoundError);
});
await check("getByID, getByIDs, getTags (forms.tags), getAllByTag, getAllByEveryTag", async () => {
  assert.equal((await client.getByID("about")).uid, "about");
  assert.deepEqual((await client.getByIDs(["n2", "n1"])).results.map((d) => d.id).sort(), ["n1", "n2"]);
  assert.deepEqual(await client.getTags(), ["events", "governance", "news"]);
  assert.deepEqual((await client.getAllByTag("events")).map((d) => d.id).sort(), ["e1", "e2", "n2"]);
  assert.deepEqual((await client.getAllByEveryTag(["news", "events"])).map((d) => d.id), ["n2"]);
});
await check("graphQuery", async () => {
  const res = await client.getByType("news_item", { graphQuery: "{ news_item { title } }", pageSize: 1 });
  assert.deepEqual(Object.keys(res.results[0].data), ["title"]);
});
await check("fulltext", async () => {
  const res = await client.get({ filters: [prismic.filter.fulltext("document", "parish")] });
  assert.deepEqual(res.results.map((d) => d.id).sort(), ["n1", "n3"]);
});
await check("broken link carries brokenRoute", async () => {
  const d = await client.getByID("n1");
  assert.equal(d.data.related.isBroken, true);
  assert.equal(prismic.asLink(d.data.related), "/404");
});
await check("image urls are absolute and take imgix parameters", async () => {
  const d = await client.getByID("n1");
  const src = prismic.asImageWidthSrcSet(d.data.image);
  const first = src.srcset.split(",")[0].trim().split(" ")[0];
  assert.ok(first.startsWith(base + "/media/census.png?"), first);
  const r = await fetch(first);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "image/png");
});
await check("malformed filter gives ParsingError", async () => {
  await assert.rejects(client.get({ filters: ['[at(document.nope, "x")]'] }), prismic.ParsingError);
});
await check("expired master ref: the client retries with the ref in the 410 message", async () => {
  const oldRef = (await client.getMasterRef()).ref;
  await fetch(base + "/_publish", { method: "POST" });
  const c2 = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, ref: oldRef });
  assert.equal((await c2.getByUID("page", "about")).id, "about");
});
await check("unknown ref: the client retries with the ref in the 404 message", async () => {
  const c2 = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, ref: "nonsense" });
  assert.equal((await c2.getByUID("page", "about")).id, "about");
});
await check("preview: resolvePreviewURL and the preview cookie see the draft", async () => {
  await fetch(base + "/_draft", {
    method: "POST",
    body: JSON.stringify({ id: "about", uid: "about", type: "page", lang: "en-gb", data: { title: [{ type: "heading1", text: "DRAFT", spans: [] }] } }),
  });
  const token = await (await fetch(base + "/_preview?ttl=5m", { method: "POST" })).text();
  const url = await client.resolvePreviewURL({ previewToken: token, documentID: "about", defaultURL: "/" });
  assert.equal(url, "/about");
  const c2 = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, routes });
  c2.enableAutoPreviewsFromReq({ headers: { cookie: `io.prismic.preview=${token}` } });
  assert.equal(prismic.asText((await c2.getByUID("page", "about")).data.title), "DRAFT");
  assert.equal(prismic.asText((await client.getByUID("page", "about")).data.title), "About the Society");
});
await check("expired preview gives PreviewTokenExpiredError", async () => {
  const token = await (await fetch(base + "/_preview?ttl=1ms", { method: "POST" })).text();
  await new Promise((r) => setTimeout(r, 20));
  const c2 = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, ref: token });
  await assert.rejects(c2.get(), prismic.PreviewTokenExpiredError);
});
await check("private API: ForbiddenError without the token, content with it", async () => {
  const priv = process.env.PRIVATE + "/content/api/v2";
  await assert.rejects(prismic.createClient("lineage", { documentAPIEndpoint: priv }).get(), prismic.ForbiddenError);
  const docs = await prismic.createClient("lineage", { documentAPIEndpoint: priv, accessToken: "s3cret" }).getAllByType("news_item");
  assert.equal(docs.length, 4);
});
await check("documents written through the studio API read back through the client", async () => {
  const studio = base + "/api/studio/content";
  const call = async (method, path, body) => {
    const res = await fetch(studio + path, {
      method,
      headers: { "content-type": "application/json", "x-test-account": "pat" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const image = { id: "img1", url: "/media/census.png", alt: "A page of the census", copyright: "Lineage", dimensions: { width: 1, height: 1 } };
  const data = {
    title: [{ type: "heading1", text: "Written in the studio", spans: [] }],
    summary: [{ type: "paragraph", text: "See the society page.", spans: [{ start: 8, end: 20, type: "hyperlink", data: { link_type: "Document", id: "about" } }] }],
    date: "2026-11-26",
    image,
    body: [
      { slice_type: "hero", slice_label: null, id: "hero$studio", variation: "default", version: "initial",
        primary: { title: [{ type: "heading1", text: "Hero title", spans: [] }], text: [], image, link: { link_type: "Document", id: "about" }, link_label: "About us" },
        items: [] },
    ],
  };
  const created = await call("POST", "/documents", { type: "news_item", uid: "studio-written", tags: ["news"], data });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await assert.rejects(client.getByUID("news_item", "studio-written"), prismic.NotFoundError);
  // A preview token from the studio shows the draft to the client.
  const pv = await call("POST", "/preview", { document_id: created.body.id });
  const c2 = prismic.createClient("lineage", { documentAPIEndpoint: endpoint, routes });
  c2.enableAutoPreviewsFromReq({ headers: { cookie: `io.prismic.preview=${pv.body.token}` } });
  assert.equal(prismic.asText((await c2.getByUID("news_item", "studio-written")).data.title), "Written in the studio");
  const pub = await call("POST", `/documents/${created.body.id}/publish`, { revision: created.body.revision });
  assert.equal(pub.status, 200, JSON.stringify(pub.body));
  const d = await client.getByUID("news_item", "studio-written");
  assert.equal(d.url, "/news/studio-written");
  assert.deepEqual(d.tags, ["news"]);
  assert.equal(prismic.asText(d.data.title), "Written in the studio");
  assert.equal(prismic.asDate(d.data.date).toISOString().slice(0, 10), "2026-11-26");
  assert.equal(d.data.image.alt, "A page of the census");
  assert.equal(prismic.asImageSrc(d.data.image, { w: 640 }).startsWith(base + "/media/census.png"), true);
  const hero = d.data.body[0];
  assert.equal(hero.slice_type, "hero");
  assert.equal(prismic.asLink(hero.primary.link), "/about");
  assert.equal(prismic.asHTML(d.data.summary, { linkResolver: (doc) => "/" + doc.uid }).includes('href="/about"'), true);
  // Unpublished through the studio: gone for the client.
  const un = await call("POST", `/documents/${created.body.id}/unpublish`, {});
  assert.equal(un.status, 200, JSON.stringify(un.body));
  await assert.rejects(client.getByUID("news_item", "studio-written"), prismic.NotFoundError);
});
console.warn = quiet;
console.log(failures ? `${failures} FAILED` : "all passed");
process.exit(failures ? 1 : 0);
