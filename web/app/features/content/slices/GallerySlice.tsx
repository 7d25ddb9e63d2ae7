import { isFilled } from "@prismicio/client";
import type { SliceComponentProps } from "@prismicio/react";
import type { GallerySlice as GallerySliceType } from "../content-types";
import { ContentImage } from "../ContentImage";

export function GallerySlice({ slice }: SliceComponentProps<GallerySliceType>) {
  const items = slice.items.filter((item) => isFilled.image(item.image));
  if (items.length === 0) return null;
  return (
    <section className="slice slice--gallery" aria-label={slice.primary.title || "Gallery"}>
      {slice.primary.title ? <h2>{slice.primary.title}</h2> : null}
      <ul className="gallery" role="list">
        {items.map((item, i) => (
          <li key={item.image.id ?? i} className="gallery__item">
            <figure>
              <ContentImage field={item.image} sizes="(min-width: 60rem) 20rem, (min-width: 40rem) 50vw, 100vw" />
              {item.caption ? <figcaption>{item.caption}</figcaption> : null}
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
