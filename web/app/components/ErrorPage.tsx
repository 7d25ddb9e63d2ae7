import { Component, type ErrorInfo, type ReactNode } from "react";
import { isRouteErrorResponse, Link } from "react-router";

import { ERROR_PAGE_FAILED_MESSAGE, GO_HOME_LABEL, NOT_FOUND_MESSAGE } from "./error-messages";

/** The status and message an error is shown with (seed-spec §8: default 500). */
export function describeError(error: unknown): { status: number; title: string; detail: string | null } {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return { status: 404, title: NOT_FOUND_MESSAGE, detail: null };
    if (error.status === 503) {
      return {
        status: 503,
        title: "This page is temporarily unavailable",
        detail: "Our content service is not answering just now. Please try again in a few minutes.",
      };
    }
    return {
      status: error.status,
      title: error.status >= 500 ? "Something went wrong" : error.statusText || "Something went wrong",
      detail: typeof error.data === "string" && error.status < 500 ? error.data : null,
    };
  }
  return { status: 500, title: "Something went wrong", detail: "Sorry, we could not show this page. Please try again later." };
}

/** The page shown for any error: not-found, unavailable, or generic. */
export function ErrorPage({ error }: { error: unknown }) {
  const { status, title, detail } = describeError(error);
  return (
    <div className="container error-page">
      <p className="error-page__status">Error {status}</p>
      <h1>{title}</h1>
      {detail ? <p>{detail}</p> : null}
      {status === 404 ? <p>The address may be mistyped, or the page may have moved.</p> : null}
      <GoHome />
    </div>
  );
}

/** An error page's way out: the button to the home page. */
export function GoHome() {
  return (
    <p>
      <Link to="/" className="button button--primary">
        {GO_HOME_LABEL}
      </Link>
    </p>
  );
}

/** Last resort when rendering the error page itself throws. */
export function ErrorPageFailure() {
  return (
    <div className="container error-page">
      <h1>{ERROR_PAGE_FAILED_MESSAGE}</h1>
      <p>
        <a href="/" className="button button--primary">
          {GO_HOME_LABEL}
        </a>
      </p>
    </div>
  );
}

/** Catches a failure while rendering an error page. */
export class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(ERROR_PAGE_FAILED_MESSAGE, error, info.componentStack);
  }

  render() {
    return this.state.failed ? <ErrorPageFailure /> : this.props.children;
  }
}
