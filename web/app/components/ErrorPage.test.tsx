import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { describeError, ErrorPage } from "./ErrorPage";

/** The value useRouteError() gives for a thrown Response. */
const routeError = (status: number, body = "") => new ErrorResponse(status, "", body);

describe("describeError", () => {
  it("maps 404 to the not-found page", () => {
    expect(describeError(routeError(404)).title).toBe("This page could not be found");
  });
  it("defaults to 500 for thrown errors", () => {
    expect(describeError(new Error("boom"))).toMatchObject({ status: 500, title: "Something went wrong" });
  });
  it("explains a content outage", () => {
    expect(describeError(routeError(503))).toMatchObject({ status: 503, title: "This page is temporarily unavailable" });
  });
});

describe("ErrorPage", () => {
  it("offers a way home", () => {
    const router = createMemoryRouter([{ path: "/", element: <ErrorPage error={new Error("x")} /> }]);
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    expect(html).toContain("Something went wrong");
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Go back to home<\/a>/);
  });
});
