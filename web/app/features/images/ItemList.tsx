// The image explorer's list: every item with scans, as cards (thumbnail, title,
// collection, pages, members-only mark), each linking to its viewer page.
import { Link } from "react-router";
import { accessLabel, pagesText, restricted, type ImageItem } from "./items";
import styles from "./images.module.css";

export function ItemList({ items }: { items: ImageItem[] }) {
  if (items.length === 0) return <p className="empty-state">There are no scans to show yet.</p>;
  return (
    <ul className={`card-list card-list--grid ${styles.items}`} role="list">
      {items.map((item) => (
        <li key={item.slug} className="card">
          {item.thumbnail ? (
            // Decorative: the title next to it says what it is.
            <img className={styles.thumb} src={item.thumbnail} alt="" loading="lazy" decoding="async" />
          ) : (
            <div className={styles.thumbPlaceholder} aria-hidden="true">
              {restricted(item) && !item.allowed ? accessLabel(item) : "No preview"}
            </div>
          )}
          <div className="card__body">
            <h2 className="card__title">
              <Link to={item.viewer}>{item.label}</Link>
            </h2>
            <p className="card__meta">
              {item.collection.title} · {pagesText(item.pages)}
            </p>
            {restricted(item) ? <p className={styles.badge}>{accessLabel(item)}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
