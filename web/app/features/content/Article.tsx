import { asText, type ImageField, type RichTextField } from "@prismicio/client";
import type { ReactNode } from "react";
import { Body } from "./Body";
import { ContentImage } from "./ContentImage";
import { RichText } from "./RichText";
import { withoutRepeatedLead } from "./lead-hero";
import type { Body as BodyField } from "./content-types";
import { formatDate } from "../../lib/dates";

interface ArticleProps {
  title: string;
  date?: string | null;
  image?: ImageField | null;
  summary?: RichTextField | null;
  body?: BodyField | null;
  /** Shown between the heading and the body, e.g. breadcrumbs or a kicker. */
  kicker?: ReactNode;
  /** Facts shown under the heading, before the summary (e.g. an event's time and place). */
  facts?: ReactNode;
  /** Controls for the page as a whole, at the end of the header (e.g. the bookmark toggle). */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * One content document as a page: heading, date, lead image, summary, body.
 * A lead hero that repeats the heading or summary shows only what is new (lead-hero.ts).
 */
export function Article({ title, date, image, summary, body, kicker, facts, actions, children }: ArticleProps) {
  const shownDate = formatDate(date);
  return (
    <article className="article">
      <header className="article__header">
        {kicker}
        <h1>{title}</h1>
        {shownDate ? (
          <p className="article__date">
            <time dateTime={date ?? undefined}>{shownDate}</time>
          </p>
        ) : null}
        {facts}
        {actions}
      </header>
      {summary?.length ? (
        <div className="lead">
          <RichText field={summary} />
        </div>
      ) : null}
      {image?.url ? (
        <figure className="article__image">
          <ContentImage field={image} loading="eager" />
        </figure>
      ) : null}
      <Body slices={withoutRepeatedLead(body, { title, summary: summary?.length ? asText(summary) : null })} />
      {children}
    </article>
  );
}
