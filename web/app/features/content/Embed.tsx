import type { EmbedField } from "@prismicio/client";
import { autoplaySrc, embedPlayerSrc, localPoster, videoDuration, videoHostName } from "./embed";
import styles from "./Embed.module.css";
import playScript from "./embed-play.js?url&no-inline";

interface EmbedProps {
  oembed: EmbedField | null | undefined;
  /** Accessible name of the player; defaults to the oEmbed title. */
  title?: string | null;
}

/**
 * An oEmbed video as a facade: a poster with the title, the duration when the provider
 * gives one, a play button and a line saying where it plays from. Nothing is requested
 * from the video host until the visitor presses play (privacy, and a page that still
 * looks finished when the host cannot be reached); then the titled player <iframe>,
 * built from embed_url, takes the facade's place and the focus (embed-play.js, a script
 * of its own so that pages served without React can play videos too). Without
 * JavaScript the play button is a link to the video's own page. The provider's HTML is
 * never inserted. Providers we cannot build a player for get a plain link instead.
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
  const host = videoHostName(oembed.provider_name, src);
  const duration = videoDuration((oembed as { duration?: unknown }).duration);
  const poster = localPoster(oembed.thumbnail_url);
  const videoTitle = typeof oembed.title === "string" && oembed.title.trim() && oembed.title.trim() !== name ? oembed.title.trim() : null;

  return (
    // Keyed by the video: another video is a new facade, not this one with a player in it.
    <figure key={oembed.embed_url} className={styles.facade}>
      <script type="module" async src={playScript} />
      <div className={`embed ${styles.box}`} style={{ aspectRatio: `${width} / ${height}` }}>
        {poster ? <img className={styles.poster} src={poster} alt="" width={width} height={height} /> : null}
        <a className={styles.play} href={oembed.embed_url} rel="noreferrer" data-player={autoplaySrc(src)} data-player-title={name}>
          <span className={styles.button} aria-hidden="true" />
          <span className={styles.title}>
            <span className="visually-hidden">Play video: </span>
            {videoTitle ?? name}
          </span>
          {duration ? (
            <span className={styles.duration}>
              <time dateTime={duration.iso} aria-hidden="true">
                {duration.text}
              </time>
              <span className="visually-hidden">, {duration.words}</span>
            </span>
          ) : null}
        </a>
      </div>
      <figcaption className={styles.note}>Plays from {host} when you press play; nothing is loaded from {host} before that.</figcaption>
    </figure>
  );
}
