// A table that may be wider than a phone's screen: it scrolls sideways in a box that the
// keyboard can reach (tabIndex) and a screen reader announces by name (a labelled region).
import type { ReactNode } from "react";
import { TableHead } from "./TableHead";

export function ScrollTable({
  label,
  caption = label,
  captionShown = false,
  columns,
  className,
  tableClassName,
  children,
}: {
  /** The scroll box's name. */
  label: string;
  /** The table's caption, for screen readers only; the label unless given. */
  caption?: string;
  /** Show the caption on screen too (it is hidden unless asked). */
  captionShown?: boolean;
  /** The column headers: the table's head, when the children are its body alone. */
  columns?: readonly string[];
  /** The scroll box's class (its feature's styles). */
  className: string;
  tableClassName: string;
  /** The table's body (and its head, without columns). */
  children: ReactNode;
}) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      <table className={tableClassName}>
        <caption className={captionShown ? undefined : "visually-hidden"}>{caption}</caption>
        {columns ? <TableHead columns={columns} /> : null}
        {children}
      </table>
    </div>
  );
}
