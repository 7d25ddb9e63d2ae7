// A table that may be wider than a phone's screen: it scrolls sideways in a box that the
// keyboard can reach (tabIndex) and a screen reader announces by name (a labelled region).
import type { ReactNode } from "react";

export function ScrollTable({
  label,
  caption = label,
  className,
  tableClassName,
  columns,
  children,
}: {
  /** The scroll box's name. */
  label: string;
  /** The table's caption, for screen readers only; the label unless given. */
  caption?: string;
  /** The scroll box's class (its feature's styles). */
  className: string;
  tableClassName: string;
  /** The column names, for a head row of plain names (see TableHead); without them, children bring the head. */
  columns?: readonly Column[];
  /** The table's body (and head, unless columns are given). */
  children: ReactNode;
}) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      <table className={tableClassName}>
        <caption className="visually-hidden">{caption}</caption>
        {columns ? <TableHead columns={columns} /> : null}
        {children}
      </table>
    </div>
  );
}

/** A column name; null or false leaves out a column shown only sometimes. */
export type Column = string | null | false;

/** A table's head: one row of column headers, in order. Names are unique within a table. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((name) =>
          name ? (
            <th key={name} scope="col">
              {name}
            </th>
          ) : null,
        )}
      </tr>
    </thead>
  );
}
