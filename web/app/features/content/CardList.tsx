import { Link } from "react-router";
import { ContentImage } from "./ContentImage";
import { demotedHeadings, RichText } from "./RichText";
import type { Card } from "./cards";
import { formatDate, formatDateTime } from "../../lib/dates";

interface CardListProps {
  cards: Card[];
  /** Heading level of each card's title. */
  headingLevel?: 2 | 3;
  /** What to say when there are no cards. */
  empty: string;
  /** Show dates with the time of day (events). */
  withTime?: boolean;
  /** "list": one per row, image beside the text; "grid": tiles. */
  variant?: "list" | "grid";
}

/** Documents as a list of linked cards: title, date, summary, image. */
export function CardList({ cards, headingLevel = 2, empty, withTime = false, variant = "list" }: CardListProps) {
  if (cards.length === 0) return <p className="empty-state">{empty}</p>;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className={`card-list card-list--${variant}`} role="list">
      {cards.map((card) => {
        const date = withTime ? formatDateTime(card.date) : formatDate(card.date);
        return (
          <li key={card.id} className="card">
            {card.image ? <ContentImage field={card.image} className="card__image" sizes="(min-width: 60rem) 20rem, 100vw" /> : null}
            <div className="card__body">
              <Heading className="card__title">
                <Link to={card.href}>{card.title}</Link>
              </Heading>
              {date || card.location ? (
                <p className="card__meta">
                  {date ? <time dateTime={card.date ?? undefined}>{date}</time> : null}
                  {date && card.location ? " · " : null}
                  {card.location ?? null}
                </p>
              ) : null}
              {card.summary ? (
                <div className="card__summary">
                  <RichText field={card.summary} components={demotedHeadings} />
                </div>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
