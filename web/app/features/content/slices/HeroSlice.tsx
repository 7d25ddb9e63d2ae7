import { asText, isFilled } from "@prismicio/client";
import { PrismicLink, type SliceComponentProps } from "@prismicio/react";
import type { HeroSlice as HeroSliceType } from "../content-types";
import type { BodyContext } from "../Body";
import { linkResolver } from "../link-resolver";
import { AppLink } from "../AppLink";
import { ContentImage } from "../ContentImage";
import { RichText } from "../RichText";

export function HeroSlice({ slice, index, context }: SliceComponentProps<HeroSliceType, BodyContext>) {
  const { title, text, image, link, link_label } = slice.primary;
  const heading = asText(title);
  const Heading = index === 0 && context?.leadHeroIsPageHeading ? "h1" : "h2";
  return (
    <section className="slice slice--hero hero" aria-label={heading || undefined}>
      <div className="hero__text">
        {heading ? <Heading className="hero__title">{heading}</Heading> : null}
        <div className="hero__body">
          <RichText field={text} />
        </div>
        {isFilled.link(link) ? (
          <p>
            <PrismicLink field={link} linkResolver={linkResolver} internalComponent={AppLink} className="button button--primary">
              {link_label || "Find out more"}
            </PrismicLink>
          </p>
        ) : null}
      </div>
      {isFilled.image(image) ? (
        <div className="hero__media">
          <ContentImage field={image} loading={index === 0 ? "eager" : "lazy"} sizes="(min-width: 60rem) 40rem, 100vw" />
        </div>
      ) : null}
    </section>
  );
}
