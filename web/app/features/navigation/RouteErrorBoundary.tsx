import { useEffect } from "react";
import { useRouteError } from "react-router";
import { handleChunkError } from "./chunk-reload";
import { ErrorPage, ErrorPageGuard } from "../../components/ErrorPage";

/** The ErrorBoundary of every data route: the error page inside the site layout. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  useEffect(() => {
    handleChunkError(error);
  }, [error]);
  return (
    <ErrorPageGuard>
      <ErrorPage error={error} />
    </ErrorPageGuard>
  );
}
