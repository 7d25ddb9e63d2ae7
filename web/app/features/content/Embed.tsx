import type { EmbedField } from "@prismicio/client";
import { embedPlayerSrc } from "./embed";

interface EmbedProps {
  oembed: EmbedField | null | undefined;
  /** Accessible name of the player; defaults to the oEmbed title. */
  title?: string | null;
}

/**
 * An oEmbed value as a lazily loaded, titled <iframe> built from embed_url.
 * The provider's own HTML is never inserted. Providers we cannot build a
 * player for get a plain link instead.
 */
export function Embed({ oembed, title }: EmbedProps) {
  if (!oembed || !("embed_url" in oembed) || !oembed.embed_url) return null;
  const name = title?.trim() || (typeof oembed.title === "string" ? oembed.title : "") || "Embedded video";
  const src = embedPlayerSrc(oembed.embed_url);
  if (!src) {
    const provider = typeof oembed.provider_name === "string" ? oembed.provider_name : null;
    return (
      <p className="embed-link">
        <a href={oembed.embed_url} rel="noreferrer">
          {name}
          {provider ? ` (on ${provider})` : null}
        </a>
      </p>
    );
  }
  const width = Number(oembed.width) || 16;
  const height = Number(oembed.height) || 9;
  return (
    <div className="embed" style={{ aspectRatio: `${width} / ${height}` }}>
      <iframe
        src={src}
        title={name}
        loading="lazy"
        allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen"
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}
