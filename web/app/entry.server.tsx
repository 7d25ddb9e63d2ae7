// Server rendering: React Router's default Node entry (bots wait for all content),
// with two changes. The page is answered whole, one body with its length, not
// streamed (lib/whole-page.server.ts says why). And when rendering the error page
// itself fails, the answer is a static "An error occurred while showing the error
// page" page instead of a bare 500. Previews and pages drawn without some of their
// content are marked for no shared cache.
import type { EntryContext, HandleDataRequestFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { drawnWithoutContent, isPreviewRequest } from "./features/content/content.server";
import { errorPageFailureHtml } from "./lib/error-fallback";
import { collectPage } from "./lib/whole-page.server";
import { NonceContext, nonceFromRequest } from "./lib/nonce";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // Pages showing draft content must never be stored by a shared cache.
  if (isPreviewRequest(request)) responseHeaders.set("Cache-Control", "private, no-store");
  // Nor a page drawn while the content service failed, once it answers again.
  else if (drawnWithoutContent(loadContext)) responseHeaders.set("Cache-Control", "no-store");

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
        // The status as the shell left it: an error inside a Suspense boundary later
        // is React's to recover from in the browser, as when the page was streamed.
        const status = responseStatusCode;
        collectPage(pipe).then(
          (html) => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            responseHeaders.set("Content-Type", "text/html");
            responseHeaders.set("Content-Length", String(html.byteLength));
            resolve(new Response(html, { headers: responseHeaders, status }));
          },
          (error: unknown) => {
            clearTimeout(timeoutId);
            reject(error);
          },
        );
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

// The data of a client-side navigation: likewise not kept when drawn without some content.
export const handleDataRequest: HandleDataRequestFunction = (response, { context }) => {
  if (drawnWithoutContent(context)) response.headers.set("Cache-Control", "no-store");
  return response;
};
