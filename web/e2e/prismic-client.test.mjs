// The real @prismicio/client against the real content API of `lineage serve --demo`:
// the proof that /content/api/v2 speaks Prismic REST v2 (protocols.md §1). No browser.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as prismic from "@prismicio/client";
import { runLineage, setup } from "./harness.mjs";
import { demoByType, demoDoc, demoDocuments, newsNewestFirst, titleOf } from "./demo.mjs";
import { saveDraft } from "./draft.mjs";

const ctx = setup({ browser: false, name: "content-api" });

const news = demoByType("news_item");
const published = demoDocuments();

/** A client on our endpoint whose requests are logged in `client.log` ({url, status}). */
function makeClient(options = {}) {
  const log = [];
  const client = prismic.createClient("lineage", {
    documentAPIEndpoint: `${ctx.server.url}/content/api/v2`,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      log.push({ url: new URL(url), status: res.status });
      return res;
    },
    ...options,
  });
  client.log = log;
  return client;
}

const searches = (client) => client.log.filter((e) => e.url.pathname.endsWith("/documents/search"));
const ids = (docs) => docs.map((d) => d.id).sort();
const demoIds = (docs) => docs.map((d) => d.id).sort();

/** Creates a preview token with the CLI on the server's store. */
function previewToken(extra = []) {
  const { stdout } = runLineage(["content", "preview", "--data", ctx.server.dataDir, ...extra], {
    env: { LINEAGE_PUBLIC_URL: ctx.server.url },
  });
  const token = stdout.trim().split("\n")[0].trim();
  assert.ok(token, `lineage content preview printed a token: ${stdout}`);
  return token;
}

/** Runs f with console.warn caught (the client warns as it falls back); returns f's value and the warnings. */
async function catchingWarnings(f) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...a) => warnings.push(a.join(" "));
  try {
    return { value: await f(), warnings };
  } finally {
    console.warn = warn;
  }
}

describe("repository", () => {
  test("createClient with documentAPIEndpoint: no warning, repositoryName, master ref", async () => {
    const { value: client, warnings } = await catchingWarnings(() => makeClient());
    assert.deepEqual(warnings, [], "no 'repository name could not be inferred' warning");
    assert.equal(client.repositoryName, "lineage");
    const repo = await client.getRepository();
    const masters = repo.refs.filter((r) => r.isMasterRef);
    assert.equal(masters.length, 1, "exactly one master ref");
    assert.equal((await client.getMasterRef()).ref, masters[0].ref);
    assert.equal(repo.integrationFieldsRef ?? null, null, "integrationFieldsRef null keeps URLs clean");
    for (const t of ["home", "news_item", "feature_item", "event", "page", "fhwuifhe", "cwbhvwt", "dheyenbvu"]) {
      assert.ok(t in repo.types, `types lists ${t}`);
    }
    assert.ok(repo.languages.some((l) => l.id === "en-gb"), "languages lists en-gb");
    const everything = repo.forms.everything;
    assert.ok(everything, "forms.everything");
    assert.equal(everything.action, `${ctx.server.url}/content/api/v2/documents/search`, "absolute forms.everything.action");
    for (const f of ["ref", "q", "lang", "page", "pageSize", "after", "fetch", "fetchLinks", "graphQuery", "orderings"]) {
      assert.ok(everything.fields[f], `everything form has field ${f}`);
    }
    if (repo.forms.tags) assert.match(repo.forms.tags.action, /^http:\/\/127\.0\.0\.1:\d+\//, "absolute forms.tags.action");
    assert.deepEqual(await client.getReleases(), [], "no releases");
  });
});

describe("queries", () => {
  test("getAllByType pages through every news item with a small pageSize", async () => {
    const client = makeClient();
    const all = await client.getAllByType("news_item", { pageSize: 5 });
    assert.ok(all.length >= 14, `at least 14 news items (got ${all.length})`);
    assert.deepEqual(ids(all), demoIds(news), "exactly the demo news items");
    const pages = searches(client).map((e) => Number(e.url.searchParams.get("page") ?? 1));
    assert.deepEqual(pages, [1, 2, 3, 4].slice(0, Math.ceil(news.length / 5)), "one request per page, page numbers 1..n");
    for (const e of searches(client)) assert.equal(e.url.searchParams.get("pageSize"), "5");
  });

  test("getByType reports the paging envelope", async () => {
    const client = makeClient();
    const last = Math.ceil(news.length / 5);
    const res = await client.getByType("news_item", { pageSize: 5, page: last });
    assert.equal(res.page, last);
    assert.equal(res.results_per_page, 5);
    assert.equal(res.results_size, news.length - 5 * (last - 1));
    assert.equal(res.total_results_size, news.length);
    assert.equal(res.total_pages, last);
    assert.equal(res.next_page, null, "next_page null on the last page");
    assert.ok(res.prev_page, "prev_page on a later page");
    const first = await client.getByType("news_item", { pageSize: 5 });
    assert.ok(first.next_page, "next_page on the first page");
    assert.equal(first.prev_page, null);
    const big = await client.getByType("news_item", { pageSize: 500 });
    assert.ok(big.results_per_page <= 100, "pageSize is clamped at 100");
  });

  test("getByUID, getByID, getByIDs, getByUIDs, getSingle", async () => {
    const client = makeClient();
    const item = newsNewestFirst()[0];
    const byUID = await client.getByUID("news_item", item.uid);
    assert.equal(byUID.id, item.id);
    assert.equal(byUID.uid, item.uid);
    assert.equal(byUID.type, "news_item");
    assert.equal(prismic.asText(byUID.data.title), titleOf(item));
    assert.equal(byUID.data.date, item.data.date);
    assert.match(byUID.first_publication_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/, "Prismic timestamp format");
    assert.deepEqual(byUID.alternate_languages, []);
    assert.ok(Array.isArray(byUID.linked_documents), "linked_documents is an array");
    assert.equal(byUID.lang, "en-gb");
    assert.ok(byUID.href.startsWith(`${ctx.server.url}/content/api/v2/documents/search`), "href is a search URL");
    // Image URLs leave the API absolute (ADR 001), so imgix srcsets can be built.
    assert.equal(byUID.data.image.url.split("?")[0], `${ctx.server.url}${item.data.image.url}`);
    const srcset = prismic.asImageWidthSrcSet(byUID.data.image).srcset;
    assert.match(srcset, / 640w, /, "asImageWidthSrcSet works on it");
    for (const candidate of srcset.split(", ")) {
      const res = await fetch(candidate.split(" ")[0]);
      assert.equal(res.status, 200, `srcset candidate ${candidate}`);
      await res.arrayBuffer();
    }
    const img = await fetch(prismic.asImageSrc(byUID.data.image, { w: 640, auto: "format" }));
    assert.equal(img.status, 200, "image URL with imgix parameters is served");

    const byID = await client.getByID(item.id);
    assert.equal(byID.uid, item.uid);

    const three = newsNewestFirst().slice(0, 3);
    const byIDs = await client.getByIDs(three.map((d) => d.id));
    assert.deepEqual(ids(byIDs.results), demoIds(three));
    const allByIDs = await client.getAllByIDs(three.map((d) => d.id));
    assert.deepEqual(ids(allByIDs), demoIds(three));

    const uids = ["governance", "board-of-trustees", "nominations"];
    const byUIDs = await client.getByUIDs("page", uids);
    assert.deepEqual(byUIDs.results.map((d) => d.uid).sort(), [...uids].sort());

    const home = await client.getSingle("home");
    assert.equal(home.id, demoDoc("home", "home").id);

    // Languages: the master language, "*", and one no document is in.
    assert.equal((await client.getByUID("news_item", item.uid, { lang: "en-gb" })).id, item.id, "lang=en-gb");
    assert.equal((await client.getByID(item.id, { lang: "*" })).id, item.id, "lang=*");
    await assert.rejects(client.getByUID("news_item", item.uid, { lang: "fr-fr" }), prismic.NotFoundError, "lang=fr-fr");

    await assert.rejects(client.getByUID("news_item", "no-such-uid"), prismic.NotFoundError);
    await assert.rejects(client.getByID("NoSuchDocument00"), prismic.NotFoundError);
    // A type no document has is not an error: no results, so NotFoundError.
    await assert.rejects(client.getByUID("no_such_type", "x"), prismic.NotFoundError);
    // getFirst and getByUID ask for one document.
    const s = searches(client);
    assert.ok(s.some((e) => e.url.searchParams.get("pageSize") === "1"));
  });

  test("filters: at, any, not, dateAfter, dateBefore, fulltext, in, has, missing", async () => {
    const client = makeClient();
    const by = async (...filters) => ids(await client.dangerouslyGetAll({ filters }));
    const tagged = (tags) => published.filter((d) => tags.some((t) => d.tags.includes(t)));

    assert.deepEqual(await by(prismic.filter.at("document.type", "news_item")), demoIds(news), "at(document.type)");
    assert.deepEqual(
      await by(prismic.filter.at("document.type", "news_item"), prismic.filter.any("document.tags", ["dna", "library"])),
      demoIds(tagged(["dna", "library"]).filter((d) => d.type === "news_item")),
      "at + any(document.tags)",
    );
    assert.deepEqual(
      await by(prismic.filter.at("document.tags", ["news", "agm"])),
      demoIds(published.filter((d) => d.tags.includes("news") && d.tags.includes("agm"))),
      "at(document.tags, [..]) needs every tag",
    );
    assert.deepEqual(
      await by(prismic.filter.at("document.type", "page"), prismic.filter.not("my.page.uid", "governance")),
      demoIds(demoByType("page").filter((d) => d.uid !== "governance")),
      "not(my.page.uid)",
    );
    assert.deepEqual(
      await by(prismic.filter.not("document.type", "page")),
      demoIds(published.filter((d) => d.type !== "page")),
      "not(document.type)",
    );
    const cut = "2026-01-01";
    assert.deepEqual(
      await by(prismic.filter.dateAfter("my.news_item.date", cut)),
      demoIds(news.filter((d) => d.data.date > cut)),
      "dateAfter(my.news_item.date, ISO string)",
    );
    assert.deepEqual(
      await by(prismic.filter.dateAfter("my.news_item.date", new Date(`${cut}T00:00:00Z`))),
      demoIds(news.filter((d) => d.data.date > cut)),
      "dateAfter with a Date (epoch milliseconds)",
    );
    assert.deepEqual(
      await by(prismic.filter.dateBefore("my.news_item.date", "2025-06-01")),
      demoIds(news.filter((d) => d.data.date < "2025-06-01")),
      "dateBefore",
    );
    assert.deepEqual(
      await by(prismic.filter.dateBetween("my.news_item.date", "2025-01-01", "2025-12-31")),
      demoIds(news.filter((d) => d.data.date >= "2025-01-01" && d.data.date <= "2025-12-31")),
      "dateBetween",
    );
    const micro = await by(prismic.filter.fulltext("document", "microfilm"));
    assert.ok(micro.includes(demoDoc("microfilm-readers-replaced").id), "fulltext(document) finds the microfilm notice");
    const probate = await by(prismic.filter.at("document.type", "page"), prismic.filter.fulltext("document", "probate"));
    assert.ok(probate.includes(demoDoc("how-to-use-probate-records").id), "fulltext finds the probate guide");
    assert.deepEqual(
      await by(prismic.filter.fulltext("document", "zzyzxnonexistentword")),
      [],
      "fulltext with no match",
    );
    const guides = ["how-to-use-probate-records", "how-to-use-census-records"];
    assert.deepEqual(
      await by(prismic.filter.in("my.page.uid", guides)),
      demoIds(guides.map((u) => demoDoc(u, "page"))),
      "in(my.page.uid)",
    );
    assert.deepEqual(
      await by(prismic.filter.in("document.id", news.slice(0, 2).map((d) => d.id))),
      demoIds(news.slice(0, 2)),
      "in(document.id)",
    );
    assert.deepEqual(
      await by(prismic.filter.at("document.type", "news_item"), prismic.filter.has("my.news_item.image")),
      demoIds(news.filter((d) => d.data.image?.url)),
      "has(my.news_item.image)",
    );
    assert.deepEqual(
      await by(prismic.filter.at("document.type", "page"), prismic.filter.missing("my.page.parent")),
      demoIds(demoByType("page").filter((d) => !d.data.parent?.id)),
      "missing(my.page.parent)",
    );
  });

  test("the legacy predicate form in one q, and several q parameters, are ANDed", async () => {
    const client = makeClient();
    const master = (await client.getMasterRef()).ref;
    const url = new URL(`${ctx.server.url}/content/api/v2/documents/search`);
    url.searchParams.set("ref", master);
    url.searchParams.set("q", `[[:d = at(document.type, "news_item")][:d = any(document.tags, ["dna"])]]`);
    url.searchParams.set("pageSize", "100");
    const res = await fetch(url);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(
      body.results.map((d) => d.id).sort(),
      demoIds(news.filter((d) => d.tags.includes("dna"))),
    );
  });

  test("an unknown document field is a ParsingError (400)", async () => {
    const client = makeClient();
    await assert.rejects(client.get({ filters: [prismic.filter.at("document.nonsense", "x")] }), prismic.ParsingError);
    await assert.rejects(client.get({ filters: ["[[at(document.type, "] }), prismic.ParsingError);
  });

  test("orderings: by my.news_item.date desc and asc; getFirst; after", async () => {
    const client = makeClient();
    const expected = newsNewestFirst().map((d) => d.id);
    const desc = await client.getAllByType("news_item", { orderings: { field: "my.news_item.date", direction: "desc" } });
    assert.deepEqual(desc.map((d) => d.id), expected, "newest first");
    const asc = await client.getAllByType("news_item", { orderings: [{ field: "my.news_item.date" }] });
    assert.deepEqual(asc.map((d) => d.id), [...expected].reverse(), "oldest first");
    // Legacy string orderings arrive wrapped twice: [[my.news_item.date desc]].
    const legacy = await client.getByType("news_item", { orderings: "[my.news_item.date desc]", pageSize: 3 });
    assert.deepEqual(legacy.results.map((d) => d.id), expected.slice(0, 3), "legacy bracketed orderings");
    const first = await client.getFirst({
      filters: [prismic.filter.at("document.type", "news_item")],
      orderings: { field: "my.news_item.date", direction: "desc" },
    });
    assert.equal(first.id, expected[0], "getFirst gives the newest");
    const getFirstReq = searches(client).at(-1).url;
    assert.equal(getFirstReq.searchParams.get("pageSize"), "1", "getFirst asks for pageSize=1");
    const afterThird = await client.getByType("news_item", {
      orderings: { field: "my.news_item.date", direction: "desc" },
      after: expected[2],
      pageSize: 3,
    });
    assert.deepEqual(afterThird.results.map((d) => d.id), expected.slice(3, 6), "after: the documents that follow");
    const byPublication = await client.getAllByType("page", {
      orderings: [{ field: "document.first_publication_date", direction: "desc" }, { field: "my.page.uid" }],
    });
    assert.equal(byPublication.length, demoByType("page").length);
  });

  test("getTags lists the tags of published documents", async () => {
    const client = makeClient();
    const tags = await client.getTags();
    const expected = [...new Set(published.flatMap((d) => d.tags))].sort();
    assert.deepEqual([...tags].sort(), expected);
    const byTag = await client.getAllByTag("volunteering");
    assert.deepEqual(ids(byTag), demoIds(published.filter((d) => d.tags.includes("volunteering"))));
    const byEvery = await client.getAllByEveryTag(["news", "governance"]);
    assert.deepEqual(ids(byEvery), demoIds(published.filter((d) => d.tags.includes("news") && d.tags.includes("governance"))));
  });

  test("routes fill document url; fetchLinks and graphQuery fill linked data", async () => {
    const client = makeClient({
      routes: [
        { type: "news_item", path: "/news/:uid" },
        { type: "page", path: "/:parent?/:uid", resolvers: { parent: "parent" } },
      ],
    });
    const item = await client.getByUID("news_item", news[0].uid);
    assert.equal(item.url, `/news/${news[0].uid}`, "routes resolve :uid");
    const guide = await client.getByUID("page", "how-to-start-your-family-tree");
    assert.equal(guide.url, "/guides/how-to-start-your-family-tree", "routes resolve a parent via resolvers");
    const top = await client.getByUID("page", "about");
    assert.equal(top.url, "/about", "an optional resolver segment is left out when empty");

    const linked = await makeClient().getByUID("page", "how-to-start-your-family-tree", { fetchLinks: ["page.title"] });
    assert.equal(linked.data.parent.link_type, "Document");
    assert.equal(linked.data.parent.uid, "guides");
    assert.equal(prismic.asText(linked.data.parent.data?.title), titleOf(demoDoc("guides", "page")), "fetchLinks copies the title");
    const unlinked = await makeClient().getByUID("page", "how-to-start-your-family-tree");
    assert.equal(unlinked.data.parent.data, undefined, "no data on a link without fetchLinks");

    const gq = await makeClient().getByUID("page", "how-to-start-your-family-tree", {
      graphQuery: `{ page { title parent { ...on page { uid title } } } }`,
    });
    assert.deepEqual(Object.keys(gq.data).sort(), ["parent", "title"], "graphQuery selects fields");
    assert.equal(prismic.asText(gq.data.parent.data?.title), titleOf(demoDoc("guides", "page")));
  });
});

describe("refs and previews", () => {
  const draftTitle = "Draft: a headline only the preview sees";
  const newDraft = {
    id: "E2eDraftOnly0001",
    uid: "e2e-draft-only-page",
    type: "page",
    lang: "en-gb",
    tags: ["e2e"],
    data: {
      title: [{ type: "heading1", text: "A page that exists only as a draft", spans: [] }],
      description: "Draft only.",
      parent: { link_type: "Any" },
      body: [],
    },
  };
  let item;
  before(() => {
    item = structuredClone(newsNewestFirst().at(-1));
    const draft = structuredClone(item);
    draft.data.title = [{ type: "heading1", text: draftTitle, spans: [] }];
    saveDraft(ctx.server.dataDir, draft);
    saveDraft(ctx.server.dataDir, newDraft);
  });

  test("a preview ref from `lineage content preview` sees drafts; the master does not", async () => {
    const token = previewToken();
    const client = makeClient();
    const master = await client.getByID(item.id);
    assert.equal(prismic.asText(master.data.title), titleOf(item), "the master shows the published title");
    await assert.rejects(client.getByUID("page", newDraft.uid), prismic.NotFoundError, "the master has no draft-only page");

    const viaRef = await client.getByID(item.id, { ref: token });
    assert.equal(prismic.asText(viaRef.data.title), draftTitle, "the preview ref shows the draft");
    const onlyDraft = await client.getByUID("page", newDraft.uid, { ref: token });
    assert.equal(onlyDraft.id, newDraft.id);
    assert.equal(searches(client).at(-1).url.searchParams.get("ref"), token, "the token went as ref verbatim");

    const previewing = makeClient();
    previewing.queryContentFromRef(token);
    assert.equal(prismic.asText((await previewing.getByID(item.id)).data.title), draftTitle, "queryContentFromRef");
    // Preview tokens are not listed in the repository's refs.
    const repo = await client.getRepository();
    assert.ok(!repo.refs.some((r) => r.ref === token), "preview refs are not advertised");
  });

  test("auto-previews read the io.prismic.preview cookie of a request", async () => {
    const token = previewToken();
    const client = makeClient();
    client.enableAutoPreviewsFromReq(
      new Request(`${ctx.server.url}/news/${item.uid}`, { headers: { cookie: `other=1; io.prismic.preview=${token}` } }),
    );
    assert.equal(prismic.asText((await client.getByUID("news_item", item.uid)).data.title), draftTitle);
  });

  test("resolvePreviewURL resolves the previewed document through the link resolver", async () => {
    const token = previewToken();
    const client = makeClient();
    const linkResolver = (doc) => (doc.type === "news_item" ? `/news/${doc.uid}` : doc.type === "page" ? `/${doc.uid}` : null);
    assert.equal(
      await client.resolvePreviewURL({ previewToken: token, documentID: item.id, linkResolver, defaultURL: "/" }),
      `/news/${item.uid}`,
    );
    assert.equal(
      await client.resolvePreviewURL({ previewToken: token, documentID: newDraft.id, linkResolver, defaultURL: "/" }),
      `/${newDraft.uid}`,
      "a document that exists only as a draft",
    );
    const req = searches(client).at(-1).url;
    assert.equal(req.searchParams.get("ref"), token);
    assert.equal(req.searchParams.get("lang"), "*");
    // Through the request's query string, as the site's /preview route does it.
    const fromReq = makeClient();
    fromReq.enableAutoPreviewsFromReq(new Request(`${ctx.server.url}/preview?token=${encodeURIComponent(token)}&documentId=${item.id}`));
    assert.equal(await fromReq.resolvePreviewURL({ linkResolver, defaultURL: "/" }), `/news/${item.uid}`);
    await assert.rejects(
      client.resolvePreviewURL({ previewToken: token, documentID: "NoSuchDocument00", linkResolver, defaultURL: "/" }),
      prismic.NotFoundError,
      "an unknown document",
    );
  });

  test("an expired preview token is PreviewTokenExpiredError", async () => {
    const token = previewToken(["--ttl", "1s"]);
    const client = makeClient();
    assert.equal(prismic.asText((await client.getByID(item.id, { ref: token })).data.title), draftTitle, "valid at first");
    await new Promise((r) => setTimeout(r, 1_200));
    await assert.rejects(client.getByID(item.id, { ref: token }), prismic.PreviewTokenExpiredError);
  });

  test("an unknown ref is RefNotFound (404) and the client retries with the master ref", async () => {
    const client = makeClient({ ref: "no-such-ref" });
    const { value: doc } = await catchingWarnings(() => client.getByUID("news_item", item.uid));
    assert.equal(prismic.asText(doc.data.title), titleOf(item), "the retry gives the published document");
    const s = searches(client);
    assert.equal(s[0].status, 404);
    assert.equal(s[0].url.searchParams.get("ref"), "no-such-ref");
    const master = (await makeClient().getMasterRef()).ref;
    assert.equal(s[1].status, 200);
    assert.equal(s[1].url.searchParams.get("ref"), master, "retried with the master ref from the error message");

    const raw = await fetch(s[0].url);
    assert.equal(raw.status, 404);
    const body = await raw.json();
    assert.equal(body.type, "api_notfound_error");
    assert.match(body.message, new RegExp(`Master ref is: ${master}$`));
  });

  test("an old master ref is RefExpired (410) after a publish, and the client retries with the new one", async () => {
    const oldRef = (await makeClient().getMasterRef()).ref;
    // Publish (re-import) one demo document unchanged: the master ref moves.
    const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-e2e-import-"));
    try {
      const doc = demoDoc("christmas-closing-2025", "news_item");
      writeFileSync(path.join(dir, `${doc.type}.${doc.uid}.json`), JSON.stringify(doc));
      runLineage(["content", "import", dir, "--data", ctx.server.dataDir], { env: { LINEAGE_PUBLIC_URL: ctx.server.url } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Another process published: the server trusts its idea of the master ref for up
    // to its RefCheckInterval (1 s by default), so wait for the new one to show.
    const fresh = makeClient();
    let newRef = oldRef;
    for (const deadline = Date.now() + 5_000; newRef === oldRef && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 250));
      newRef = (await (await fetch(`${ctx.server.url}/content/api/v2`)).json()).refs.find((r) => r.isMasterRef).ref;
    }
    assert.notEqual(newRef, oldRef, "the import moved the master ref (seen within 5 s)");

    const raw = await fetch(`${ctx.server.url}/content/api/v2/documents/search?ref=${oldRef}`);
    assert.equal(raw.status, 410, "the old ref answers 410 Gone");
    assert.match((await raw.json()).message, new RegExp(`Master ref is: ${newRef}$`));

    // A client still holding the old ref (as one whose 5 s repository cache predates
    // the publish does) meets the 410 and retries with the master ref it names.
    const stale = makeClient({ ref: oldRef });
    const { value: doc } = await catchingWarnings(() => stale.getByUID("news_item", item.uid));
    assert.equal(doc.id, item.id);
    const s = searches(stale);
    assert.equal(s[0].url.searchParams.get("ref"), oldRef);
    assert.equal(s[0].status, 410);
    assert.equal(s.at(-1).status, 200);
    assert.equal(s.at(-1).url.searchParams.get("ref"), newRef, "retried with the new master ref");

    // The preview token still sees drafts after the publish.
    const token = previewToken();
    assert.equal(prismic.asText((await fresh.getByID(item.id, { ref: token })).data.title), draftTitle);
  });
});
