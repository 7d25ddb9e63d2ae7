// The several-instances harness for e2e: starts bin/cluster (tools/cluster: a throwaway
// PostgreSQL, an in-process S3 server, N `lineage serve` on that one database, each with
// a data folder of its own, and bin/lb in front) and talks to it over its standard
// input and output. Also a small HTTP client with a cookie jar, for API journeys that
// sign in without a browser.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";

import { BIN, ROOT_DIR, WEB_DIR } from "./harness.mjs";
import { parseMail } from "./newsletter-mail.mjs";

export const CLUSTER_BIN = process.env.LINEAGE_E2E_CLUSTER || path.join(ROOT_DIR, "bin", "cluster");
export const LB_BIN = process.env.LINEAGE_E2E_LB || path.join(ROOT_DIR, "bin", "lb");

/**
 * Starts the cluster; resolves with { lb, instances: [{url, data, log}], databaseURL,
 * command(line), sql(query), lineage(...args), stop(), logTail(i) } once every
 * instance and the balancer answer.
 */
export async function startCluster({ instances = 2, env = {}, timeoutMs = 240_000 } = {}) {
  for (const [bin, what] of [[BIN, "bin/lineage"], [CLUSTER_BIN, "bin/cluster"], [LB_BIN, "bin/lb"]]) {
    if (!existsSync(bin)) throw new Error(`e2e: missing ${what}. Run \`make build\` at the repository root first.`);
  }
  const args = ["-instances", String(instances), "-lineage", BIN, "-lb", LB_BIN, "-web", WEB_DIR];
  for (const [k, v] of Object.entries(env)) args.push("-env", `${k}=${v}`);
  const childEnv = { ...process.env };
  delete childEnv.NODE_TEST_CONTEXT;
  delete childEnv.NODE_OPTIONS;
  const child = spawn(CLUSTER_BIN, args, { cwd: ROOT_DIR, env: childEnv, stdio: ["pipe", "pipe", "pipe"] });
  const stderr = [];
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => stderr.push(d));
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  const queued = [];
  lines.on("line", (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else queued.push(line);
  });
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = { code, signal }))));
  const nextLine = (ms) =>
    new Promise((resolve, reject) => {
      if (queued.length) return resolve(queued.shift());
      const timer = setTimeout(() => reject(new Error(`cluster: no answer in ${ms} ms:\n${stderr.join("")}`)), ms);
      exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`cluster exited (${JSON.stringify(exited)}):\n${stderr.join("")}`));
      });
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const first = JSON.parse(await nextLine(timeoutMs));
  live.add(child);
  child.on("exit", () => live.delete(child));

  let chain = Promise.resolve();
  const cluster = {
    lb: first.lb,
    lbLog: first.lb_log,
    s3: first.s3,
    databaseURL: first.database_url,
    instances: first.instances,
    /** Sends one command line; resolves with its JSON answer (throws on {error}). */
    command(line, ms = 180_000) {
      const run = chain.then(async () => {
        child.stdin.write(line + "\n");
        const res = JSON.parse(await nextLine(ms));
        if (res.error) throw new Error(`cluster ${line.split(" ")[0]}: ${res.error}`);
        return res;
      });
      chain = run.catch(() => {});
      return run;
    },
    /** Rows of a query on the cluster's database, as arrays of strings. */
    async sql(query) {
      return (await cluster.command(`sql ${query.replace(/\s+/g, " ")}`)).rows;
    },
    /** Runs `lineage ARGS` against the cluster's database; resolves with its output. */
    async lineage(...a) {
      return (await cluster.command(`lineage ${a.join(" ")}`)).output;
    },
    /**
     * Every mail file the instances wrote without SMTP (the bucket's mail/ when their
     * files are in the bucket, else each data folder's), as { where, name, headers, text, html }.
     */
    async mails() {
      const res = await cluster.command("mails");
      return res.mails.map((m) => ({ where: m.where, name: m.name, ...parseMail(m.text) }));
    },
    /** The last lines of instance i's log (or of the balancer's with "lb"). */
    logTail(i, n = 40) {
      const file = i === "lb" ? cluster.lbLog : cluster.instances[i].log;
      try {
        return readFileSync(file, "utf8").trimEnd().split("\n").slice(-n).join("\n");
      } catch {
        return "";
      }
    },
    async stop() {
      if (exited) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      await exit;
      clearTimeout(timer);
    },
  };
  return cluster;
}

const live = new Set();
process.on("exit", () => {
  for (const c of live) c.kill("SIGTERM");
});

/**
 * A visitor without a browser: keeps cookies per origin's host (as a browser does, the
 * port does not count), sends X-XSRF-TOKEN on writes, and X-Forwarded-For when given
 * (a visitor's address as a proxy in front would pass it on).
 */
export function apiClient({ forwardedFor } = {}) {
  const jar = new Map();
  const client = {
    async fetch(url, { method = "GET", body, headers = {} } = {}) {
      const h = { Accept: "application/json", ...headers };
      if (jar.size) h.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const xsrf = jar.get("XSRF-TOKEN");
      if (xsrf && method !== "GET") h["X-XSRF-TOKEN"] = decodeURIComponent(xsrf);
      if (forwardedFor) h["X-Forwarded-For"] = forwardedFor;
      if (body !== undefined) {
        h["Content-Type"] = "application/json";
        body = JSON.stringify(body);
      }
      const res = await fetch(url, { method, headers: h, body, redirect: "manual", signal: AbortSignal.timeout(30_000) });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(c) || value === "") jar.delete(name);
        else jar.set(name, value);
      }
      return res;
    },
    async json(url, opts) {
      const res = await client.fetch(url, opts);
      const text = await res.text();
      let data = null;
      try {
        data = JSON.parse(text);
      } catch {
        data = text;
      }
      return { status: res.status, data, headers: res.headers };
    },
    /** Signs in as the SPA does: the CSRF cookie first, then POST /login. */
    async signIn(origin, email, password) {
      await client.fetch(`${origin}/sanctum/csrf-cookie`);
      const res = await client.json(`${origin}/login`, { method: "POST", body: { email, password } });
      if (res.status >= 300) throw new Error(`sign-in of ${email} at ${origin}: ${res.status} ${JSON.stringify(res.data)}`);
      return res;
    },
  };
  return client;
}
