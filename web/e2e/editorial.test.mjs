// Editorial routes render on the server: every page below is fetched with JavaScript
// disabled, so what is asserted is the server's HTML. Expected texts come from
// demo/content, the set `serve --demo` loads.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertDocumentShell, setup } from "./harness.mjs";
import { asText, demoByType, demoDoc, firstBodyParagraph, newsNewestFirst, titleOf } from "./demo.mjs";

const ctx = setup({ name: "editorial" });

const newest = newsNewestFirst();
const newsItem = newest[0];
const featured = demoByType("feature_item");
const featuredItem = featured[0];
const guide = demoDoc("how-to-start-your-family-tree", "page");
const hint = demoDoc("surname-searching", "page");
const governance = demoDoc("governance", "page");
const trustees = demoDoc("board-of-trustees", "page");
const education = demoDoc("education", "page");
const home = demoDoc("home", "home");
const showcase = demoDoc("block-showcase", "page");

/** The first hero or rich-text heading of the home page, which carries its h1. */
function homeHeading() {
  for (const slice of home.data.body ?? []) {
    if (slice.slice_type === "hero") return asText(slice.primary.title).trim();
  }
  return titleOf(home);
}

const routes = [
  {
    path: "/",
    h1: homeHeading(),
    // The home page shows the latest news.
    texts: [titleOf(newest[0])],
  },
  {
    path: "/news",
    h1: "News",
    texts: newest.slice(0, 10).map(titleOf),
    links: [...newest.slice(0, 10).map((d) => `/news/${d.uid}`), "/news?page=2"],
    order: newest.slice(0, 10).map(titleOf),
  },
  {
    // Ten to a page, newest first, with a link to the older ones.
    path: "/news?page=2",
    h1: "News",
    canonicalPath: "/news?page=2",
    texts: newest.slice(10, 20).map(titleOf),
    links: [...newest.slice(10, 20).map((d) => `/news/${d.uid}`), "/news"],
    order: newest.slice(10, 20).map(titleOf),
  },
  {
    path: `/news/${newsItem.uid}`,
    h1: titleOf(newsItem),
    texts: [asText(newsItem.data.summary), firstBodyParagraph(newsItem)].filter(Boolean),
  },
  {
    path: "/education",
    h1: titleOf(education),
    texts: [firstBodyParagraph(education), ...featured.slice(0, 3).map(titleOf)].filter(Boolean),
    links: featured.slice(0, 3).map((d) => `/education/learning-hub/featured/${d.uid}`),
  },
  {
    path: "/education/learning-hub/featured",
    h1: "Featured learning",
    texts: featured.map(titleOf),
    links: featured.map((d) => `/education/learning-hub/featured/${d.uid}`),
  },
  {
    path: `/education/learning-hub/featured/${featuredItem.uid}`,
    h1: titleOf(featuredItem),
    texts: [asText(featuredItem.data.summary), firstBodyParagraph(featuredItem)].filter(Boolean),
  },
  {
    path: "/learn/guides/how-to-start-your-family-tree",
    h1: titleOf(guide),
    texts: [firstBodyParagraph(guide)].filter(Boolean),
  },
  {
    path: "/learn/hints-tips/surname-searching",
    h1: titleOf(hint),
    texts: [firstBodyParagraph(hint)].filter(Boolean),
  },
  {
    path: "/about/organisation/governance",
    h1: titleOf(governance),
    texts: [firstBodyParagraph(governance)].filter(Boolean),
  },
  {
    path: "/about/organisation/governance/board-of-trustees",
    h1: titleOf(trustees),
    texts: [firstBodyParagraph(trustees)].filter(Boolean),
  },
  ...["fhwuifhe", "cwbhvwt"].flatMap((type) => {
    const docs = demoByType(type);
    const one = docs[0];
    return [
      { path: `/${type}`, texts: docs.map(titleOf), links: docs.map((d) => `/${type}/${d.uid}`) },
      {
        path: `/${type}/${one.uid}`,
        h1: titleOf(one),
        texts: [asText(one.data.summary), firstBodyParagraph(one)].filter(Boolean),
      },
    ];
  }),
  // The spec has no /dheyenbvu/{slug}: the page shows every document in full, each
  // under an anchor named by its uid (docs/web.md).
  {
    path: "/dheyenbvu",
    texts: demoByType("dheyenbvu").flatMap((d) => [titleOf(d), firstBodyParagraph(d)]).filter(Boolean),
    anchors: demoByType("dheyenbvu").map((d) => d.uid),
  },
];

describe("editorial routes render on the server (JavaScript disabled)", () => {
  for (const route of routes) {
    test(route.path, async () => {
      assert.ok(route.texts.length > 0, `the test expects some demo text for ${route.path}`);
      const page = await ctx.newPage({ javaScriptEnabled: false });
      await ctx.visit(page, route.path);
      await assertDocumentShell(page, ctx.server, route.path, { canonicalPath: route.canonicalPath });
      const main = page.locator("main");
      assert.equal(await main.count(), 1, `one <main> on ${route.path}`);
      if (route.h1) {
        const h1s = await page.locator("h1").allTextContents();
        assert.deepEqual(
          h1s.map((t) => t.trim()),
          [route.h1],
          `exactly one h1, "${route.h1}", on ${route.path}`,
        );
        assert.ok((await page.title()).includes(route.h1), `<title> of ${route.path} names "${route.h1}"`);
      }
      if (route.order) {
        const cards = (await main.locator(".card__title").allTextContents()).map(normalise);
        assert.deepEqual(cards, route.order.map(normalise), `${route.path} lists them newest first`);
      }
      const text = normalise(await main.textContent());
      for (const expected of route.texts) {
        assert.ok(text.includes(normalise(expected)), `${route.path} shows "${expected}"`);
      }
      for (const id of route.anchors ?? []) {
        assert.equal(await page.locator(`[id="${id}"]`).count(), 1, `${route.path} has an element with id "${id}"`);
      }
      for (const href of route.links ?? []) {
        assert.ok((await main.locator(`a[href="${href}"]`).count()) > 0, `${route.path} links to ${href}`);
      }
    });
  }

  test("the web font is served", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/news");
    const href = await page.locator('head link[rel="preload"][as="font"]').first().getAttribute("href");
    assert.ok(href, "a font preload link");
    const res = await fetch(ctx.server.at(href));
    assert.equal(res.status, 200, `GET ${href}`);
    assert.match(res.headers.get("content-type") ?? "", /font\/woff2/);
    const css = page.locator('head link[rel="stylesheet"]');
    const sheets = await css.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    let fontFace = false;
    for (const s of sheets) {
      const body = await (await fetch(ctx.server.at(s))).text();
      if (/@font-face[^}]*Atkinson Hyperlegible/i.test(body)) fontFace = true;
    }
    assert.ok(fontFace, `an @font-face for Atkinson Hyperlegible in ${sheets.join(", ")}`);
    const uv = await fetch(ctx.server.at("/uv/umd/UV.js"), { method: "HEAD" });
    assert.equal(uv.status, 200, "GET /uv/umd/UV.js (the script tag's target)");
  });
});

describe("the block showcase (every slice, block and span kind)", () => {
  test("/block-showcase renders every slice and rich-text block", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/block-showcase");
    await assertDocumentShell(page, ctx.server, "/block-showcase");
    const main = page.locator("main");
    const text = normalise(await main.textContent());
    assert.ok(text.includes(titleOf(showcase)) || text.includes("Hero slice"), "the page title or its hero");

    const slices = Object.fromEntries(showcase.data.body.map((s) => [s.slice_type, s]));
    for (const type of ["rich_text", "hero", "gallery", "video", "grid"]) assert.ok(slices[type], `demo has a ${type} slice`);

    // Hero: its title, text and link (a Document link resolved by the link resolver).
    assert.ok(text.includes(asText(slices.hero.primary.title)), "hero title");
    assert.ok(text.includes(asText(slices.hero.primary.text)), "hero text");
    assert.ok(
      (await main.locator('a[href="/learn/guides/how-to-start-your-family-tree"]').count()) > 0,
      "hero link to the guide, resolved to /learn/guides/…",
    );

    // Rich text: headings at their levels, lists, preformatted text.
    const rich = slices.rich_text.primary.content;
    for (const level of [2, 3, 4, 5, 6]) {
      const block = rich.find((b) => b.type === `heading${level}`);
      assert.ok(block, `demo has heading${level}`);
      const found = await main.locator(`h${level}`, { hasText: block.text }).count();
      assert.ok(found > 0, `<h${level}> "${block.text}"`);
    }
    for (const b of rich.filter((b) => b.type === "list-item")) {
      assert.ok((await main.locator("ul > li", { hasText: b.text }).count()) > 0, `<ul><li> "${b.text}"`);
    }
    for (const b of rich.filter((b) => b.type === "o-list-item")) {
      assert.ok((await main.locator("ol > li", { hasText: b.text }).count()) > 0, `<ol><li> "${b.text}"`);
    }
    const pre = rich.find((b) => b.type === "preformatted");
    const preText = await main.locator("pre").allTextContents();
    assert.ok(preText.some((t) => t.includes(pre.text)), "the preformatted block, line breaks kept");

    // Images with alt text (rich-text image blocks and gallery items).
    for (const b of rich.filter((b) => b.type === "image")) {
      assert.ok((await main.locator(`img[alt="${b.alt}"]`).count()) > 0, `image "${b.alt}"`);
    }
    for (const item of slices.gallery.items) {
      assert.ok((await main.locator(`img[alt="${item.image.alt}"]`).count()) > 0, `gallery image "${item.image.alt}"`);
    }
    // Image blocks with linkTo are wrapped in their links.
    assert.ok(
      (await main.locator('a[href="/learn/guides/how-to-use-census-records"] img').count()) > 0,
      "image block linked to a Document",
    );
    assert.ok((await main.locator('a[href="https://www.visionofbritain.org.uk/"] img').count()) > 0, "image block linked to the Web");

    // Video slice and embed block: a facade from the oEmbed data (no player, nothing
    // from the host, until play is pressed), its play button a link to the video's page.
    assert.equal(await main.locator("iframe").count(), 0, "no player iframe before play is pressed");
    const plays = await main
      .getByRole("link", { name: /^Play video: / })
      .evaluateAll((els) => els.map((e) => [e.getAttribute("href"), e.textContent]));
    assert.ok(plays.length >= 1, "video facade(s)");
    for (const [href, name] of plays) {
      assert.match(href ?? "", /youtube/, `the play link of "${name}" goes to the video's page`);
    }
    assert.match(text, /Plays from YouTube when you press play/);

    // Grid items.
    for (const item of slices.grid.items) assert.ok(text.includes(item.title), `grid item "${item.title}"`);
  });

  test("/block-showcase spans land on the right characters (UTF-16 offsets)", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/block-showcase");
    const main = page.locator("main");
    const blocks = showcase.data.body.flatMap((s) => [...(s.primary.content ?? []), ...(Array.isArray(s.primary.text) ? s.primary.text : [])]);
    const tags = { strong: "strong", em: "em", hyperlink: "a", label: "span" };
    let checked = 0;
    for (const block of blocks) {
      for (const span of block.spans ?? []) {
        const tag = tags[span.type];
        if (!tag) continue;
        // JS strings index UTF-16 code units, like the stored offsets.
        const covered = block.text.slice(span.start, span.end);
        // A span crossing another is split into pieces; check its first piece starts right.
        const pieces = await main.locator(tag).evaluateAll((els) => els.map((e) => e.textContent ?? ""));
        const ok = pieces.some((p) => p.length > 0 && covered.startsWith(p));
        assert.ok(ok, `a <${tag}> starting "${covered}" (${span.type} ${span.start}-${span.end} of "${block.text.slice(0, 40)}…")`);
        checked++;
      }
    }
    assert.ok(checked > 10, "the showcase has spans to check");

    // The span after the emoji and the 𝔊 must be exact, not shifted by one.
    const bmp = blocks.find((b) => b.text.includes("🌳"));
    for (const span of bmp.spans) {
      const covered = bmp.text.slice(span.start, span.end);
      const tag = tags[span.type];
      assert.ok(
        (await main.locator(tag).evaluateAll((els, c) => els.some((e) => e.textContent === c), covered)),
        `<${tag}>${covered}</${tag}> after astral characters`,
      );
    }

    // Links: web links keep their URL, new-tab links are safe, labels carry a class.
    assert.equal(await main.locator('a[href="https://www.nationalarchives.gov.uk/"]').count() > 0, true, "web link");
    const blank = main.locator('a[href="https://www.freebmd.org.uk/"]');
    assert.equal(await blank.getAttribute("target"), "_blank", "target=_blank web link");
    assert.match((await blank.getAttribute("rel")) ?? "", /noopener|noreferrer/, "rel on a new-tab link");
    const pdf = await main.locator('a[href$="/media/annual-report-2025.pdf"]').count();
    assert.ok(pdf > 0, "media link to the PDF");
    assert.ok((await main.locator('a[href="/learn/guides/how-to-use-probate-records"]').count()) > 0, "document link resolved");
    assert.ok((await main.locator('span[class*="highlight"]').count()) > 0, "label span rendered with its label in a class");
    const pdfRes = await fetch(new URL(await main.locator('a[href$="/media/annual-report-2025.pdf"]').first().getAttribute("href"), ctx.server.url));
    assert.equal(pdfRes.status, 200, "the media link's target is served");
  });
});

function normalise(s) {
  return (s ?? "").replace(/\s+/g, " ").trim();
}
