import { describe, expect, it } from "vitest";
import type { UIMatch } from "react-router";
import { layoutNameFor, pageHydrates } from "./layouts";

const match = (handle: unknown) => ({ id: "x", pathname: "/", params: {}, loaderData: undefined, handle }) as unknown as UIMatch;

describe("layoutNameFor", () => {
  it("defaults to the default layout", () => {
    expect(layoutNameFor([match(undefined), match({})])).toBe("default");
  });
  it("takes the deepest route's choice", () => {
    expect(layoutNameFor([match({ layout: "wide" }), match({ layout: "default" })])).toBe("default");
    expect(layoutNameFor([match({}), match({ layout: "wide" })])).toBe("wide");
  });
  it("ignores unknown layouts", () => {
    expect(layoutNameFor([match({ layout: "nope" })])).toBe("default");
  });
});

describe("pageHydrates", () => {
  it("sends the scripts unless a matched route says hydrate: false", () => {
    expect(pageHydrates([match(undefined), match({ layout: "wide" })])).toBe(true);
    expect(pageHydrates([match(undefined), match({ layout: "wide", hydrate: false })])).toBe(false);
    expect(pageHydrates([match({ hydrate: false }), match({})])).toBe(false);
  });
});
