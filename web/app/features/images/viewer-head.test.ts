import { describe, expect, it } from "vitest";
import type { UIMatch } from "react-router";
import { pageShowsViewer, type ViewerHandle } from "./viewer-head";

const match = (handle: unknown, loaderData: unknown): UIMatch => ({ id: "r", pathname: "/", params: {}, handle, loaderData });
const viewerPage: ViewerHandle<{ viewer: object | null }> = { showsViewer: (d) => d.viewer !== null };

describe("pageShowsViewer", () => {
  it("is true only when a matched route's handle says its data shows a viewer", () => {
    expect(pageShowsViewer([match(undefined, {}), match(viewerPage, { viewer: {} })])).toBe(true);
    expect(pageShowsViewer([match(undefined, {}), match(viewerPage, { viewer: null })])).toBe(false);
  });

  it("is false for pages whose routes say nothing, and while a route's data is missing (an error page)", () => {
    expect(pageShowsViewer([match(undefined, {}), match({ layout: "wide" }, { viewer: {} })])).toBe(false);
    expect(pageShowsViewer([match(undefined, {}), match(viewerPage, undefined)])).toBe(false);
  });
});
