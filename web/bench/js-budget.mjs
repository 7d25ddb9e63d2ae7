// The JavaScript a page makes the browser load, two ways, sizes gzip-compressed at level 9
// (as a static file server would send them):
//
// - from a build's React Router manifest: the client entry, root and the page's route
//   modules with their static imports (the modulepreload set the server writes into the
//   page). No server needed: it reads build/client.
//
//     node bench/js-budget.mjs [webDir] [routeId…]   (defaults: this web/, routes/home)
//
//   That is what the page would cost if it hydrated: a route whose handle says
//   `hydrate: false` (the home page) is served without these scripts, which only
//   `--served` sees.
//
// - as served (`--served`): the real `lineage serve --demo` of web/e2e's harness, the page
//   opened in Chromium until no script has been in flight for a second after the load
//   event, every script response counted (module
//   preloads, the route manifest, chunks imported after hydration) and the inline scripts
//   of the HTML beside them. This is the figure the 100 KB budget of the home page is about.
//
//     node bench/js-budget.mjs --served [path…]      (default: /)
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

export function readManifest(webDir) {
  const assets = join(webDir, "build/client/assets");
  const file = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error(`no React Router manifest in ${assets}`);
  const text = readFileSync(join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, ""));
}

/** Every script URL the page of `routeIds` (below root) preloads, in order, without repeats. */
export function routeScripts(manifest, routeIds) {
  const urls = new Set();
  const add = (part) => [part.module, ...(part.imports ?? [])].forEach((u) => urls.add(u));
  add(manifest.entry);
  for (const id of ["root", ...routeIds]) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    add(route);
  }
  return [...urls];
}

export function gzipSize(buf) {
  return gzipSync(buf, { level: 9 }).length;
}

/** { scripts: [{url, bytes, gzip}], gzip: total } for a route set of a built web dir. */
export function measure(webDir, routeIds) {
  const scripts = routeScripts(readManifest(webDir), routeIds).map((url) => {
    const body = readFileSync(join(webDir, "build/client", url));
    return { url, bytes: body.length, gzip: gzipSize(body) };
  });
  return { scripts, gzip: scripts.reduce((n, s) => n + s.gzip, 0) };
}

/**
 * Every script `url` makes Chromium load until no script has been in flight for 1 s after
 * the load event, with each body's gzip size (level 9), and the inline scripts of the
 * page's HTML. Scripts only: waiting for the whole network to be quiet timed out on a
 * loaded machine (images, the route discovery fetch), and they are not what is weighed.
 * `browser` is a playwright-core browser (e2e/harness.mjs launchBrowser).
 */
export async function measureServed(browser, url, { viewport = { width: 390, height: 844 }, timeoutMs = 120_000 } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const bodies = [];
  let inflight = 0;
  let lastChange = Date.now();
  const isScript = (req) => req.resourceType() === "script";
  const settle = (req) => {
    if (!isScript(req)) return;
    inflight--;
    lastChange = Date.now();
  };
  page.on("request", (req) => {
    if (!isScript(req)) return;
    inflight++;
    lastChange = Date.now();
  });
  page.on("requestfinished", settle);
  page.on("requestfailed", settle);
  page.on("response", (res) => {
    if (isScript(res.request())) bodies.push(res.body().then((body) => ({ url: new URL(res.url()).pathname, bytes: body.length, gzip: gzipSize(body) })));
  });
  try {
    const deadline = Date.now() + timeoutMs;
    await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
    while (inflight > 0 || Date.now() - lastChange < 1000) {
      if (Date.now() > deadline) throw new Error(`${url}: scripts still loading after ${timeoutMs / 1000} s (${inflight} in flight)`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const scripts = await Promise.all(bodies);
    const inline = await page.evaluate(() => [...document.querySelectorAll("script:not([src])")].map((s) => s.textContent ?? ""));
    const inlineBytes = Buffer.from(inline.join(""));
    return {
      scripts,
      gzip: scripts.reduce((n, s) => n + s.gzip, 0),
      inline: { count: inline.length, bytes: inlineBytes.length, gzip: gzipSize(inlineBytes) },
    };
  } finally {
    await context.close();
  }
}

const kb = (n) => (n / 1024).toFixed(1);

function printScripts(scripts) {
  for (const s of [...scripts].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${kb(s.gzip).padStart(7)} KB gz ${kb(s.bytes).padStart(8)} KB  ${s.url}`);
  }
}

async function servedMain(paths) {
  const { startServer, launchBrowser } = await import("../e2e/harness.mjs");
  const server = await startServer({ name: "js-budget" });
  const browser = await launchBrowser();
  try {
    for (const p of paths) {
      // The first request fills the page cache and warms the workers; measure the second.
      await fetch(server.at(p));
      const got = await measureServed(browser, server.at(p));
      printScripts(got.scripts);
      console.log(`${kb(got.gzip).padStart(7)} KB gz total, ${got.scripts.length} scripts loaded by ${p}; inline: ${got.inline.count} scripts, ${kb(got.inline.gzip)} KB gz`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--served") {
  await servedMain(process.argv.length > 3 ? process.argv.slice(3) : ["/"]);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const webDir = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), "../.."));
  const routes = process.argv.length > 3 ? process.argv.slice(3) : ["routes/home"];
  const { scripts, gzip } = measure(webDir, routes);
  printScripts(scripts);
  console.log(`${kb(gzip).padStart(7)} KB gz total, ${scripts.length} scripts (${routes.join(", ")})`);
}
