// /preview?token=&documentId= (seed-spec §2 "Preview", docs/web.md): a token from
// `lineage content preview` on the server's store, a draft saved in that store, and
// the redirect to the document's path, where the draft shows under a preview bar.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { runLineage, setup } from "./harness.mjs";
import { demoDoc, titleOf } from "./demo.mjs";
import { saveDraft } from "./draft.mjs";

const ctx = setup({ name: "preview" });

const guide = demoDoc("how-to-use-census-records", "page");
const draftTitle = "How to use census records (draft revision)";
const draftOnly = {
  id: "E2ePreviewDraft1",
  uid: "e2e-preview-draft",
  type: "page",
  lang: "en-gb",
  tags: ["e2e"],
  data: {
    title: [{ type: "heading1", text: "A brand-new page in draft", spans: [] }],
    description: "Not yet published.",
    parent: { link_type: "Any" },
    body: [
      {
        slice_type: "rich_text",
        slice_label: null,
        id: "rich_text$e2e-preview-draft-0",
        variation: "default",
        version: "initial",
        primary: { content: [{ type: "paragraph", text: "Only a preview shows this paragraph.", spans: [] }] },
        items: [],
      },
    ],
  },
};

const previewUrl = (documentId, t = token) => `/preview?token=${encodeURIComponent(t)}&documentId=${encodeURIComponent(documentId)}`;

let token;

describe("preview", () => {
  before(() => {
    const draft = structuredClone(guide);
    draft.data.title = [{ type: "heading1", text: draftTitle, spans: [] }];
    saveDraft(ctx.server.dataDir, draft);
    saveDraft(ctx.server.dataDir, draftOnly);
    const { stdout } = runLineage(["content", "preview", "--data", ctx.server.dataDir], { env: { LINEAGE_PUBLIC_URL: ctx.server.url } });
    token = stdout.trim().split("\n")[0].trim();
    assert.ok(token, "lineage content preview printed a token");
  });

  test("the redirect: status, Location, and the preview cookie", async () => {
    const res = await fetch(ctx.server.at(previewUrl(guide.id)), { redirect: "manual" });
    assert.ok([302, 303, 307].includes(res.status), `a redirect (got ${res.status})`);
    assert.equal(new URL(res.headers.get("location"), ctx.server.url).pathname, "/learn/guides/how-to-use-census-records");
    assert.match(res.headers.get("cache-control") ?? "", /no-store/);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^io\.prismic\.preview=/, "sets io.prismic.preview");
    assert.ok(cookie.includes(token) || cookie.includes(encodeURIComponent(token)), "the cookie carries the token");
    assert.match(cookie, /Path=\//i);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Max-Age=\d+|Expires=/i, "a lifetime (30 min)");
  });

  test("previewing a published page's draft", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    const res = await page.goto(previewUrl(guide.id));
    assert.equal(res.status(), 200);
    assert.equal(new URL(page.url()).pathname, "/learn/guides/how-to-use-census-records", "redirected to the document's path");
    assert.equal((await page.locator("h1").textContent()).trim(), draftTitle, "the draft's title");
    const bar = page.getByText(/preview/i).first();
    assert.ok(await bar.isVisible(), "a preview bar says so");
    assert.ok((await page.locator('a[href="/preview?exit=1"]').count()) > 0, "the bar links to /preview?exit=1");
    await ctx.visit(page, "/learn/guides/how-to-use-census-records");

    // Other visitors (no cookie) see the published page.
    const other = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(other, "/learn/guides/how-to-use-census-records");
    assert.equal((await other.locator("h1").textContent()).trim(), titleOf(guide));

    // Ending the preview.
    const exit = await page.goto("/preview?exit=1");
    assert.equal(new URL(page.url()).pathname, "/", "exit goes home");
    assert.equal(exit.status(), 200);
    const cookies = await page.context().cookies();
    assert.ok(!cookies.some((c) => c.name === "io.prismic.preview" && c.value), "the preview cookie is cleared");
    await ctx.visit(page, "/learn/guides/how-to-use-census-records");
    assert.equal((await page.locator("h1").textContent()).trim(), titleOf(guide), "published content again");
  });

  test("previewing a document that exists only as a draft", async () => {
    const page = await ctx.newPage();
    await page.goto(previewUrl(draftOnly.id));
    assert.equal(new URL(page.url()).pathname, `/${draftOnly.uid}`);
    await ctx.visit(page, `/${draftOnly.uid}`);
    assert.equal((await page.locator("h1").textContent()).trim(), "A brand-new page in draft");
    assert.ok((await page.locator("main").textContent()).includes("Only a preview shows this paragraph."));

    const other = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(other, `/${draftOnly.uid}`, { status: 404 });
  });

  test("an unknown document or no token go home; an unknown token falls back to published content", async () => {
    for (const [what, url] of [
      ["unknown document", previewUrl("NoSuchDocument00")],
      ["a draft-only document with an unknown token", previewUrl(draftOnly.id, "no-such-preview-token")],
      ["no token", "/preview"],
    ]) {
      const res = await fetch(ctx.server.at(url), { redirect: "manual" });
      assert.ok([302, 303, 307].includes(res.status), `${what}: a redirect (got ${res.status})`);
      assert.equal(new URL(res.headers.get("location"), ctx.server.url).pathname, "/", `${what}: to the home page`);
    }
    // An unknown token is an unknown ref: @prismicio/client retries with the master
    // ref, so a published document still resolves to its path, with published content.
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto(previewUrl(guide.id, "no-such-preview-token"));
    assert.equal(new URL(page.url()).pathname, "/learn/guides/how-to-use-census-records");
    await ctx.visit(page, "/learn/guides/how-to-use-census-records");
    assert.equal((await page.locator("h1").textContent()).trim(), titleOf(guide), "published content, not an error");
  });
});
