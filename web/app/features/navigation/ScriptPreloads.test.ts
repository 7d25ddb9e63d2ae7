import { describe, expect, it } from "vitest";
import type { UNSAFE_AssetsManifest } from "react-router";
import { pageScripts } from "./ScriptPreloads";

const route = (id: string, parts: Record<string, unknown>) => ({ id, path: "", hasAction: false, hasLoader: true, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: true, ...parts });

const manifest = {
  entry: { module: "/assets/entry.client.js", imports: ["/assets/framework.js"] },
  routes: {
    root: route("root", { module: "/assets/root.js", imports: ["/assets/framework.js", "/assets/shell.js"] }),
    "routes/home": route("routes/home", { module: "/assets/home.js", imports: ["/assets/shell.js", "/assets/RichText.js"] }),
    "routes/events": route("routes/events", {
      module: "/assets/events.js",
      clientLoaderModule: "/assets/events-loader.js",
      hydrateFallbackModule: "/assets/events-fallback.js",
      imports: ["/assets/RichText.js"],
    }),
  },
  url: "/assets/manifest.js",
  version: "1",
} as unknown as UNSAFE_AssetsManifest;

describe("pageScripts", () => {
  it("lists the entry, then each matched route's module and imports, each once", () => {
    expect(pageScripts(manifest, ["root", "routes/home"])).toEqual([
      "/assets/entry.client.js",
      "/assets/framework.js",
      "/assets/root.js",
      "/assets/shell.js",
      "/assets/home.js",
      "/assets/RichText.js",
    ]);
  });

  it("includes a route's split client modules, as React Router preloads them", () => {
    expect(pageScripts(manifest, ["root", "routes/events"])).toEqual([
      "/assets/entry.client.js",
      "/assets/framework.js",
      "/assets/root.js",
      "/assets/shell.js",
      "/assets/events.js",
      "/assets/events-loader.js",
      "/assets/events-fallback.js",
      "/assets/RichText.js",
    ]);
  });

  it("skips a route the manifest does not know", () => {
    expect(pageScripts(manifest, ["root", "routes/gone"])).toEqual(["/assets/entry.client.js", "/assets/framework.js", "/assets/root.js", "/assets/shell.js"]);
  });
});
