// The tree viewer's "Show the whole chart" at 1366 and 390 px: no box cut off, text
// never below a legible size (the chart scrolls instead); and the global search's own
// example read as a name search, with matches in words.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, getJSON, setup } from "./harness.mjs";

const ctx = setup({ name: "trees-whole-chart" });
const TREES = "/research-hub/our-collections/family-trees";
/** The viewer's second line is 18px: at the legible minimum it is 12px. */
const LEGIBLE_PX = 12;

const api = (p) => getJSON(ctx, p);

const demo = {};

/** The chart's scale, from its transform. */
async function scale(page) {
  const t = await page.locator("svg[role=group] > g").getAttribute("transform");
  return Number(/scale\(([\d.]+)\)/.exec(t)[1]);
}

/** The boxes' rectangles and the frame's, in the viewport. */
async function geometry(page) {
  return page.evaluate(() => {
    const svg = document.querySelector("svg[role=group]");
    const frame = svg.parentElement;
    const r = (el) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    };
    return {
      frame: r(frame),
      scrolls: frame.dataset.scrolls === "true",
      scrollWidth: frame.scrollWidth,
      clientWidth: frame.clientWidth,
      boxes: [...svg.querySelectorAll("[data-key] rect")].map(r),
      pageScrollsSideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    };
  });
}

describe("the whole chart", () => {
  before(async () => {
    const { trees } = await api("/api/trees");
    demo.tree = trees[0];
    const { results } = await api(`/api/trees/${demo.tree.slug}/people?limit=200`);
    // The widest chart the demo offers: someone with parents and children, 4 generations.
    for (const summary of results) {
      const p = await api(`/api/trees/${demo.tree.slug}/people/${summary.id}`);
      if (!p.living && (p.parents[0]?.partners ?? []).length === 2 && p.families.some((f) => f.children.length)) {
        demo.person = p;
        break;
      }
    }
    assert.ok(demo.person, "the demo tree has someone with parents and children");
  });

  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width} px: fits without cutting boxes off, or scrolls at a legible size`, { timeout: 90_000 }, async () => {
      const page = await ctx.newPage({ viewport });
      await ctx.visit(page, `${TREES}/${demo.tree.slug}?person=${demo.person.id}&chart=hourglass&generations=4`);
      const chart = page.getByRole("group", { name: new RegExp(`chart of ${demo.person.name}$`) });
      await chart.waitFor();
      await page.getByRole("button", { name: "Show the whole chart" }).click();
      await page.waitForFunction(() => document.querySelector("svg[role=group]")?.parentElement);
      // Let the state settle (one frame for the scroll position).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

      const k = await scale(page);
      assert.ok(k * 18 >= LEGIBLE_PX - 0.01, `the chart's text is drawn at ${(k * 18).toFixed(1)}px (scale ${k})`);
      const g = await geometry(page);
      assert.ok(g.boxes.length > 3, "the chart has boxes");
      assert.equal(g.pageScrollsSideways, false, "the page itself does not scroll sideways");
      if (!g.scrolls) {
        for (const b of g.boxes) {
          assert.ok(b.left >= g.frame.left && b.right <= g.frame.right, `a box (${b.left}–${b.right}) is cut off by the frame (${g.frame.left}–${g.frame.right})`);
          assert.ok(b.top >= g.frame.top && b.bottom <= g.frame.bottom, "a box is cut off at the top or bottom");
        }
      } else {
        assert.ok(g.scrollWidth > g.clientWidth || (await page.evaluate(() => document.querySelector("svg[role=group]").parentElement.scrollHeight > 0)));
        await page.getByRole("status").filter({ hasText: "scroll the frame" }).waitFor();
        // Scrolled to each side, the outermost boxes come wholly into the frame.
        for (const side of ["start", "end"]) {
          await page.evaluate((s) => {
            const f = document.querySelector("svg[role=group]").parentElement;
            f.scrollTo({ left: s === "start" ? 0 : f.scrollWidth, top: 0 });
          }, side);
          const s = await geometry(page);
          const edge = side === "start" ? Math.min(...s.boxes.map((b) => b.left)) : Math.max(...s.boxes.map((b) => b.right));
          if (side === "start") assert.ok(edge >= s.frame.left, `the leftmost box starts at ${edge}, left of the frame ${s.frame.left}`);
          else assert.ok(edge <= s.frame.right, `the rightmost box ends at ${edge}, right of the frame ${s.frame.right}`);
        }
        // Walking with the keyboard keeps the focused box in the frame's view.
        await chart.locator('[data-key="root"]').focus();
        await page.keyboard.press("ArrowUp");
        await page.keyboard.press("ArrowUp");
        const inView = await page.evaluate(() => {
          const a = document.activeElement.getBoundingClientRect();
          const f = document.querySelector("svg[role=group]").parentElement.getBoundingClientRect();
          return a.left >= f.left - 1 && a.right <= f.right + 1 && a.top >= f.top - 1 && a.bottom <= f.bottom + 1;
        });
        assert.ok(inView, "the focused box is scrolled into the frame");
        // Zooming leaves the scrolled view for the panned one.
        await page.getByRole("button", { name: "Zoom in" }).click();
        await page.waitForFunction(() => document.querySelector("svg[role=group]").parentElement.dataset.scrolls !== "true");
      }
      await checkA11y(page, `whole chart ${viewport.width}`);
    });
  }
});

describe("the global search's example", () => {
  test("“John Smith 1850” is read as a name search and finds the demo's records, matches in words", { timeout: 60_000 }, async () => {
    const page = await ctx.newPage({ viewport: { width: 1366, height: 900 } });
    await ctx.visit(page, `/research-hub/our-collections/searchexplore?q=${encodeURIComponent("John Smith 1850")}`);
    await page.getByText(/^Showing Smith, John, 1850 ± \d+/).waitFor();
    const rows = page.locator("#global-index-table tbody tr");
    assert.ok((await rows.count()) > 0, "index records found");
    const matches = await rows.locator("td:last-child").allTextContents();
    for (const m of matches) assert.match(m, /^(Exact|Close|Partial|Loose) match$/, `the match column says ${m}`);
  });
});
