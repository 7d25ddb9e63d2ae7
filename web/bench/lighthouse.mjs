// Lighthouse on five pages (home, a news item, an event, research results, a person),
// mobile and desktop, against the real `lineage serve --demo` that web/e2e's harness
// starts (LINEAGE_E2E_BIN / LINEAGE_E2E_WEB name another binary or web build), with
// Debian's chromium (LINEAGE_E2E_CHROMIUM names another). A benchmark, not a test: the
// scores depend on the machine's load, which is printed with them. `make lighthouse`
// writes the table into docs/benchmarks.md under "## Lighthouse".
//
//   node bench/lighthouse.mjs [--runs N] [--write ../docs/benchmarks.md] [--only home,person] [--form mobile] [--keep DIR]
//
// --only measures some of the pages (by name, as in the table), --form one of the two forms; --keep leaves each run's
// Lighthouse JSON report in DIR, to look at what a score is made of.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CHROMIUM, launchBrowser, startServer } from "../e2e/harness.mjs";
import { measureServed } from "./js-budget.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LIGHTHOUSE = path.join(HERE, "..", "node_modules", "lighthouse", "cli", "index.js");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const FORMS = ["mobile", "desktop"];
const SECTION = "Lighthouse";

const { values: opts } = parseArgs({
  options: {
    runs: { type: "string", default: process.env.LIGHTHOUSE_RUNS ?? "1" },
    write: { type: "string" },
    only: { type: "string" },
    keep: { type: "string" },
    form: { type: "string" },
  },
});
const runs = Math.max(1, Number(opts.runs) || 1);
if ((opts.only || opts.form) && opts.write) throw new Error("--write takes the whole table: not with --only or --form");
if (opts.form && !FORMS.includes(opts.form)) throw new Error(`--form: one of ${FORMS.join(", ")}`);
const forms = opts.form ? [opts.form] : FORMS;

/** The first same-site link in `html` whose path matches `re`. */
function firstLink(html, re) {
  for (const m of html.matchAll(/href="([^"#]+)"/g)) if (re.test(m[1])) return m[1].replaceAll("&amp;", "&");
  return null;
}

async function html(server, p) {
  const res = await fetch(server.at(p));
  if (!res.ok) throw new Error(`GET ${p}: ${res.status}`);
  return res.text();
}

/** The five pages, found from the demo site's own links rather than guessed slugs. */
async function pages(server) {
  const news = firstLink(await html(server, "/news"), /^\/news\/[^/?]+$/);
  const event = firstLink(await html(server, "/sog-events"), /^\/sog-events\/(?!join)[^/?]+$/);
  const trees = firstLink(await html(server, "/research-hub/our-collections/family-trees"), /^\/research-hub\/our-collections\/family-trees\/[^/?]+$/);
  const person = trees && firstLink(await html(server, trees), /^\/research-hub\/our-collections\/family-trees-record\/[^/?]+$/);
  const found = {
    home: "/",
    "news item": news,
    event,
    "research results": "/research-hub/our-collections/searchexplore?surname=Smith",
    person,
  };
  for (const [name, p] of Object.entries(found)) if (!p) throw new Error(`no ${name} page linked from the demo site`);
  return found;
}

function lighthouse(url, form, outFile) {
  const args = [
    LIGHTHOUSE,
    url,
    "--output=json",
    `--output-path=${outFile}`,
    `--only-categories=${CATEGORIES.join(",")}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage",
    "--quiet",
    ...(form === "desktop" ? ["--preset=desktop"] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(readFileSync(outFile, "utf8"))) : reject(new Error(`lighthouse ${url} (${form}) exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** The figures of one report: category scores (0–100), CLS, script bytes as transferred. */
function figures(report) {
  const score = (c) => Math.round((report.categories[c]?.score ?? 0) * 100);
  const requests = report.audits["network-requests"]?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === "Script");
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: score("seo"),
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
    lcp: report.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    jsKB: scripts.reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024,
    uv: scripts.some((r) => r.url.includes("/uv/umd/UV.js")),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const tmp = mkdtempSync(path.join(os.tmpdir(), "lineage-lighthouse-"));
const server = await startServer({ name: "lighthouse" });
const rows = [];
const load = [os.loadavg()[0]];
let list;
try {
  list = await pages(server);
  // One request each first, so that every run sees what a visitor after the first sees
  // (the page cache filled, the SSR workers warm).
  for (const p of Object.values(list)) await html(server, p);
  const only = opts.only ? opts.only.split(",").map((s) => s.trim()) : null;
  if (opts.keep) mkdirSync(opts.keep, { recursive: true });
  const browser = await launchBrowser();
  const served = {};
  try {
    for (const [name, p] of Object.entries(list)) if (!only || only.includes(name)) served[name] = await measureServed(browser, server.at(p));
  } finally {
    await browser.close();
  }
  for (const [name, p] of Object.entries(list)) {
    if (only && !only.includes(name)) continue;
    for (const form of forms) {
      const got = [];
      for (let i = 0; i < runs; i++) {
        const file = opts.keep ? path.join(opts.keep, `${name.replaceAll(" ", "-")}-${form}-${i + 1}.json`) : path.join(tmp, "r.json");
        got.push(figures(await lighthouse(server.at(p), form, file)));
      }
      const row = { name, path: p, form, uv: got.some((g) => g.uv), served: served[name] };
      for (const k of ["performance", "accessibility", "best-practices", "seo", "cls", "lcp", "jsKB"]) row[k] = median(got.map((g) => g[k]));
      rows.push(row);
      console.log(`${name.padEnd(17)} ${form.padEnd(8)} perf ${row.performance} a11y ${row.accessibility} bp ${row["best-practices"]} seo ${row.seo} CLS ${row.cls.toFixed(3)} LCP ${(row.lcp / 1000).toFixed(1)} s JS ${row.jsKB.toFixed(1)} KB${row.uv ? " (UV.js)" : ""}`);
    }
  }
} finally {
  load.push(os.loadavg()[0]);
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const table = [
  "| page | form | performance | accessibility | best practices | SEO | CLS | LCP | JS transferred | scripts (gzip -9) |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.name} (\`${r.path}\`) | ${r.form} | ${r.performance} | ${r.accessibility} | ${r["best-practices"]} | ${r.seo} | ${r.cls.toFixed(3)} | ${(r.lcp / 1000).toFixed(1)} s | ${r.jsKB.toFixed(1)} KB${r.uv ? " (with UV.js)" : ""} | ${(r.served.gzip / 1024).toFixed(1)} KB in ${r.served.scripts.length} |`,
  ),
].join("\n");
const section = `## ${SECTION}

Written by \`make lighthouse\` (web/bench/lighthouse.mjs) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: Lighthouse
${JSON.parse(readFileSync(path.join(HERE, "..", "node_modules", "lighthouse", "package.json"), "utf8")).version} with ${path.basename(CHROMIUM)} (headless), \`lineage serve --demo\`
warmed with one request per page, median of ${runs} run${runs > 1 ? "s" : ""} per row; mobile is Lighthouse's default
(simulated slow 4G and a 4× slower CPU), desktop its desktop preset. Load average
${load.map((l) => l.toFixed(1)).join(" → ")} on ${os.cpus().length} cores (the machine is shared: scores move with it). JS is the
scripts' bytes as sent (the server's compression) with HTTP headers; "scripts" is every script Chromium fetched
for the page until none had been in flight for a second after the load event (after hydration too), each body gzip-compressed at level 9, and how many
files (\`node web/bench/js-budget.mjs --served\`): the figure of the home page's 100 KB budget.

${table}
`;
console.log("\n" + section);

if (opts.write) {
  const file = path.resolve(opts.write);
  let text = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  // Only this section: "## Lighthouse" alone on its line, up to the next "## " or the end.
  const re = new RegExp(`^## ${SECTION}[ \\t]*$.*?(?=^## |(?![\\s\\S]))`, "ms");
  text = re.test(text) ? text.replace(re, section + "\n") : text.trimEnd() + "\n\n" + section;
  writeFileSync(file, text.trimEnd() + "\n");
  console.log(`written to ${file}`);
}
