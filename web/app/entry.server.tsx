// Server rendering: React Router's default Node entry (streaming, bots wait
// for all content), plus one addition: when rendering the error page itself
// fails, answer with a static "An error occurred while showing the error page"
// page instead of a bare 500.
import { PassThrough } from "node:stream";
import type { EntryContext, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { isPreviewRequest } from "./features/content/content.server";
import { errorPageFailureHtml } from "./lib/error-fallback";
import { NonceContext, nonceFromRequest } from "./lib/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // Pages showing draft content must never be stored by a shared cache.
  if (isPreviewRequest(request)) responseHeaders.set("Cache-Control", "private, no-store");

  // React Router renders a second time, with the error in context, when the
  // first render throws; a failure then means the error page itself failed.
  const renderingErrorPage = Boolean(routerContext.staticHandlerContext.errors);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const nonce = nonceFromRequest(request);
    const app = (
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        pipe(body);
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        if (!renderingErrorPage) {
          reject(error);
          return;
        }
        console.error("An error occurred while showing the error page", error);
        resolve(
          new Response(errorPageFailureHtml(), {
            status: 500,
            headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
          }),
        );
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
  });
}
