import type { EmbedField } from "@prismicio/client";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { autoplaySrc, embedPlayerSrc, localPoster, videoDuration, videoHostName } from "./embed";
import styles from "./Embed.module.css";

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
 * built from embed_url, replaces the facade and takes focus. Without JavaScript the
 * play button is a link to the video's own page. The provider's HTML is never
 * inserted. Providers we cannot build a player for get a plain link instead.
 */
export function Embed({ oembed, title }: EmbedProps) {
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);

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

  if (playing) {
    return (
      <div className="embed" style={{ aspectRatio: `${width} / ${height}` }}>
        <iframe
          ref={frame}
          src={autoplaySrc(src)}
          title={name}
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }

  const play = (event: MouseEvent<HTMLAnchorElement>) => {
    // A modified click (new tab, new window) keeps the link's own behaviour.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setPlaying(true);
  };

  return (
    <figure className={styles.facade}>
      <div className={`embed ${styles.box}`} style={{ aspectRatio: `${width} / ${height}` }}>
        {poster ? <img className={styles.poster} src={poster} alt="" width={width} height={height} /> : null}
        <a className={styles.play} href={oembed.embed_url} rel="noreferrer" onClick={play}>
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
