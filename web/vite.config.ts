import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin, type Rollup } from "vite";

type ManualChunkMeta = Parameters<Rollup.GetManualChunk>[1];

/**
 * Puts server.mjs beside the server build as build/server/serve.mjs: the SSR worker's
 * HTTP server, which the Go supervisor starts (internal/server/ssr.go).
 */
function workerServer(): Plugin {
  return {
    name: "lineage-worker-server",
    apply: "build",
    writeBundle(options) {
      if (options.dir && path.resolve(options.dir) === path.resolve(import.meta.dirname, "build", "server")) {
        copyFileSync(path.resolve(import.meta.dirname, "server.mjs"), path.join(options.dir, "serve.mjs"));
      }
    },
  };
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each script and stylesheet of the
 * browser's build, at the highest levels, once: the Go front door answers /assets/ with
 * the copy the browser accepts (internal/server/static.go) instead of compressing at its
 * default level on every request (React's chunk: 110.9 KB gzip on the fly, 99.4 at level
 * 9, 86.2 as brotli). Run after the server build, when React Router has also written its
 * route manifest into build/client/assets.
 */
function precompressAssets(): Plugin {
  return {
    name: "lineage-precompress-assets",
    apply: "build",
    writeBundle(options) {
      if (!options.dir || path.resolve(options.dir) !== path.resolve(import.meta.dirname, "build", "server")) return;
      const assets = path.resolve(import.meta.dirname, "build", "client", "assets");
      if (!existsSync(assets)) return;
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = path.join(assets, name);
        const raw = readFileSync(file);
        if (raw.length < 512) continue; // the front door does not compress these either
        const gz = gzipSync(raw, { level: 9 });
        const br = brotliCompressSync(raw, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        if (gz.length < raw.length) writeFileSync(file + ".gz", gz);
        if (br.length < raw.length) writeFileSync(file + ".br", br);
      }
    },
  };
}

/**
 * Every page loads the client entry and the root route, so everything they import
 * statically is loaded on every page. Left to Rollup, that code is cut into a chunk per
 * set of routes that also import it (the footer's sign-up form, the form fields, the auth
 * helpers…): about 20 files of a few hundred bytes each on every page, each a request
 * (six at a time over HTTP/1.1) ahead of the page's stylesheets. Here it is two files:
 * `framework` (React, React DOM, React Router: changes only with an upgrade, so stays
 * cached across deploys) and `shell` (the site's own code around every page). No page
 * loads a byte more than before: nothing outside the root's and entry's static imports
 * is moved. docs/decisions/023-light-front-end.md.
 */
export function everyPageChunk(id: string, meta: ManualChunkMeta): string | undefined {
  const always = everyPageModules(meta);
  if (!always.has(id)) return undefined;
  // Only the site's own files go to shell; packages and Rollup's helpers (\0commonjsHelpers,
  // which React's CommonJS needs) to framework, so that framework imports nothing from shell.
  return id.startsWith(APP_DIR) ? "shell" : "framework";
}

const APP_DIR = path.resolve(import.meta.dirname, "app") + path.sep;

const everyPageCache = new WeakMap<object, Set<string>>();

/** The modules the client entry and root route import statically, transitively. */
function everyPageModules(meta: ManualChunkMeta): Set<string> {
  const key = meta.getModuleInfo as object;
  let found = everyPageCache.get(key);
  if (found) return found;
  found = new Set();
  const starts = [...meta.getModuleIds()].filter((id) => /\/app\/root\.tsx(\?|$)/.test(id) || /\/entry\.client\.[jt]sx?$/.test(id));
  const stack = [...starts];
  while (stack.length) {
    const id = stack.pop()!;
    for (const next of meta.getModuleInfo(id)?.importedIds ?? []) {
      if (!found.has(next)) {
        found.add(next);
        stack.push(next);
      }
    }
  }
  // The root route module and the entry stay entries of their own (React Router loads them by name).
  for (const id of starts) found.delete(id);
  everyPageCache.set(key, found);
  return found;
}

export default defineConfig({
  plugins: [reactRouter(), workerServer(), precompressAssets()],
  server: { port: 5173 },
  // Terser minifies the browser's code smaller than esbuild (decision 023 has the figures).
  // Vite's terser step reads the top-level `minify`, so it is set here and the server's
  // build turns it off: its stack traces keep their names, and Node parses it once.
  build: { minify: "terser" },
  environments: {
    // The browser's chunks only: the server's build stays one file, as Node loads it once.
    client: { build: { rollupOptions: { output: { manualChunks: everyPageChunk } } } },
    ssr: { build: { minify: false } },
  },
});
