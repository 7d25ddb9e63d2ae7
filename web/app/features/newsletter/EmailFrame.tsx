// An email's HTML shown as it will look in a mail program: in a sandboxed frame (no
// scripts run; links open in the whole window), grown to the email's height once it
// has loaded so that only the page scrolls.
import { useCallback, useEffect, useRef } from "react";
import styles from "./newsletter.module.css";

/** The email's HTML with its links aimed at the whole window rather than the frame. */
export function framedHtml(html: string): string {
  const base = '<base target="_top">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  return `<!doctype html><html><head><meta charset="utf-8">${base}</head><body>${html}</body></html>`;
}

export function EmailFrame({ html, title }: { html: string; title: string }) {
  const ref = useRef<HTMLIFrameElement>(null);
  const fit = useCallback(() => {
    const frame = ref.current;
    const doc = frame?.contentDocument;
    if (frame && doc?.documentElement) frame.style.height = `${doc.documentElement.scrollHeight + 4}px`;
  }, []);
  // The server-rendered frame may have loaded before the page was hydrated, with no one listening.
  useEffect(() => {
    const doc = ref.current?.contentDocument;
    // Not the frame's initial about:blank, which is "complete" before the email is in.
    if (doc?.readyState === "complete" && doc.URL === "about:srcdoc") fit();
  }, [fit, html]);
  return (
    <iframe
      ref={ref}
      title={title}
      className={styles.frame}
      srcDoc={framedHtml(html)}
      // Same origin only so this page can measure the email's height; no scripts run in it.
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
      onLoad={fit}
    />
  );
}
