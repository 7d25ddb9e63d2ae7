// A table that may be wider than a phone's screen: it scrolls sideways in a box that the
// keyboard can reach (tabIndex) and a screen reader announces by name (a labelled region).
import type { ReactNode } from "react";

export function ScrollTable({
  label,
  caption = label,
  className,
  tableClassName,
  children,
}: {
  /** The scroll box's name. */
  label: string;
  /** The table's caption, for screen readers only; the label unless given. */
  caption?: string;
  /** The scroll box's class (its feature's styles). */
  className: string;
  tableClassName: string;
  /** The table's head and body. */
  children: ReactNode;
}) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      <table className={tableClassName}>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
