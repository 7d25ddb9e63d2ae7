import type { RichTextField } from "@prismicio/client";
import type { ReactNode } from "react";
import { PrismicLink, PrismicRichText, type RichTextComponents } from "@prismicio/react";
import { linkResolver } from "./link-resolver";
import { AppLink } from "./AppLink";
import { ContentImage } from "./ContentImage";
import { Embed } from "./Embed";

/**
 * How each rich-text block and span becomes markup. Headings 1–6, paragraph,
 * preformatted, (ordered) list items, image with linkTo, embed, hyperlink,
 * label, strong and em (seed-spec §3). Internal links are router <Link>s.
 */
export const richTextComponents: RichTextComponents = {
  preformatted: ({ node }) => (
    <pre tabIndex={0}>
      <code>{node.text}</code>
    </pre>
  ),
  image: ({ node }) => {
    const image = <ContentImage field={{ ...node, id: node.id ?? "", edit: node.edit }} />;
    return (
      <figure className="rt-image">
        {node.linkTo ? (
          <PrismicLink field={node.linkTo} linkResolver={linkResolver} internalComponent={AppLink}>
            {image}
          </PrismicLink>
        ) : (
          image
        )}
        {node.copyright ? <figcaption className="rt-image__credit">© {node.copyright}</figcaption> : null}
      </figure>
    );
  },
  embed: ({ node }) => <Embed oembed={node.oembed} />,
  hyperlink: ({ node, children }) => (
    <PrismicLink field={node.data} linkResolver={linkResolver} internalComponent={AppLink}>
      {children}
    </PrismicLink>
  ),
  label: ({ node, children }) => {
    const name = node.data.label.replace(/[^A-Za-z0-9_-]/g, "");
    return <span className={name ? `rt-label rt-label--${name}` : "rt-label"}>{children}</span>;
  },
};

interface RichTextProps {
  field: RichTextField | null | undefined;
  /** Extra block mappings, e.g. to render heading1 as h2 inside a card. */
  components?: RichTextComponents;
  fallback?: ReactNode;
}

export function RichText({ field, components, fallback }: RichTextProps) {
  return (
    <PrismicRichText
      field={field}
      components={{ ...richTextComponents, ...components }}
      linkResolver={linkResolver}
      internalLinkComponent={AppLink}
      fallback={fallback}
    />
  );
}

/** Mappings that demote every heading one level, for content under a page's own h1. */
export const demotedHeadings: RichTextComponents = {
  heading1: ({ children }) => <h2>{children}</h2>,
  heading2: ({ children }) => <h3>{children}</h3>,
  heading3: ({ children }) => <h4>{children}</h4>,
  heading4: ({ children }) => <h5>{children}</h5>,
  heading5: ({ children }) => <h6>{children}</h6>,
  heading6: ({ children }) => <h6>{children}</h6>,
};
