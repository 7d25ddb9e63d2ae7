// Mail in the browser suite: without SMTP the server writes each message to
// <data>/mail/*.eml (8-bit, so links are readable); these read them back.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The .eml files of a server's data directory, newest first, with their text. */
export function mails(server) {
  const dir = path.join(server.dataDir, "mail");
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml")).sort().reverse();
  } catch {
    // nothing written yet
  }
  return files.map((f) => ({ file: f, text: readFileSync(path.join(dir, f), "utf8") }));
}

/**
 * The first link to `server` starting with `pathPrefix` in the newest mail to `to`
 * that has one, waiting up to `timeoutMs` for the outbox to write it.
 */
export async function mailedLink(server, to, pathPrefix, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const { text } of mails(server)) {
      if (!text.includes(`<${to}>`) && !new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`, "mi").test(text)) continue;
      const start = text.indexOf(server.url + pathPrefix);
      const link = start >= 0 ? text.slice(start).match(/^[^\s"<>]+/) : null;
      if (link) return link[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with a ${pathPrefix} link in ${path.join(server.dataDir, "mail")}`);
}
