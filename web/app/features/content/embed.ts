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
