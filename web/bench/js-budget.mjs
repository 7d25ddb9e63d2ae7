// The JavaScript a page's route set makes the browser load, from a build's React Router
// manifest: the client entry, root and the page's route modules with their static imports
// (the modulepreload set the server writes into the page). Sizes gzip-compressed (level 9,
// as a static file server would send them). No server needed: it reads build/client.
//
//   node bench/js-budget.mjs [webDir] [routeId…]   (defaults: this web/, routes/home)
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const webDir = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), "../.."));
  const routes = process.argv.length > 3 ? process.argv.slice(3) : ["routes/home"];
  const { scripts, gzip } = measure(webDir, routes);
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${(s.gzip / 1024).toFixed(1).padStart(7)} KB gz ${(s.bytes / 1024).toFixed(1).padStart(8)} KB  ${s.url}`);
  }
  console.log(`${(gzip / 1024).toFixed(1).padStart(7)} KB gz total, ${scripts.length} scripts (${routes.join(", ")})`);
}
