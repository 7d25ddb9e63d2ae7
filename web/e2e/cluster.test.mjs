// Several instances as one site (docs/deployment.md, "Several instances"): two
// `lineage serve` on one PostgreSQL, each with a data folder of its own, files in one
// bucket of an in-process S3 server, and tools/lb in front (tools/cluster starts them).
// Journeys: signed in on one, the visitor continues on the other; a change made through
// one is on the other's next page; scans imported with `lineage import images` beside one
// are served by the other from the bucket, and so are content media; a scheduled newsletter edition goes out once; and one
// instance is killed in the middle of traffic through the balancer: the survivor
// answers everything sent to it, every newsletter sign-up made during the load is there
// exactly once with one confirmation mail, every booking answered is stored once (and
// none twice), and the killed instance comes back; stopped
// gracefully instead (SIGTERM: it drains), not one request fails. Last, the nginx
// configuration of docs/deployment.md's recipe in front of the pair (TLS, page cache,
// the other instance tried when one is gone).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

import { checkA11y, DEMO_CONTENT_DIR, freePort, launchBrowser, ROOT_DIR, unexpectedProblems, watchProblems } from "./harness.mjs";
import { apiClient, startCluster } from "./cluster.mjs";

const PASSWORD = "correct-horse-battery-staple";
let cluster;
let browser;
let A;
let B;

before(
  async () => {
    [cluster, browser] = await Promise.all([
      // The newsletter's scheduler looks for due editions every second (30 s by default).
      // LINEAGE_DRAIN: longer than the balancer's probe interval (1 s), so it takes a
      // stopping instance out before that instance closes its listener.
      startCluster({ env: { LINEAGE_NEWSLETTER_TICK: "1s", LINEAGE_DRAIN: "3s" } }),
      launchBrowser(),
    ]);
    [A, B] = cluster.instances.map((i) => i.url);
  },
  { timeout: 300_000 },
);
after(async () => {
  await browser?.close().catch(() => {});
  await cluster?.stop();
});

/** Prints the instances' and the balancer's last log lines when a test fails. */
async function withLogs(fn) {
  try {
    await fn();
  } catch (err) {
    for (const i of [0, 1, "lb"]) console.error(`----- ${i === "lb" ? "lb" : `instance ${i}`} log -----\n${cluster.logTail(i)}\n-----`);
    throw err;
  }
}

let users = 0;
/** A verified account made with `lineage user add` on the cluster's database. */
async function addUser(role, name) {
  const email = `${role}${++users}-${Date.now()}@example.org`;
  await cluster.lineage("user", "add", "--email", email, "--password", PASSWORD, "--name", name, "--role", role);
  return email;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("two instances on one database", () => {
  test("signed in on one instance, the visitor continues on the other; signed out there, out on both", { timeout: 120_000 }, () =>
    withLogs(async () => {
      const email = await addUser("member", "Ruth");
      const context = await browser.newContext();
      const page = await context.newPage();
      watchProblems(page);
      await page.goto(`${A}/sign-in?redirect=${encodeURIComponent("/user-account")}`);
      await checkA11y(page, "/sign-in on instance A");
      await page.getByLabel("Email address").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((u) => u.origin === A && u.pathname === "/user-account");
      await page.locator("header").getByText("Your account").waitFor();

      // The other instance: another port of the same host, so the browser sends the
      // same cookies, as it would to one site name behind a balancer.
      const res = await page.goto(`${B}/user-account`);
      assert.equal(res.status(), 200);
      assert.equal(new URL(page.url()).pathname, "/user-account", "instance B knows the session (no sign-in page)");
      await page.locator("header").getByText("Your account").waitFor();
      await checkA11y(page, "/user-account on instance B");
      const me = await page.evaluate(async () => (await fetch("/api/user", { headers: { Accept: "application/json" } })).json());
      assert.equal(me.email, email, "instance B answers for the account signed in on A");

      // A write on B with the CSRF token A issued: sign out.
      const out = await page.evaluate(async () => {
        const xsrf = decodeURIComponent(document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="))?.slice(11) ?? "");
        return (await fetch("/logout", { method: "POST", headers: { Accept: "application/json", "X-XSRF-TOKEN": xsrf } })).status;
      });
      assert.equal(out, 204, "sign-out on B");
      const onA = await context.request.get(`${A}/api/user`, { headers: { Accept: "application/json" } });
      assert.equal(onA.status(), 401, "signed out on B is signed out on A");
      assert.deepEqual(unexpectedProblems(page), []);
      await context.close();
    }),
  );

  test("an editor unpublishes a tree through one instance: the other's next page no longer lists it", { timeout: 90_000 }, () =>
    withLogs(async () => {
      const TREES = "/research-hub/our-collections/family-trees";
      // B has the page in its cache.
      await fetch(`${B}${TREES}`);
      const stored = await fetch(`${B}${TREES}`);
      assert.equal(stored.headers.get("x-lineage-cache"), "hit", "B answers the trees page from its cache");
      assert.match(await stored.text(), /Ashworth/, "the demo tree is listed");

      const editor = apiClient();
      await editor.signIn(A, await addUser("editor", "Edith"), PASSWORD);
      try {
        const un = await editor.json(`${A}/api/trees/ashworth-family/unpublish`, { method: "POST" });
        assert.equal(un.status, 200, JSON.stringify(un.data));
        // A's answer has come back; B empties its cache when PostgreSQL tells it
        // (LISTEN/NOTIFY), which is not part of A's answer: the next page from B is
        // asked for until it changes, counting the tries.
        let tries = 0;
        let text = "";
        let cache = "";
        do {
          tries++;
          const res = await fetch(`${B}${TREES}`);
          text = await res.text();
          cache = res.headers.get("x-lineage-cache");
        } while (/Ashworth/.test(text) && tries < 50 && (await sleep(20), true));
        assert.doesNotMatch(text, /Ashworth/, `B still lists the unpublished tree after ${tries} requests (x-lineage-cache: ${cache})`);
        console.log(`# B's page changed on request ${tries} after A's answer`);
      } finally {
        assert.equal((await editor.json(`${A}/api/trees/ashworth-family/publish`, { method: "POST" })).status, 200);
      }
      let back = "";
      for (let i = 0; i < 50 && !/Ashworth/.test(back); i++) {
        back = await (await fetch(`${B}${TREES}`)).text();
        if (!/Ashworth/.test(back)) await sleep(20);
      }
      assert.match(back, /Ashworth/, "published again through A, listed again by B");
    }),
  );

  test("scans imported beside one instance are served by the other from the bucket", { timeout: 120_000 }, () =>
    withLogs(async () => {
      assert.ok(cluster.s3, "the cluster keeps its files in the S3 server");
      const found = await (await fetch(`${A}/api/research/search?collection=parish-baptisms&limit=20`)).json();
      const record = found.results.at(-1);
      assert.ok(record, "a parish baptism record to attach the scan to");
      const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-cluster-scan-"));
      let id;
      try {
        writeFileSync(path.join(dir, "scan.png"), testPNG(900, 700, Date.now() % 251));
        writeFileSync(path.join(dir, "map.csv"), `file,record_id,label\nscan.png,${record.id},Cluster scan\n`);
        // The operator's command on the first instance's machine (its data folder).
        const out = await cluster.lineage("import", "images", "--data", cluster.instances[0].data, "--collection", "parish-baptisms", "--manifest", path.join(dir, "map.csv"));
        id = /^(\S+)\t\S*scan\.png$/m.exec(out)?.[1];
        assert.ok(id, `the imported scan's id in:\n${out}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      // The other instance: info.json, the coarsest tile of the pyramid and a thumbnail.
      const info = await fetch(`${B}/iiif/3/${id}/info.json`);
      assert.equal(info.status, 200, `info.json from B: ${info.status} ${await info.clone().text()}`);
      const { width, height, tiles } = await info.json();
      assert.deepEqual([width, height], [900, 700]);
      const t = tiles[0];
      const sf = Math.max(...t.scaleFactors);
      const w = Math.min(t.width * sf, width);
      const h = Math.min(t.width * sf, height);
      for (const p of [`/iiif/3/${id}/0,0,${w},${h}/${Math.ceil(w / sf)},${Math.ceil(h / sf)}/0/default.jpg`, `/iiif/3/${id}/full/!200,200/0/default.jpg`]) {
        const res = await fetch(`${B}${p}`);
        assert.equal(res.status, 200, `${p} from B: ${res.status} ${res.status === 200 ? "" : await res.text()}`);
        assert.equal(res.headers.get("content-type"), "image/jpeg", p);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.deepEqual([...bytes.slice(0, 2)], [0xff, 0xd8], `${p} is a JPEG`);
      }
      // Nothing of it in either data folder: it came from the bucket.
      for (const inst of cluster.instances) {
        assert.equal(existsSync(path.join(inst.data, "files", "iiif", "tiles", id)), false, `no tiles of ${id} in ${inst.data}`);
      }
    }),
  );

  test("a media file published with `lineage content import` beside one instance is served by the other", { timeout: 60_000 }, () =>
    withLogs(async () => {
      const name = `cluster-${Date.now()}.svg`;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><title>${name}</title><rect width="40" height="20" fill="#2a5"/></svg>`;
      const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-cluster-media-"));
      try {
        // One demo document, unchanged, and the new file in media/ beside it.
        const doc = readdirSync(DEMO_CONTENT_DIR).find((f) => f.startsWith("news_item.") && f.endsWith(".json"));
        copyFileSync(path.join(DEMO_CONTENT_DIR, doc), path.join(dir, doc));
        mkdirSync(path.join(dir, "media"));
        writeFileSync(path.join(dir, "media", name), svg);
        await cluster.lineage("content", "import", "--data", cluster.instances[0].data, dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      for (const origin of [B, A]) {
        const res = await fetch(`${origin}/media/${name}`);
        assert.equal(res.status, 200, `/media/${name} from ${origin}`);
        assert.equal(await res.text(), svg);
      }
      for (const inst of cluster.instances) {
        assert.equal(existsSync(path.join(inst.data, "files", "media", name)), false, `not in ${inst.data}: it is in the bucket`);
      }
    }),
  );

  test("a scheduled newsletter edition goes out once: one message to each subscriber, whichever instance runs the scheduler", { timeout: 180_000 }, () =>
    withLogs(async () => {
      const stamp = Date.now();
      const subscribers = [1, 2, 3].map((i) => `reader${i}-${stamp}@example.org`);
      // Each signs up through the balancer and confirms from the mailed link.
      for (const [i, email] of subscribers.entries()) {
        const visitor = apiClient({ forwardedFor: `192.0.2.${10 + i}` });
        const res = await visitor.json(`${cluster.lb}/api/newsletter/subscribe`, {
          method: "POST",
          body: { email, lists: ["news"], source: "/", wording: "Send me the society's news." },
        });
        assert.equal(res.status, 202, JSON.stringify(res.data));
      }
      for (const email of subscribers) {
        const mail = await waitFor(async () => (await cluster.mails()).find((m) => (m.headers.to ?? "").includes(email) && /newsletter\/confirm\?token=/.test(m.text)), `a confirmation mail to ${email}`);
        const token = /newsletter\/confirm\?token=([^\s&<>"]+)/.exec(mail.text)[1];
        const res = await apiClient().json(`${cluster.lb}/api/newsletter/confirm`, { method: "POST", body: { token: decodeURIComponent(token) } });
        assert.equal(res.status, 200, JSON.stringify(res.data));
      }

      const editor = apiClient();
      await editor.signIn(A, await addUser("editor", "Edna"), PASSWORD);
      const subject = `Cluster edition ${stamp}`;
      const made = await editor.json(`${A}/api/admin/newsletter/editions`, { method: "POST", body: { list: "news", document: "demo-newsletter", subject, sections: ["news"] } });
      assert.equal(made.status, 201, JSON.stringify(made.data));
      const at = new Date(Date.now() + 3_000).toISOString();
      const sched = await editor.json(`${A}/api/admin/newsletter/editions/${made.data.id}/send`, { method: "POST", body: { at } });
      assert.equal(sched.status, 200, JSON.stringify(sched.data));
      assert.equal(sched.data.status, "scheduled");

      // Every subscriber's copy written (by whichever instance's outbox sent it).
      const copies = async () => (await cluster.mails()).filter((m) => m.headers.subject === subject);
      await waitFor(async () => {
        const all = await copies();
        return subscribers.every((e) => all.some((m) => (m.headers.to ?? "").includes(e)));
      }, `a copy of "${subject}" to each subscriber`, 90_000);
      const edition = await waitFor(async () => {
        const e = await editor.json(`${B}/api/admin/newsletter/editions/${made.data.id}`);
        return e.data.status === "sent" && e.data;
      }, "the edition marked sent (read through B)");
      assert.ok(edition.sent_at);
      // A few scheduler ticks more on both instances: nothing more goes out.
      await sleep(3_000);
      const byTo = new Map();
      for (const m of await copies()) byTo.set(m.headers.to, (byTo.get(m.headers.to) ?? 0) + 1);
      for (const e of subscribers) {
        const n = [...byTo].filter(([to]) => to.includes(e)).reduce((s, [, k]) => s + k, 0);
        assert.equal(n, 1, `${e} got ${n} copies of the edition`);
      }
      // Without SMTP, both instances write mail into the one bucket (a single spool).
      if (cluster.s3) assert.deepEqual([...new Set((await copies()).map((m) => m.where))], ["bucket"], "the edition's mail files are in the bucket");
      const queued = await cluster.sql(`SELECT to_addr, count(*) FROM mail_outbox WHERE subject = '${subject}' GROUP BY to_addr`);
      assert.equal(queued.length, subscribers.length, `outbox rows: ${JSON.stringify(queued)}`);
      for (const [to, n] of queued) assert.equal(n, "1", `${to} queued ${n} times`);
      const leases = await cluster.sql("SELECT holder FROM leases WHERE name = 'newsletter'").catch((err) => err);
      if (Array.isArray(leases)) console.log(`# the newsletter scheduler's lease is held by ${leases[0]?.[0] ?? "nobody"}`);
    }),
  );
});

/** A PNG of w × h pixels, a gradient with a seed so each run's file (and SHA-256) differs. */
function testPNG(w, h, seed) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "ascii");
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) raw.set([(x + seed) & 255, (y * 2) & 255, (x ^ y) & 255], row + 1 + x * 3);
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** Polls fn (sync or async) until it returns something truthy; throws after ms. */
async function waitFor(fn, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(200);
  }
}

/**
 * Sends traffic through the balancer until `during` has finished and 4 s more: six
 * connections of pages, search and IIIF (from the bucket), one of sign-ins, one of
 * event bookings, three of newsletter sign-ups (each connection one
 * visitor address, at most 10 sign-ups an hour each, the room's limit; a sign-up whose
 * answer was lost is sent again, as a visitor presses the button again). `during` gets
 * `mark(name)`, which starts a phase and returns its time. Resolves with every result
 * ({ kind, path, status, by, phase, t }), the sign-ups (email → last status) and marks.
 */
let loadRuns = 0;
async function underLoad(during) {
  loadRuns++;
  const pages = [
    "/",
    "/news",
    "/research-hub/our-collections/family-trees",
    "/api/research/search?surname=Smith",
    "/sog-events",
    "/iiif/3/demo-register-1851-p001/info.json",
    "/iiif/3/demo-register-1851-p002/full/!400,400/0/default.jpg",
  ];
  const member = await addUser("member", "Sam");
  const results = [];
  const signups = new Map();
  const bookings = new Map(); // email -> ref (201) or the status
  const marks = {};
  const stamp = Date.now();
  const t0 = Date.now();
  let phase = "before";
  let stop = false;
  const mark = (name) => {
    phase = name;
    return (marks[name] = Date.now() - t0);
  };
  const record = (r) => results.push({ ...r, t: Date.now() - t0 });
  const pageWorker = async (w) => {
    for (let n = 0; !stop; n++) {
      const p = pages[(n + w) % pages.length];
      const started = phase;
      let by = null;
      try {
        const res = await fetch(`${cluster.lb}${p}`, { signal: AbortSignal.timeout(30_000) });
        by = res.headers.get("x-lb-backend");
        await res.arrayBuffer();
        record({ kind: "page", path: p, status: res.status, by, phase: started });
      } catch (err) {
        // With `by` set, the answer had begun and was cut off.
        record({ kind: "page", path: p, status: 0, by, error: String(err?.cause?.code ?? err), phase: started });
      }
      await sleep(20);
    }
  };
  const signupWorker = async (w) => {
    for (let n = 0; !stop; n++) {
      const email = `load${w}-${n}-${stamp}@example.org`;
      const visitor = apiClient({ forwardedFor: `10.${loadRuns}.${w}.${Math.floor(n / 9)}` });
      let status = 0;
      for (let attempt = 0; attempt < 5 && status !== 202; attempt++) {
        const started = phase;
        let by = null;
        try {
          const res = await visitor.fetch(`${cluster.lb}/api/newsletter/subscribe`, {
            method: "POST",
            body: { email, lists: ["news"], source: "/", wording: "Send me the society's news." },
          });
          by = res.headers.get("x-lb-backend");
          await res.arrayBuffer();
          status = res.status;
          record({ kind: "signup", path: "/api/newsletter/subscribe", status, by, phase: started });
        } catch (err) {
          status = 0;
          record({ kind: "signup", path: "/api/newsletter/subscribe", status: 0, by, error: String(err?.cause?.code ?? err), phase: started });
        }
      }
      signups.set(email, status);
      await sleep(150);
    }
  };
  // Bookings of the demo open day (free, 50 places, then the waiting list: 201 either
  // way). Not sent again after a lost answer: a booking is not safe to repeat, so one
  // whose answer was lost may exist once or not at all, never twice.
  const bookingWorker = async (w) => {
    for (let n = 0; !stop; n++) {
      const email = `booker${w}-${n}-${stamp}@example.org`;
      const started = phase;
      let by = null;
      try {
        const res = await apiClient({ forwardedFor: `10.${loadRuns}.${10 + w}.${n % 250}` }).fetch(`${cluster.lb}/api/events/${OPEN_DAY}/bookings`, {
          method: "POST",
          body: { mode: "in_person", tickets: [{ type: "free", name: `Booker ${w} ${n}` }], name: `Booker ${w} ${n}`, email },
        });
        by = res.headers.get("x-lb-backend");
        const text = await res.text();
        record({ kind: "booking", path: `/api/events/${OPEN_DAY}/bookings`, status: res.status, by, phase: started });
        bookings.set(email, res.status === 201 ? JSON.parse(text).booking.ref : res.status);
      } catch (err) {
        record({ kind: "booking", path: `/api/events/${OPEN_DAY}/bookings`, status: 0, by, error: String(err?.cause?.code ?? err), phase: started });
        bookings.set(email, 0);
      }
      await sleep(300);
    }
  };
  // A member signing in, reading their account and signing out, as soak's sign-in
  // class does; each step may reach either instance (the session is in the database).
  const signInWorker = async () => {
    while (!stop) {
      const visitor = apiClient({ forwardedFor: `10.${loadRuns}.30.1` });
      for (const [method, p, body] of [
        ["GET", "/sanctum/csrf-cookie"],
        ["POST", "/login", { email: member, password: PASSWORD }],
        ["GET", "/api/user"],
        ["POST", "/logout"],
      ]) {
        const started = phase;
        let by = null;
        try {
          const res = await visitor.fetch(`${cluster.lb}${p}`, { method, body });
          by = res.headers.get("x-lb-backend");
          await res.arrayBuffer();
          record({ kind: "sign-in", path: `${method} ${p}`, status: res.status, by, phase: started });
          if (res.status >= 300) break;
        } catch (err) {
          record({ kind: "sign-in", path: `${method} ${p}`, status: 0, by, error: String(err?.cause?.code ?? err), phase: started });
          break;
        }
      }
      await sleep(100);
    }
  };
  const workers = [...[0, 1, 2, 3, 4, 5].map(pageWorker), ...[0, 1, 2].map(signupWorker), bookingWorker(0), signInWorker()];
  try {
    await sleep(4_000);
    await during(mark);
    await sleep(4_000);
  } finally {
    stop = true;
    await Promise.all(workers);
  }
  const failed = results.filter((r) => r.status === 0 || r.status >= 500);
  console.log(`# load: ${JSON.stringify({ requests: results.length, marks, failed: failed.map((r) => `${r.kind} ${r.path} ${r.status || r.error} at ${r.t} ms`) })}`);
  return { results, signups, bookings, marks, failed, connections: workers.length };
}

const OPEN_DAY = "family-history-open-day-may-2027";

/** Every booking answered 201 is stored once under its ref; none is stored twice. */
async function assertBookingsOnce(bookings) {
  const emails = [...bookings.keys()];
  assert.ok(emails.length >= 5, `${emails.length} bookings during the load`);
  const list = emails.map((e) => `'${e}'`).join(",");
  const rows = await cluster.sql(`SELECT email, count(*), min(ref) FROM bookings WHERE email IN (${list}) GROUP BY email`);
  const stored = new Map(rows.map(([email, n, ref]) => [email, { n, ref }]));
  for (const [email, got] of bookings) {
    const row = stored.get(email);
    if (typeof got === "string") {
      assert.deepEqual(row, { n: "1", ref: got }, `the booking answered ${got} for ${email}`);
    } else {
      assert.ok([0, 502].includes(got), `booking of ${email} answered ${got}`);
      assert.ok(!row || row.n === "1", `${email}: a booking whose answer was lost stored ${row?.n} times`);
    }
  }
}

/** The balancer's view of its backends. */
async function lbBackends() {
  return (await (await fetch(`${cluster.lb}/_lb/backends`)).json()).backends;
}

/** Every sign-up ended accepted, has one subscriber and one confirmation mail queued, and no mail was written twice. */
async function assertSignupsOnce(signups) {
  const emails = [...signups.keys()];
  assert.ok(emails.length >= 20, `${emails.length} sign-ups during the load`);
  for (const [email, status] of signups) assert.equal(status, 202, `sign-up of ${email} ended with ${status}`);
  const list = emails.map((e) => `'${e}'`).join(",");
  const subs = await cluster.sql(`SELECT email, count(*) FROM newsletter_subscribers WHERE email IN (${list}) GROUP BY email`);
  assert.equal(subs.length, emails.length, "every sign-up has its subscriber");
  const outbox = await cluster.sql(`SELECT to_addr, count(*) FROM mail_outbox WHERE to_addr IN (${list}) GROUP BY to_addr`);
  assert.equal(outbox.length, emails.length, "every sign-up queued its confirmation mail");
  for (const [to, n] of outbox) assert.equal(n, "1", `${to}: ${n} confirmation mails queued`);
  // A message the killed instance had claimed waits for its claim to expire (5 min) and
  // is then sent by the survivor; none is written twice.
  const written = new Map();
  for (const m of await cluster.mails()) {
    const to = (m.headers.to ?? "").replace(/.*</, "").replace(/>.*/, "");
    if (signups.has(to)) written.set(to, (written.get(to) ?? 0) + 1);
  }
  for (const [to, n] of written) assert.equal(n, 1, `${to}: ${n} confirmation mails written`);
}

describe("one instance stops under load", () => {
  test("killed in the middle of traffic through the balancer: the survivor answers, sign-ups and bookings are kept once, the instance rejoins", { timeout: 240_000 }, () =>
    withLogs(async () => {
      const [victim, survivor] = cluster.instances.map((i) => new URL(i.url).host);
      const { results, signups, bookings, marks, failed, connections } = await underLoad(async (mark) => {
        mark("down");
        await cluster.command("kill 0");
        await sleep(4_000);
        // Started again while the traffic goes on; `start` answers once its /readyz is 200.
        await cluster.command("start 0");
        await waitFor(async () => (await lbBackends()).every((b) => b.healthy), "the balancer to take the restarted instance back", 30_000);
        mark("back");
      });
      const by = (f) => results.filter(f);
      const bad = by((r) => r.by === survivor && r.status >= 400);
      assert.deepEqual(bad.slice(0, 5), [], `the survivor answered every request it got (${bad.length} did not)`);
      // The only failures are requests that were in flight on the killed instance when
      // it died (they ended after the kill, and began before the instance came back):
      // the balancer's 502 when no answer had begun, an answer cut off when it had; at
      // most one per connection.
      for (const f of failed) {
        const inFlight = (f.status === 502 && !f.by) || (f.status === 0 && f.by === victim);
        assert.ok(inFlight, `a failure other than "the instance stopped": ${JSON.stringify(f)}`);
        assert.ok(f.phase !== "back" && f.t >= marks.down, `a failure outside the outage: ${JSON.stringify(f)}`);
      }
      assert.ok(failed.length <= connections, `${failed.length} failures for ${connections} connections`);
      assert.ok(by((r) => r.phase === "down" && r.by === survivor).length > 0, "the survivor carried the traffic while the other was down");
      assert.ok(by((r) => r.by === victim && r.phase === "back").length > 0, "the restarted instance answers again through the balancer");
      await assertSignupsOnce(signups);
      await assertBookingsOnce(bookings);
    }),
  );

  test("stopped with SIGTERM under load (a rolling upgrade): drained by the balancer, no request fails, it rejoins", { timeout: 240_000 }, () =>
    withLogs(async () => {
      const [stays, leaves] = cluster.instances.map((i) => new URL(i.url).host);
      const { results, signups, bookings, marks, failed } = await underLoad(async (mark) => {
        mark("draining");
        // `stop` answers once the process has exited: /readyz said 503 for
        // LINEAGE_DRAIN while it kept serving, then it finished what was in flight.
        await cluster.command("stop 1");
        const out = (await lbBackends())[1];
        assert.equal(out.healthy, false, "the stopped instance is out of the balancer");
        mark("down");
        await sleep(2_000);
        mark("restarting");
        await cluster.command("start 1");
        await waitFor(async () => (await lbBackends()).every((b) => b.healthy), "the balancer to take the instance back", 30_000);
        mark("back");
      });
      assert.deepEqual(failed.slice(0, 5), [], `no request failed during a graceful stop (${failed.length} did)`);
      assert.deepEqual(results.filter((r) => r.status >= 400).slice(0, 5), [], "every answer was a success");
      assert.ok(results.some((r) => r.phase === "draining" && r.by === leaves), "the instance kept answering while it drained");
      assert.equal(results.filter((r) => r.by === leaves && r.phase === "down").length, 0, "nothing went to the stopped instance");
      assert.ok(results.some((r) => r.phase === "back" && r.by === leaves), "the restarted instance answers again");
      assert.ok(results.some((r) => r.phase === "down" && r.by === stays));
      await assertSignupsOnce(signups);
      await assertBookingsOnce(bookings);
    }),
  );
});

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

/** A GET over TLS that accepts the test's self-signed certificate. */
function tlsGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { rejectUnauthorized: false, headers, timeout: 30_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`timeout: ${url}`)));
  });
}

describe("the deployment recipe", () => {
  test("docs/deployment.md's nginx in front of the pair: TLS, anonymous pages cached and personal ones not, the other instance answers when one is gone", { timeout: 120_000 }, () =>
    withLogs(async () => {
      assert.ok(NGINX, "nginx is needed for this test: apt-get install nginx-light (or nginx)");
      const doc = readFileSync(path.join(ROOT_DIR, "docs", "deployment.md"), "utf8");
      const recipe = doc.slice(doc.indexOf("## A recipe: nginx in front of two instances"));
      let conf = /```nginx\n([\s\S]*?)```/.exec(recipe)?.[1];
      assert.ok(conf, "the recipe has an nginx block");
      const dir = mkdtempSync(path.join(os.tmpdir(), "lineage-nginx-"));
      chmodSync(dir, 0o755); // nginx's workers run as another user
      const [http, tls] = [await freePort(), await freePort()];
      const [one, two] = cluster.instances.map((i) => new URL(i.url).host);
      const cert = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "1", "-subj", "/CN=www.example.org"]);
      assert.equal(cert.status, 0, `openssl: ${cert.stderr}`);
      // Only addresses, ports and paths change; every directive is the recipe's.
      conf = conf
        .replace("10.0.0.11:8080", one)
        .replace("10.0.0.12:8080", two)
        .replace("/var/cache/nginx/lineage", `${dir}/cache`)
        .replace("/etc/letsencrypt/live/www.example.org/fullchain.pem", `${dir}/cert.pem`)
        .replace("/etc/letsencrypt/live/www.example.org/privkey.pem", `${dir}/key.pem`)
        .replace("listen 80;", `listen 127.0.0.1:${http};`)
        .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${tls} ssl http2;`);
      writeFileSync(
        `${dir}/nginx.conf`,
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents { worker_connections 256; }\nhttp {\naccess_log off;\n` +
          `client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;\n` +
          // For the test only: what nginx's cache did with each answer.
          `add_header X-Nginx-Cache $upstream_cache_status always;\n${conf}\n}\n`,
      );
      const started = spawnSync(NGINX, ["-c", `${dir}/nginx.conf`, "-e", `${dir}/error.log`], { encoding: "utf8" });
      assert.equal(started.status, 0, `nginx: ${started.stderr}`);
      const origin = `https://127.0.0.1:${tls}`;
      try {
        const plain = await fetch(`http://127.0.0.1:${http}/news`, { redirect: "manual" });
        assert.equal(plain.status, 301);
        assert.match(plain.headers.get("location"), /^https:\/\/.*\/news$/);

        const first = await tlsGet(`${origin}/news`);
        assert.equal(first.status, 200);
        assert.match(first.body, /<html/);
        const second = await tlsGet(`${origin}/news`);
        assert.equal(second.headers["x-nginx-cache"], "HIT", "an anonymous page is answered from nginx's cache");
        const personal = await tlsGet(`${origin}/news`, { Cookie: "lineage_session=abc; _ga=1" });
        assert.equal(personal.headers["x-nginx-cache"], "BYPASS", "a visitor with a session cookie goes to Lineage");

        // One instance gone: nginx tries the other for every page (fresh searches, never cached).
        await cluster.command("kill 1");
        try {
          for (let i = 0; i < 12; i++) {
            const res = await tlsGet(`${origin}/research-hub/our-collections/searchexplore?surname=Smith&year=${1800 + i}`);
            assert.equal(res.status, 200, `search ${i} through nginx with one instance down: ${res.status}`);
          }
        } finally {
          await cluster.command("start 1");
        }
      } finally {
        spawnSync(NGINX, ["-c", `${dir}/nginx.conf`, "-e", `${dir}/error.log`, "-s", "stop"]);
        for (let i = 0; i < 50 && existsSync(`${dir}/nginx.pid`); i++) await sleep(100);
        rmSync(dir, { recursive: true, force: true });
      }
    }),
  );
});
