// Turns an oEmbed `embed_url` (the page a video lives on) into the address of
// its player, so we can build our own titled <iframe> instead of inserting the
// provider's HTML.

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;

export function embedPlayerSrc(embedUrl: string | null | undefined): string | null {
  if (!embedUrl) return null;
  let url: URL;
  try {
    url = new URL(embedUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.replace(/^www\.|^m\./, "");

  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    let id: string | null = null;
    if (url.pathname === "/watch") id = url.searchParams.get("v");
    else {
      const match = url.pathname.match(/^\/(?:embed|shorts|live|v)\/([^/?#]+)/);
      id = match?.[1] ?? null;
    }
    if (!id || !YOUTUBE_ID.test(id)) return null;
    const start = url.searchParams.get("t") ?? url.searchParams.get("start");
    const seconds = start ? parseInt(start, 10) : NaN;
    return `https://www.youtube-nocookie.com/embed/${id}${Number.isFinite(seconds) && seconds > 0 ? `?start=${seconds}` : ""}`;
  }
  if (host === "youtu.be") {
    const id = url.pathname.slice(1).split("/")[0];
    return id && YOUTUBE_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const match = url.pathname.match(/(?:^|\/)(\d{4,})(?:\/([0-9a-f]{6,}))?/);
    if (!match) return null;
    const hash = match[2] ?? url.searchParams.get("h");
    return `https://player.vimeo.com/video/${match[1]}${hash ? `?h=${hash}` : ""}`;
  }
  return null;
}

/** The player's address with autoplay on: the visitor has just pressed play. */
export function autoplaySrc(src: string): string {
  const url = new URL(src);
  url.searchParams.set("autoplay", "1");
  return url.href;
}

/** Who plays the video, for "Plays from YouTube": the oEmbed provider, else the player's host. */
export function videoHostName(providerName: unknown, playerSrc: string): string {
  if (typeof providerName === "string" && providerName.trim()) return providerName.trim();
  const host = new URL(playerSrc).hostname;
  if (host.endsWith("vimeo.com")) return "Vimeo";
  if (host.includes("youtube")) return "YouTube";
  return host;
}

/**
 * An oEmbed `duration` (seconds; Vimeo sends it, YouTube does not) as "10:34" or
 * "1:02:03", with its ISO 8601 form for <time dateTime> and words for screen readers.
 */
export function videoDuration(value: unknown): { text: string; iso: string; words: string } | null {
  const total = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(total) || total <= 0) return null;
  const s = Math.round(total);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const text = h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
  const iso = `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${sec ? `${sec}S` : ""}`;
  const unit = (n: number, word: string) => (n ? `${n} ${word}${n === 1 ? "" : "s"}` : "");
  const words = [unit(h, "hour"), unit(m, "minute"), unit(sec, "second")].filter(Boolean).join(" ");
  return { text, iso, words };
}

/** A poster the site serves itself (a path on this site); a provider's thumbnail would call the provider. */
export function localPoster(thumbnailUrl: unknown): string | null {
  if (typeof thumbnailUrl !== "string") return null;
  return thumbnailUrl.startsWith("/") && !thumbnailUrl.startsWith("//") ? thumbnailUrl : null;
}
