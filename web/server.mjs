// The SSR worker's HTTP server, which the build copies to build/server/serve.mjs;
// the Go supervisor starts it as `node build/server/serve.mjs build/server/index.js`
// with PORT and HOST (internal/server/ssr.go). Only Go talks to it, over loopback: Go
// serves /assets/ itself, compresses pages once (it asks for identity) and logs each
// request, so this is React Router's request listener on node:http, without
// react-router-serve's express, compression, static files and per-request log line.
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@react-router/node";

process.env.NODE_ENV ??= "production";

const entry = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "index.js"));
const build = await import(pathToFileURL(entry).href);
const port = Number(process.env.PORT) || 3000;
const host = process.env.HOST || undefined;

const server = createServer(createRequestListener({ build, mode: process.env.NODE_ENV }));
server.listen(port, host, () => console.log(`[lineage ssr] http://${host ?? "localhost"}:${port}`));
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close((error) => error && console.error(error)));
}
