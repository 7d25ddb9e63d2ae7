import { isFilled } from "@prismicio/client";
import { PrismicLink, type SliceComponentProps } from "@prismicio/react";
import type { GridSlice as GridSliceType } from "../content-types";
import { linkResolver } from "../link-resolver";
import { AppLink } from "../AppLink";
import { ContentImage } from "../ContentImage";
import { demotedHeadings, RichText } from "../RichText";

export function GridSlice({ slice }: SliceComponentProps<GridSliceType>) {
  const headingId = slice.id ? `grid-${slice.id.replace(/[^A-Za-z0-9_-]/g, "")}` : undefined;
  return (
    <section className="slice slice--grid" aria-labelledby={slice.primary.title ? headingId : undefined}>
      {slice.primary.title ? <h2 id={headingId}>{slice.primary.title}</h2> : null}
      <ul className="card-grid" role="list">
        {slice.items.map((item, i) => (
          <li key={i} className="card">
            {isFilled.image(item.image) ? (
              <ContentImage field={item.image} className="card__image" sizes="(min-width: 60rem) 20rem, 100vw" />
            ) : null}
            <div className="card__body">
              {item.title ? (
                <h3 className="card__title">
                  {isFilled.link(item.link) ? (
                    <PrismicLink field={item.link} linkResolver={linkResolver} internalComponent={AppLink}>
                      {item.title}
                    </PrismicLink>
                  ) : (
                    item.title
                  )}
                </h3>
              ) : null}
              <RichText field={item.text} components={{ ...demotedHeadings, heading1: ({ children }) => <h4>{children}</h4>, heading2: ({ children }) => <h4>{children}</h4> }} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
