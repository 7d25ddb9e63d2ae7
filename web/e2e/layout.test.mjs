// Every spec route (seed-spec §2, with the demo set's slugs) at a 390 px phone and a
// 1366 px laptop: at 390 px no page may scroll sideways; the harness fails any page with
// a console error or a failed request, and axe checks each. With
// LINEAGE_E2E_SCREENSHOTS=1, a full-page screenshot of each is kept as an artefact (in
// LINEAGE_E2E_ARTIFACTS, default <tmp>/lineage-e2e-artifacts/screenshots, outside the
// repository); they are for people to look at, and cost make test a minute and a half.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setup } from "./harness.mjs";
import { demoByType } from "./demo.mjs";

const ctx = setup({ name: "layout" });

export const ARTIFACTS = process.env.LINEAGE_E2E_ARTIFACTS || path.join(os.tmpdir(), "lineage-e2e-artifacts");
const SHOTS = path.join(ARTIFACTS, "screenshots");
const SCREENSHOTS = process.env.LINEAGE_E2E_SCREENSHOTS === "1";

const HUB = "/research-hub/our-collections";
const first = (type) => demoByType(type)[0].uid;

/** The spec's routes, each with a demo document or record where it takes a slug. */
const ROUTES = [
  "/",
  "/news",
  `/news/${first("news_item")}`,
  "/education",
  "/education/learning-hub/featured",
  `/education/learning-hub/featured/${first("feature_item")}`,
  "/fhwuifhe",
  `/fhwuifhe/${first("fhwuifhe")}`,
  `/cwbhvwt/${first("cwbhvwt")}`,
  "/dheyenbvu",
  "/sog-events",
  `/sog-events/${first("event")}`,
  "/sog-events/join",
  "/image-viewer",
  "/image-viewer/demo-register-1851",
  "/login-required",
  "/sign-in",
  "/register",
  "/subscribe",
  "/subscribe/individual",
  HUB,
  `${HUB}/record-sets/parish-baptisms`,
  `${HUB}/birth-briefs`,
  `${HUB}/family-trees`,
  `${HUB}/memorial-cards`,
  `${HUB}/memorial-cards/memorial-cards`,
  `${HUB}/record-sets`,
  `${HUB}/indexes/wills-index`,
  `${HUB}/pedigree-search`,
  `${HUB}/searchexplore`,
  "/learn/guides/how-to-start-your-family-tree",
];

const shotName = (p) => (p === "/" ? "home" : p.slice(1).replace(/[^A-Za-z0-9-]+/g, "_"));

/** Elements wider than the window or reaching past its right edge: what makes a page scroll sideways. */
async function sidewaysOverflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return { scrollWidth: document.documentElement.scrollWidth, width, culprits: [] };
    const culprits = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && r.width > 0) {
        const parent = el.parentElement?.getBoundingClientRect();
        // Report the outermost element that overflows, not each of its children.
        if (!parent || parent.right <= width + 1) {
          culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} (right edge ${Math.round(r.right)} px)`);
        }
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, culprits: culprits.slice(0, 10) };
  });
}

for (const width of [390, 1366]) {
  describe(`every spec route at ${width} px`, () => {
    const dir = path.join(SHOTS, String(width));
    for (const p of ROUTES) {
      test(`${p}: ${width === 390 ? "no sideways scrolling" : "loads cleanly"}${SCREENSHOTS ? ", screenshot" : ""}`, async () => {
        const page = await ctx.newPage({ viewport: { width, height: width === 390 ? 844 : 768 } });
        await ctx.visit(page, p);
        if (width === 390 || SCREENSHOTS) {
          // The viewer and other islands draw after hydration; let the page settle, but not
          // for long: a page that keeps a request going (a video facade's poster, a live
          // count) never becomes network-idle, and it is still worth checking.
          await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
        }
        if (SCREENSHOTS) {
          mkdirSync(dir, { recursive: true });
          await page.screenshot({ path: path.join(dir, `${shotName(p)}.png`), fullPage: true });
        }
        if (width === 390) {
          const o = await sidewaysOverflow(page);
          assert.ok(o.scrollWidth <= o.width, `${p} scrolls sideways at 390 px: ${o.scrollWidth} px wide in ${o.width} px; ${o.culprits.join(", ")}`);
        }
      });
    }
  });
}

test("where the screenshots are", () => {
  console.log(SCREENSHOTS ? `# screenshots at 390 and 1366 px: ${SHOTS}` : "# no screenshots (LINEAGE_E2E_SCREENSHOTS=1 keeps them)");
});
