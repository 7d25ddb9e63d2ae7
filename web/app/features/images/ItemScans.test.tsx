// The server's rendering of the viewer and the "Scans" section: what a browser without
// JavaScript gets (the first page as a plain image), and which of viewer / members-only
// explanation / nothing a section shows. The browser side is e2e/images.test.mjs.
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ImageViewer } from "./ImageViewer";
import { ItemScans } from "./ItemScans";
import type { ScansData } from "./scans";

function render(node: ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const preview = {
  src: "/iiif/3/reg-p001/full/!1200,1200/0/default.jpg",
  href: "/iiif/3/reg-p001/full/max/0/default.jpg",
  alt: "Register, p. 1 (first of 3 pages)",
  width: 1200,
  height: 800,
};
const viewer = {
  manifest: "http://x.test/iiif/3/manifests/reg",
  title: "Register",
  preview,
  pages: ["p. 1", "p. 2", "p. 3"],
  metadata: [],
  summary: "",
  slug: "reg",
  path: "/image-viewer/reg",
};

describe("ImageViewer on the server", () => {
  it("renders the first page as an image linked to the full image, and a hidden viewer element", () => {
    const html = render(<ImageViewer manifest={viewer.manifest} title="Register" preview={preview} pages={viewer.pages} />);
    expect(html).toContain('aria-label="Image viewer: Register"');
    expect(html).toMatch(/<img [^>]*src="\/iiif\/3\/reg-p001\/full\/!1200,1200\/0\/default.jpg"/);
    expect(html).toContain('alt="Register, p. 1 (first of 3 pages)"');
    expect(html).toContain('width="1200"');
    expect(html).toMatch(/<a href="\/iiif\/3\/reg-p001\/full\/max\/0\/default.jpg">Open the full image of the first page<\/a>/);
    expect(html).toContain("The first of 3 pages.");
    expect(html).toMatch(/<div [^>]*class="uv[^"]*"[^>]*hidden=""/);
    expect(html).toContain('data-phase="server"');
    expect(html).toContain('<link rel="stylesheet" href="/uv/uv.css" data-precedence="default"/>');
  });
  it("without a preview, points to the manifest", () => {
    const html = render(<ImageViewer manifest={viewer.manifest} title="Register" />);
    expect(html).not.toContain("<img");
    expect(html).toContain(`<a href="${viewer.manifest}">The item&#x27;s IIIF manifest</a>`);
  });
});

describe("ItemScans", () => {
  const item = (slug: string, allowed: boolean, pages = 1, access = allowed ? "public" : "members") => ({ slug, label: `Item ${slug}`, pages, access, allowed, viewer: `/image-viewer/${slug}` });

  it("shows nothing without scans", () => {
    expect(render(<ItemScans scans={{ items: [], viewer: null, signedIn: false }} returnTo="/r/1" />)).toBe("");
  });
  it("shows the viewer of the first item the visitor may see, and links the others", () => {
    const scans: ScansData = { items: [item("reg", true, 3), item("back", false, 2)], viewer, signedIn: false };
    const html = render(<ItemScans scans={scans} returnTo="/r/1" />);
    expect(html).toContain('<h2 id="item-scans">Scans</h2>');
    expect(html).toContain('aria-label="Image viewer: Register"');
    expect(html).toContain('href="/image-viewer/reg"');
    expect(html).toMatch(/<a href="\/image-viewer\/back"[^>]*>Item back<\/a> \(2 pages, members only\)/);
    expect(html).not.toContain("These scans are for members");
  });
  it("says who may see a refused item of any level", () => {
    const scans: ScansData = { items: [item("reg", true), item("acct", false, 1, "registered"), item("abroad", false, 2, "scopes:member:overseas")], viewer, signedIn: false };
    const html = render(<ItemScans scans={scans} returnTo="/r/1" />);
    expect(html).toMatch(/>Item acct<\/a> \(1 page, free with an account\)/);
    expect(html).toMatch(/>Item abroad<\/a> \(2 pages, overseas members only\)/);
  });
  it("explains how to join when every item is members-only", () => {
    const scans: ScansData = { items: [item("brief", false)], viewer: null, signedIn: false };
    const html = render(<ItemScans scans={scans} returnTo="/research-hub/our-collections/records/7" />);
    expect(html).toContain("These scans are for members");
    expect(html).toContain("The scan of this item can be seen by members");
    expect(html).toContain(`href="/sign-in?redirect=${encodeURIComponent("/research-hub/our-collections/records/7")}"`);
    expect(html).not.toContain("Image viewer:");
  });
  it("tells a signed-in account without the member role where to go instead of offering sign-in", () => {
    const scans: ScansData = { items: [item("brief", false, 2)], viewer: null, signedIn: true };
    const html = render(<ItemScans scans={scans} returnTo="/r/1" />);
    expect(html).toContain("The 2 pages of this item");
    expect(html).toContain("Your account does not include members-only scans");
    expect(html).not.toContain("Sign in as a member");
  });
});
