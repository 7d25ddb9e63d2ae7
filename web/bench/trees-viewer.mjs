// Measures the tree viewer on a large tree in Debian's Chromium: how long a tree page
// with the viewer takes to load and hydrate, how many boxes the chart holds, how long
// moving the chart to another person (a click) and a keyboard step take. Not a test:
// figures go to docs/benchmarks-trees-web.md.
//
//   node bench/trees-viewer.mjs http://127.0.0.1:PORT TREE-SLUG [ROUNDS] [GENERATIONS]
//
// The server must already hold the tree (e.g. `gedcombench generate -people 10000`
// then `lineage import gedcom --tree TREE-SLUG FILE`). Requests go to that loopback
// server only, a bounded number of times.
import { chromium } from "playwright-core";

const [base, slug, roundsArg = "10", generationsArg = "6"] = process.argv.slice(2);
const generations = Math.min(6, Math.max(2, Number(generationsArg)));
if (!base || !slug) {
  console.error("usage: node bench/trees-viewer.mjs http://127.0.0.1:PORT TREE-SLUG [ROUNDS]");
  process.exit(2);
}
const url = new URL(base);
if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) throw new Error("loopback servers only");
const rounds = Math.min(50, Math.max(1, Number(roundsArg)));
const api = async (p) => (await fetch(new URL(p, base))).json();

// The person with the largest 6-generation hourglass (the viewer's largest chart) among the first 100 in the tree.
const tree = await api(`/api/trees/${slug}`);
const { results } = await api(`/api/trees/${slug}/people?limit=100`);
let best = null;
for (const p of results) {
  const g = await api(`/api/trees/${slug}/graph?person=${p.id}&kind=hourglass&generations=5`);
  if (!best || g.indis.length > best.size) best = { id: p.id, name: p.name, size: g.indis.length };
}

const browser = await chromium.launch({ executablePath: process.env.LINEAGE_E2E_CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const path = `/research-hub/our-collections/family-trees/${slug}?person=${best.id}&chart=hourglass&generations=${generations}`;

const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const load = [];
const hydrate = [];
const moves = [];
const keys = [];
let boxes = 0;
let listItems = 0;
for (let i = 0; i < rounds; i++) {
  const t0 = Date.now();
  await page.goto(new URL(path, base).href, { waitUntil: "load" });
  load.push(Date.now() - t0);
  await page.waitForSelector('svg[role=group] [data-key="root"]');
  hydrate.push(Date.now() - t0);
  boxes = await page.locator("svg[role=group] [data-key]").count();
  listItems = await page.locator("#viewer li").count();

  // A keyboard step: focus the person, ArrowUp, wait for focus to land.
  await page.locator('[data-key="root"]').focus();
  const k = await page.evaluate(async () => {
    const t = performance.now();
    document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t;
  });
  keys.push(k);

  // A move: click a parent's box; wait for the new person's chart.
  const target = await page.locator('[data-key="root.f"]').getAttribute("data-person");
  if (target) {
    const t1 = Date.now();
    await page.locator('[data-key="root.f"]').click();
    await page.waitForFunction((id) => document.querySelector('svg [data-key="root"]')?.getAttribute("data-person") === id, target);
    moves.push(Date.now() - t1);
  }
}
await browser.close();

const row = (name, xs) => `| ${name} | ${pct(xs, 0.5).toFixed(0)} ms | ${pct(xs, 0.95).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms |`;
console.log(`Tree: ${tree.title} (${tree.counts.people} people, ${tree.counts.families} families); person ${best.name} (${best.id}), hourglass of ${generations} generations: ${boxes} boxes in the chart, ${listItems} list items; ${rounds} rounds.\n`);
console.log("| what | median | p95 | max |\n| --- | --- | --- | --- |");
console.log(row("page load (server render, `load` event)", load));
console.log(row("until the chart is drawn (hydration + layout)", hydrate));
console.log(row("click a box: the new person's chart drawn (loader + API + layout)", moves));
console.log(row("arrow key: focus moved (one frame)", keys.map((k) => Math.round(k * 10) / 10)));
