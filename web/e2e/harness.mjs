// Harness of the browser end-to-end suite: starts the real `bin/lineage serve --demo`
// on a free loopback port with a throwaway data directory, launches Debian's Chromium
// through playwright-core, and checks every visited page with axe-core.
//
// It builds nothing: `make test` (or `make build`) does that first. Each test file is
// its own process under `node --test`, and calls `setup()` once: one server and one
// browser per file, stopped after the file's last test. When a test fails, the server's
// log lines written during that test (and the page's console errors) are printed.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, afterEach, before, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { chromium } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The web app under test: web/, or LINEAGE_E2E_WEB (a directory with build/ and node_modules/). */
export const WEB_DIR = process.env.LINEAGE_E2E_WEB || path.resolve(E2E_DIR, "..");
export const ROOT_DIR = path.resolve(E2E_DIR, "..", "..");
/** The binary under test: bin/lineage, or LINEAGE_E2E_BIN (an absolute path). */
export const BIN = process.env.LINEAGE_E2E_BIN || path.join(ROOT_DIR, "bin", "lineage");
export const DEMO_CONTENT_DIR = path.join(ROOT_DIR, "demo", "content");
export const CHROMIUM = process.env.LINEAGE_E2E_CHROMIUM || "/usr/bin/chromium";

/** Chromium flags for this machine: no sandbox as root, no calls to Google's hosts. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Throws a clear message when the build the suite runs against is missing. */
export function requireBuild() {
  const missing = [];
  if (!existsSync(BIN)) missing.push(`${path.relative(ROOT_DIR, BIN)} (go build)`);
  if (!existsSync(path.join(WEB_DIR, "build", "server", "index.js"))) missing.push("web/build/ (npm run build)");
  if (missing.length) {
    throw new Error(`e2e: missing ${missing.join(" and ")}. Run \`make build\` at the repository root first.`);
  }
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `bin/lineage serve --demo` on a free loopback port. Resolves once /readyz
 * answers 200. `env` is added to the environment (LINEAGE_PUBLIC_URL defaults to
 * the server's own origin).
 */
export async function startServer({ env = {}, demo = true, name = "lineage", readyTimeoutMs = 90_000, webFlag = true } = {}) {
  requireBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "lineage-e2e-"));
  // Without webFlag the server finds web/ the way `make run` does: relative to the
  // repository root it is started in.
  const args = ["serve", "--addr", `127.0.0.1:${port}`, "--data", dataDir];
  if (webFlag) args.push("--web", WEB_DIR);
  if (demo) args.push("--demo");
  const childEnv = { ...process.env, LINEAGE_PUBLIC_URL: url, ...env };
  // The suite's own settings must not leak into the server.
  delete childEnv.NODE_TEST_CONTEXT;
  delete childEnv.NODE_OPTIONS;
  delete childEnv.LINEAGE_DATABASE_URL;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];

  const logs = [];
  const child = spawn(BIN, args, { cwd: ROOT_DIR, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  liveServers.add(child);
  child.on("exit", () => liveServers.delete(child));
  const collect = (stream) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      for (const line of lines) logs.push(line);
    });
    stream.on("end", () => rest && logs.push(rest));
  };
  collect(child.stdout);
  collect(child.stderr);
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });

  const server = {
    name,
    url,
    port,
    dataDir,
    logs,
    child,
    /** Absolute URL of a site path. */
    at: (p) => new URL(p, url).href,
    logsSince: (mark) => logs.slice(mark),
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exitPromise;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      return exited;
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`e2e: ${name} exited (${JSON.stringify(exited)}) before it was ready:\n${logs.join("\n")}`);
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      last = `${res.status} ${(await res.text()).trim()}`;
      if (res.ok) return server;
    } catch (err) {
      last = String(err?.cause?.code ?? err?.message ?? err);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await server.stop();
  throw new Error(`e2e: ${name} not ready after ${readyTimeoutMs} ms (last /readyz: ${last}):\n${logs.join("\n")}`);
}

// Servers must not outlive the test process, even when it is interrupted or dies of an
// uncaught error (the `after` hook does not run then). SIGKILL cannot be caught; a
// server left behind that way stops when its --data directory's owner cleans /tmp.
const liveServers = new Set();
function killServers() {
  for (const child of liveServers) child.kill("SIGTERM");
}
process.on("exit", killServers);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    killServers();
    process.kill(process.pid, signal);
  });
}

/** Launches headless Debian Chromium with a fresh profile. */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`e2e: no Chromium at ${CHROMIUM}; install Debian's chromium package (apt-get install chromium)`);
  }
  // A persistent context would need a user-data dir; launch() gives each run a fresh
  // temporary profile of its own, removed when the browser closes.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Runs a `bin/lineage` subcommand synchronously; returns stdout, throws with stderr. */
export function runLineage(args, { env = {} } = {}) {
  const res = spawnSync(BIN, args, { cwd: ROOT_DIR, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  if (res.status !== 0) {
    throw new Error(`lineage ${args.join(" ")} exited ${res.status ?? res.signal}:\n${res.stderr}\n${res.stdout}`);
  }
  return { stdout: res.stdout, stderr: res.stderr };
}

// ---------------------------------------------------------------------------------
// Per-file setup

/**
 * Registers before/after hooks that start one server (and, unless browser is false,
 * one browser) for the calling test file. Returns an object whose `server` and
 * `browser` are filled in once `before` has run.
 */
export function setup({ browser = true, env, name } = {}) {
  const ctx = { server: null, browser: null, servers: [], pages: new Set(), mark: 0 };
  before(
    async () => {
      requireBuild();
      const [srv, br] = await Promise.all([startServer({ env, name }), browser ? launchBrowser() : null]);
      ctx.server = srv;
      ctx.browser = br;
      ctx.servers.push(srv);
    },
    { timeout: 120_000 },
  );
  after(async () => {
    await ctx.browser?.close().catch(() => {});
    await Promise.all(ctx.servers.map((s) => s.stop()));
  });
  beforeEach(() => {
    ctx.marks = new Map(ctx.servers.map((s) => [s, s.logs.length]));
  });
  afterEach(async (t) => {
    // Every page a test opened must end without console errors or failed requests,
    // apart from those the test declared with ctx.expectProblem (or visit's status).
    const unexpected = [];
    for (const page of ctx.pages) {
      for (const p of unexpectedProblems(page)) unexpected.push(`${p} (page ${page.url()})`);
    }
    if (!t.passed || unexpected.length) {
      for (const s of ctx.servers) {
        const since = s.logsSince(ctx.marks?.get(s) ?? 0);
        const lines = since.length ? since : s.logs.slice(-40);
        console.error(`\n----- ${s.name} log during "${t.name}" -----\n${lines.join("\n")}\n-----`);
      }
      for (const page of ctx.pages) {
        const notes = pageNotes.get(page);
        if (notes?.length) console.error(`----- browser console (${page.url()}) -----\n${notes.join("\n")}\n-----`);
      }
    }
    for (const page of ctx.pages) await page.context().close().catch(() => {});
    ctx.pages.clear();
    if (t.passed && unexpected.length) {
      assert.fail(`console errors or failed requests during "${t.name}":\n  ${unexpected.join("\n  ")}`);
    }
  });
  /** Starts one more server (e.g. with a different environment) owned by this file. */
  ctx.startServer = async (opts) => {
    const srv = await startServer(opts);
    ctx.servers.push(srv);
    ctx.marks?.set(srv, 0);
    return srv;
  };
  /**
   * A new page in a fresh context. Options go to browser.newContext; baseURL defaults
   * to the file's server. The context is closed after the test.
   */
  ctx.newPage = async (options = {}) => {
    const context = await ctx.browser.newContext({ baseURL: ctx.server.url, ...options });
    contextOptions.set(context, options);
    const page = await context.newPage();
    const notes = [];
    pageNotes.set(page, notes);
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") notes.push(`[${m.type()}] ${m.text()}`);
    });
    page.on("pageerror", (e) => notes.push(`[pageerror] ${e.message}`));
    watchProblems(page, { javaScriptEnabled: options.javaScriptEnabled !== false });
    const failedAssets = [];
    failedAssetsOf.set(page, failedAssets);
    page.on("response", (r) => {
      const u = new URL(r.url());
      if (u.origin === ctx.server.url && u.pathname.startsWith("/assets/") && r.status() >= 400) failedAssets.push(`${r.status()} ${u.pathname}`);
    });
    ctx.pages.add(page);
    return page;
  };
  /**
   * Opens a site path, asserts the status (200 unless told), checks accessibility and
   * returns the response.
   */
  ctx.visit = async (page, p, { status = 200, a11y = true } = {}) => {
    if (status >= 400) {
      // The test asks for an error page: its own answer (and Chromium's console line
      // about it) is expected; anything else failing on the page is not.
      const href = new URL(p, contextOptions.get(page.context())?.baseURL ?? ctx.server.url).href;
      expectProblem(page, { url: href, status }, `the test visits ${p} for its ${status} page`);
    }
    const res = await page.goto(p, { waitUntil: "load" });
    assert.ok(res, `no response for ${p}`);
    assert.equal(res.status(), status, `status of ${p}`);
    const assets = failedAssetsOf.get(page) ?? [];
    assert.deepEqual(
      assets,
      [],
      `build assets of ${p} failed to load: web/build/ does not match the running server ` +
        "(was it rebuilt during the run, or does the HTML name files the build lacks?)",
    );
    const blocked = consoleNotes(page).filter((n) => /Content Security Policy/i.test(n));
    assert.deepEqual(blocked, [], `no Content-Security-Policy violations on ${p}`);
    const problems = unexpectedProblems(page);
    assert.deepEqual(problems, [], `no console errors or failed requests on ${p}`);
    if (a11y) await checkA11y(page, p);
    return res;
  };
  /** Declares a console error or failed request the test provokes on purpose; see expectProblem. */
  ctx.expectProblem = expectProblem;
  return ctx;
}

// ---------------------------------------------------------------------------------
// Console errors and failed requests

const problemsOf = new WeakMap();
const expectedOf = new WeakMap();

/**
 * Records on `page` what counts as a problem: a console error, an uncaught page error,
 * a request that failed (other than one the browser abandoned because the page moved
 * on: net::ERR_ABORTED) and a response of 400 or more. Each is kept with the URL it
 * concerns, so an expectation can name it.
 */
export function watchProblems(page, { javaScriptEnabled = true } = {}) {
  const problems = [];
  problemsOf.set(page, problems);
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    problems.push({ kind: "console", url: m.location()?.url ?? "", text: `[console.error] ${m.text()}${m.location()?.url ? ` at ${m.location().url}` : ""}` });
  });
  page.on("pageerror", (e) => problems.push({ kind: "pageerror", url: "", text: `[pageerror] ${e.message}` }));
  page.on("requestfailed", (r) => {
    const error = r.failure()?.errorText ?? "failed";
    if (error === "net::ERR_ABORTED") return;
    // With JavaScript off, Chromium refuses the page's module scripts and preloads and
    // names the reason "csp"; that is the test's setting, not the site's policy (a real
    // CSP violation is a console error, which still counts).
    if (!javaScriptEnabled && error === "csp" && ["script", "other"].includes(r.resourceType())) return;
    problems.push({ kind: "requestfailed", url: r.url(), text: `[request failed] ${r.method()} ${r.url()}: ${error}` });
  });
  page.on("response", (r) => {
    if (r.status() < 400) return;
    problems.push({ kind: "response", url: r.url(), status: r.status(), text: `[response ${r.status()}] ${r.request().method()} ${r.url()}` });
  });
  return problems;
}

/**
 * Declares, for the rest of the test, a problem `page` is expected to show, with the
 * reason (required: nothing is allowed silently). `match` is one of
 * - `{ url, status }`: a response with that status for that URL (string: exact; RegExp),
 *   and Chromium's console line "Failed to load resource…" about it;
 * - `{ url, failed: true }`: a request to that URL that fails (e.g. route.abort);
 * - `{ console: RegExp }`: a console error or page error whose text matches.
 */
export function expectProblem(page, match, why) {
  assert.ok(why && typeof why === "string", "expectProblem needs the reason the problem is expected");
  let list = expectedOf.get(page);
  if (!list) expectedOf.set(page, (list = []));
  list.push(match);
}

function urlMatches(want, url) {
  if (want == null) return false;
  return want instanceof RegExp ? want.test(url) : want === url;
}

function isExpected(problem, expected) {
  return expected.some((m) => {
    if (m.console) return (problem.kind === "console" || problem.kind === "pageerror") && m.console.test(problem.text);
    if (!urlMatches(m.url, problem.url)) return false;
    if (m.failed) return problem.kind === "requestfailed" || (problem.kind === "console" && /Failed to load resource/.test(problem.text));
    if (m.status) {
      if (problem.kind === "response") return problem.status === m.status;
      return problem.kind === "console" && /Failed to load resource: the server responded with a status of/.test(problem.text);
    }
    return false;
  });
}

/** The problems seen on `page` that no expectation covers, as lines of text. */
export function unexpectedProblems(page) {
  const expected = expectedOf.get(page) ?? [];
  return (problemsOf.get(page) ?? []).filter((p) => !isExpected(p, expected)).map((p) => p.text);
}

const pageNotes = new WeakMap();
const failedAssetsOf = new WeakMap();
const contextOptions = new WeakMap();
const a11yContexts = new WeakMap();
const checkedPages = new WeakMap();

/** Console errors, warnings and page errors seen by a page made with ctx.newPage. */
export function consoleNotes(page) {
  return pageNotes.get(page) ?? [];
}

// ---------------------------------------------------------------------------------
// Accessibility

/**
 * Runs axe-core on the page and fails on any `serious` or `critical` violation,
 * listing rule id, help and the target selectors of each.
 *
 * axe needs timers, which Chromium does not run in a context with JavaScript
 * disabled; for such pages the rendered DOM is loaded at the same URL in a
 * JavaScript-enabled scratch page whose Content-Security-Policy forbids every script
 * (axe itself is injected through the DevTools protocol, which CSP does not govern),
 * so the page axe sees is the server's HTML exactly as a visitor without JavaScript
 * gets it, styles and fonts included.
 *
 * axe runs in legacy mode (axe.run in the page itself): the default mode opens an extra
 * page per check and injects into every frame, which costs about half a second a page
 * and only adds the inside of third-party embeds (YouTube), which this offline machine
 * cannot load anyway. The iframe elements themselves (titles etc.) are still checked.
 * `resultTypes: ["violations"]` still reports every violation in full.
 */
export async function checkA11y(page, name = page.url()) {
  let target = page;
  const browser = page.context().browser();
  const html = await page.content();
  // A DOM that was already checked in this browser at the same viewport size has the
  // same result: skip the second run. Script contents (React Router's per-request
  // data) and nonces do not change what axe sees.
  const viewport = page.viewportSize();
  const key = createHash("sha256")
    .update(`${viewport?.width}x${viewport?.height}\n`)
    .update(html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/g, "$1$2").replace(/ nonce="[^"]*"/g, ""))
    .digest("hex");
  let checked = checkedPages.get(browser);
  if (!checked) checkedPages.set(browser, (checked = new Set()));
  if (checked.has(key)) return null;
  const jsDisabled = contextOptions.get(page.context())?.javaScriptEnabled === false;
  if (jsDisabled) {
    const scratch = await scratchPage(browser, viewport);
    scratch.state.url = page.url();
    scratch.state.html = html;
    await scratch.page.goto(scratch.state.url, { waitUntil: "load" });
    target = scratch.page;
  }
  // axe checks the page at rest: a page caught while a navigation is pending (main
  // dimmed, app.css .is-pending) or while a transition runs has colours no visitor
  // reads for long. Endless animations (a spinner) are not waited for; after 5 s the
  // page is checked as it is.
  await target
    .waitForFunction(
      () =>
        !document.querySelector(".is-pending") &&
        document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
      null,
      { timeout: 5_000 },
    )
    .catch(() => {});
  // Only violations are collected (passes and incomplete cost time and are not used);
  // frames are not entered, as their only content here is third-party embeds that this
  // offline machine cannot load; the iframe elements themselves are still checked.
  const results = await new AxeBuilder({ page: target })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"], iframes: false })
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length) {
    const report = bad
      .map(
        (v) =>
          `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
          v.nodes
            .slice(0, 10)
            .map((n) => `      ${n.target.join(" ")}${n.failureSummary ? `\n        ${n.failureSummary.replace(/\n/g, "\n        ")}` : ""}`)
            .join("\n"),
      )
      .join("\n");
    assert.fail(`accessibility: ${bad.length} serious/critical axe violation(s) on ${name}:\n${report}`);
  }
  checked.add(key);
  return results;
}

/** One scratch page per browser that serves a given HTML snapshot at a given URL. */
async function scratchPage(browser, viewport) {
  let scratch = a11yContexts.get(browser);
  if (!scratch) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const state = { url: null, html: "" };
    await page.route(
      (u) => u.href === state.url,
      (route) =>
        route.fulfill({
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'none'" },
          body: state.html,
        }),
    );
    scratch = { page, state };
    a11yContexts.set(browser, scratch);
  }
  if (viewport) await scratch.page.setViewportSize(viewport);
  return scratch;
}

// ---------------------------------------------------------------------------------
// Page facts

/** Checks what every server-rendered page must carry (seed-spec §1, ADR 001). */
export async function assertDocumentShell(page, server, p, { canonicalPath } = {}) {
  const lang = await page.getAttribute("html", "lang");
  assert.equal(lang, "en", `<html lang> on ${p}`);
  assert.equal(await page.locator('head link[rel="canonical"]').count(), 1, `one canonical link on ${p}`);
  const canonical = await page.locator('head link[rel="canonical"]').getAttribute("href");
  assert.ok(canonical, `canonical link on ${p}`);
  const expected = new URL(canonicalPath ?? new URL(p, server.url).pathname, server.url).href;
  assert.equal(canonical.replace(/\/$/, ""), expected.replace(/\/$/, ""), `canonical link on ${p}`);
  // UV.js is declared by the pages that show a scan viewer (features/images/uv.ts), once.
  const uvScripts = await page.locator('script[src="/uv/umd/UV.js"]').count();
  const viewers = await page.locator('section[aria-label^="Image viewer: "]').count();
  assert.ok(uvScripts <= 1, `at most one UV script tag on ${p} (saw ${uvScripts})`);
  if (viewers) assert.equal(uvScripts, 1, `UV script tag on ${p}, which shows a viewer`);
  const fontLinks = await page
    .locator('head link[rel="preload"][as="font"], head link[rel="stylesheet"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  assert.ok(
    fontLinks.some((h) => /atkinson|font/i.test(h ?? "")),
    `web font (preload or stylesheet) in the head of ${p}; saw ${fontLinks.join(", ")}`,
  );
}

/** Waits until React has hydrated the page (the first element `selector` finds carries
 * React's fibre keys): a click before then can be lost while the client router starts. */
export async function waitForHydration(page, selector = "header a[href], main a[href]") {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactFiber") || k.startsWith("__reactProps")));
    },
    selector,
    { timeout: 15_000 },
  );
}

/**
 * Presses "Bookmark this page" on a hydrated page and waits until the server has saved
 * the bookmark. The button says "Remove bookmark" as soon as it is pressed, while the
 * request still runs: a test that moves on to another page then could cancel it.
 */
export async function bookmarkThisPage(page) {
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/bookmarks"));
  await page.getByRole("button", { name: "Bookmark this page" }).click();
  const res = await saved;
  assert.ok(res.ok(), `the bookmark was saved (${res.status()} from ${res.url()})`);
  await page.getByRole("button", { name: "Remove bookmark" }).waitFor();
}

// ---------------------------------------------------------------------------------
// The API, as a visitor

/** GETs p (a path) from ctx's server with no session and returns its JSON, asserting a 200. */
export async function getJSON(ctx, p) {
  const res = await fetch(ctx.server.at(p), { headers: { Accept: "application/json" } });
  assert.equal(res.status, 200, `GET ${p}`);
  return res.json();
}

// ---------------------------------------------------------------------------------
// Accounts

/** The password of the accounts the tests make with addUser. */
export const PASSWORD = "correct horse battery";

let usersAdded = 0;
/** A verified account made with `lineage user add --role <role>` while ctx's server runs; returns its email. */
export function addUser(ctx, role, name) {
  const email = `${role}${++usersAdded}-${Date.now()}@example.org`;
  runLineage(["user", "add", "--data", ctx.server.dataDir, "--email", email, "--password", PASSWORD, "--name", name, "--role", role], {
    env: { LINEAGE_DATABASE_URL: "" },
  });
  return email;
}

/** Signs in on /sign-in (with PASSWORD unless the account says otherwise) and waits for the page it returns to. */
export async function signIn(ctx, page, { email, password = PASSWORD }, wanted) {
  await ctx.visit(page, `/sign-in?redirect=${encodeURIComponent(wanted)}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname + u.search === wanted);
}
