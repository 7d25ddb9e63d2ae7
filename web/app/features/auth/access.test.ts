import { describe, expect, it } from "vitest";
import { accessLevelOf, accessRedirect, signInAsPath, signInPath } from "./access";
import { buildRouteTree, memoRouteAccess, routeAccess, type BuildRoute } from "./route-access.server";
import { tokenStatus } from "./token-status";
import { parseCookieHeader, parseSetCookie, serializeCookie } from "./cookies";

describe("accessLevelOf", () => {
  it("defaults to sign-in required", () => {
    expect(accessLevelOf([])).toBe("required");
    expect(accessLevelOf([undefined, { layout: "wide" }])).toBe("required");
  });
  it("takes the deepest declaration", () => {
    expect(accessLevelOf([{ auth: false }])).toBe("public");
    expect(accessLevelOf([{ auth: false }, { auth: "guest" }])).toBe("guest");
    expect(accessLevelOf([{ auth: "guest" }, { auth: true }])).toBe("required");
    expect(accessLevelOf([{ auth: false }, { layout: "wide" }])).toBe("public");
  });
});

describe("accessRedirect", () => {
  it("sends signed-out visitors of protected pages to sign-in with the wanted path", () => {
    expect(accessRedirect("required", false, "/user-account?tab=lists")).toBe("/sign-in?redirect=%2Fuser-account%3Ftab%3Dlists");
  });
  it("sends signed-in users away from guest pages", () => {
    expect(accessRedirect("guest", true, "/sign-in")).toBe("/");
  });
  it("lets everyone else through", () => {
    expect(accessRedirect("required", true, "/user-account")).toBeNull();
    expect(accessRedirect("guest", false, "/register")).toBeNull();
    expect(accessRedirect("public", false, "/news")).toBeNull();
    expect(accessRedirect("public", true, "/news")).toBeNull();
  });
  it("drops a wanted path that is not a valid place to return to", () => {
    expect(signInPath("//evil.example")).toBe("/sign-in");
    expect(signInPath("/")).toBe("/sign-in");
    expect(signInPath(null)).toBe("/sign-in");
  });
  it("fills in the email address on the sign-in page when there is one", () => {
    expect(signInAsPath("ada+trees@example.org")).toBe("/sign-in?email=ada%2Btrees%40example.org");
    expect(signInAsPath("")).toBe("/sign-in");
  });
});

describe("routeAccess", () => {
  const mod = (handle?: unknown, component = true) => ({ handle, default: component ? () => null : undefined });
  const routes: Record<string, BuildRoute> = {
    root: { id: "root", path: "", module: mod() },
    "routes/home": { id: "routes/home", parentId: "root", index: true, module: mod({ layout: "wide", auth: false }) },
    "routes/news-item": { id: "routes/news-item", parentId: "root", path: "news/:slug", module: mod({ auth: false }) },
    "routes/sign-in": { id: "routes/sign-in", parentId: "root", path: "sign-in", module: mod({ auth: "guest" }) },
    "routes/user-account": { id: "routes/user-account", parentId: "root", path: "user-account", module: mod() },
    "routes/featured": { id: "routes/featured", parentId: "root", path: "education/learning-hub/featured/:slug?", module: mod({ auth: false }) },
    "routes/sitemap": { id: "routes/sitemap", parentId: "root", path: "sitemap.xml", module: mod({ auth: false }, false) },
    "routes/content-page": { id: "routes/content-page", parentId: "root", path: ":s1/:s2?", module: mod({ auth: false }) },
    "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*", module: mod({ auth: false }) },
  };
  const tree = buildRouteTree(routes);
  it.each([
    ["/", "public", false],
    ["/news/x", "public", false],
    ["/sign-in", "guest", false],
    ["/user-account", "required", false],
    ["/user-account/", "required", false],
    ["/education/learning-hub/featured", "public", false],
    ["/education/learning-hub/featured/x", "public", false],
    ["/sitemap.xml", "public", true],
    ["/about/us", "public", false],
    ["/a/b/c/d", "public", false],
  ])("%s is %s", (path, level, resource) => {
    expect(routeAccess(tree, path)).toEqual({ level, resource });
  });

  it("is matched once per path when memoised, within a bound", () => {
    const access = memoRouteAccess(tree, 2);
    const first = access("/user-account");
    expect(first).toEqual({ level: "required", resource: false });
    expect(access("/user-account")).toBe(first); // the remembered answer, not a new match
    access("/news/a");
    access("/news/b"); // the bound drops /user-account, the least recently used
    const again = access("/user-account");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe("tokenStatus", () => {
  const exp = 1_000_000;
  it("is unknown without an expiry", () => {
    expect(tokenStatus(null, 0)).toBe("unknown");
    expect(tokenStatus(Number("x"), 0)).toBe("unknown");
  });
  it("expires 500 ms early", () => {
    expect(tokenStatus(exp, exp - 501)).toBe("valid");
    expect(tokenStatus(exp, exp - 500)).toBe("expired");
    expect(tokenStatus(exp, exp + 1)).toBe("expired");
  });
});

describe("cookies", () => {
  it("parses a Cookie header", () => {
    expect([...parseCookieHeader('a=1; b="2"; a=3; junk; =x')]).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });
  it("reads Set-Cookie removal", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseSetCookie("a=1; Path=/; Max-Age=7200", now)).toEqual({ name: "a", value: "1", removed: false });
    expect(parseSetCookie("a=; Path=/; Max-Age=0", now)?.removed).toBe(true);
    expect(parseSetCookie("a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT", now)?.removed).toBe(true);
    expect(parseSetCookie("nonsense", now)).toBeNull();
  });
  it("writes cookies with an expiry in days", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(serializeCookie("auth.x", "a b", { expiresDays: 1, secure: true }, now)).toBe(
      "auth.x=a%20b; Path=/; Expires=Fri, 02 Jan 2026 00:00:00 GMT; HttpOnly; SameSite=Lax; Secure",
    );
  });
});
