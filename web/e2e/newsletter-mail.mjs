// Reading the newsletter's mail in the e2e suite: without SMTP the server's outbox
// writes each message as an .eml file under <data>/mail/ (internal/mail DirSender,
// 8bit: no transfer encoding to undo). Just enough MIME to reach the headers and the
// text/plain and text/html parts of a multipart/alternative message.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Header name (lower case) → unfolded value; the first of each name. */
function parseHeaders(block) {
  const headers = {};
  for (const line of block.replace(/\r\n/g, "\n").replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function split(raw) {
  const text = raw.replace(/\r\n/g, "\n");
  const at = text.indexOf("\n\n");
  return at < 0 ? { head: text, body: "" } : { head: text.slice(0, at), body: text.slice(at + 2) };
}

/** The leaf parts of a MIME entity, by content type (the first of each type). */
function leafParts(headers, body, parts = {}) {
  const type = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      const { head, body: inner } = split(chunk.replace(/^\n/, ""));
      leafParts(parseHeaders(head), inner.replace(/\n$/, ""), parts);
    }
  } else {
    const key = type.split(";")[0].trim().toLowerCase();
    if (!(key in parts)) parts[key] = body;
  }
  return parts;
}

/** Every message in the data dir's mail folder, oldest first: { file, headers, text, html }. */
export function readMails(dataDir) {
  const dir = path.join(dataDir, "mail");
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return files.map((file) => ({ file, ...parseMail(readFileSync(path.join(dir, file), "utf8")) }));
}

/** One message's text (an .eml file) as { headers, text, html }. */
export function parseMail(raw) {
  const { head, body } = split(raw);
  const headers = parseHeaders(head);
  const parts = leafParts(headers, body);
  return { headers, text: parts["text/plain"] ?? "", html: parts["text/html"] ?? "" };
}

/** Waits for a message to `to` that `match`es (subject, text…); returns the newest such. */
export async function waitForMail(dataDir, to, match = () => true, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMails(dataDir)
      .filter((m) => (m.headers.to ?? "").includes(to) && match(m))
      .pop();
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = readMails(dataDir).map((m) => `${m.headers.to} | ${m.headers.subject}`);
      throw new Error(`no mail to ${to} matching ${match} in ${dataDir}/mail; saw:\n  ${seen.join("\n  ")}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first link in `text` that starts with `origin + pathPrefix`. */
export function linkIn(text, origin, pathPrefix) {
  const start = text.indexOf(origin + pathPrefix);
  if (start < 0) return null;
  return text.slice(start).match(/^[^\s<>"]+/)?.[0] ?? null;
}
