import { Link } from "react-router";
import { pageHref } from "../lib/paging";

interface PaginationProps {
  page: number;
  totalPages: number;
  /** Path of page 1; other pages add ?page=N. */
  basePath: string;
  label: string;
}


/** Previous / next links and the current position, for paged lists. */
export function Pagination({ page, totalPages, basePath, label }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <ul role="list" className="pagination__list">
        <li>
          {page > 1 ? (
            <Link to={pageHref(basePath, page - 1)} rel="prev" className="button">
              <span aria-hidden="true">← </span>Newer
            </Link>
          ) : null}
        </li>
        <li aria-current="page" className="pagination__position">
          Page {page} of {totalPages}
        </li>
        <li>
          {page < totalPages ? (
            <Link to={pageHref(basePath, page + 1)} rel="next" className="button">
              Older<span aria-hidden="true"> →</span>
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}
