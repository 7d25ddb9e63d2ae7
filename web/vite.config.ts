import { copyFileSync } from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

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

export default defineConfig({
  plugins: [reactRouter(), workerServer()],
  server: { port: 5173 },
});
