import { describe, expect, it } from "vitest";
import {
  isImageItem,
  isItemSlug,
  itemApiPath,
  itemPageLabels,
  itemPreview,
  listApiPath,
  manifestPath,
  accessLabel,
  restricted,
  pagesText,
  personTarget,
  viewerPath,
  type ImageItem,
} from "./items";

const item: ImageItem = {
  slug: "memorial-cards-c000001",
  label: "Memorial card of Mary Smith, 1893",
  collection: { slug: "memorial-cards", title: "Memorial cards" },
  target: { type: "record", id: 42, key: "C000001" },
  access: "public",
  allowed: true,
  pages: 2,
  viewer: "/image-viewer/memorial-cards-c000001",
  manifest: "https://lineage.example/iiif/3/manifests/memorial-cards-c000001",
  manifest_path: "/iiif/3/manifests/memorial-cards-c000001",
  thumbnail: "/iiif/3/memorial-cards-c000001-p001/full/!400,400/0/default.jpg",
  images: [
    { id: "memorial-cards-c000001-p002", page: 2, label: "", width: 6000, height: 4000, service: "/iiif/3/memorial-cards-c000001-p002" },
    { id: "memorial-cards-c000001-p001", page: 1, label: "Front", width: 4000, height: 6000, service: "/iiif/3/memorial-cards-c000001-p001" },
  ],
};

describe("slugs and paths", () => {
  it("accepts item slugs and refuses anything else", () => {
    for (const good of ["a", "demo-register-1851", "memorial-cards-c000001", "x".repeat(200)]) expect(isItemSlug(good), good).toBe(true);
    for (const bad of [undefined, null, "", "-a", "a-", "A", "a_b", "a/b", "a.b", "..", "a%2Fb", "é", "x".repeat(201), " a"]) {
      expect(isItemSlug(bad), String(bad)).toBe(false);
    }
  });
  it("builds the viewer, manifest and API paths", () => {
    expect(viewerPath("demo-register-1851")).toBe("/image-viewer/demo-register-1851");
    expect(manifestPath("demo-register-1851")).toBe("/iiif/3/manifests/demo-register-1851");
    expect(itemApiPath("demo-register-1851")).toBe("/api/images/demo-register-1851");
    expect(listApiPath()).toBe("/api/images");
    expect(listApiPath({ record: 42 })).toBe("/api/images?record=42");
    expect(listApiPath({ collection: "memorial-cards", after: "abc=&x", limit: 20 })).toBe("/api/images?collection=memorial-cards&limit=20&after=abc%3D%26x");
    expect(listApiPath({ record: "", collection: null, after: null })).toBe("/api/images");
    expect(listApiPath({ person: personTarget("ashworth", "@I12@") })).toBe("/api/images?person=ashworth%3AI12");
    expect(personTarget("ashworth", "I12")).toBe("ashworth:I12");
  });
});

describe("items", () => {
  it("recognises the API's item shape", () => {
    expect(isImageItem(item)).toBe(true);
    for (const bad of [null, "x", {}, { ...item, allowed: "yes" }, { ...item, images: null }, { ...item, manifest: 1 }]) {
      expect(isImageItem(bad)).toBe(false);
    }
  });
  it("says members-only and counts pages", () => {
    expect(restricted(item)).toBe(false);
    expect(restricted({ access: "" })).toBe(false);
    // Every level but public keeps the scans behind the members-only path, and so
    // does a level the web app cannot read.
    for (const access of ["members", "registered", "scopes:member:overseas", "scopes:", "everyone"]) {
      expect(restricted({ access })).toBe(true);
    }
    expect(accessLabel({ access: "members" })).toBe("Members only");
    expect(accessLabel({ access: "registered" })).toBe("Free with an account");
    expect(pagesText(1)).toBe("1 page");
    expect(pagesText(3)).toBe("3 pages");
  });
  it("orders pages and labels unlabelled ones", () => {
    expect(itemPageLabels(item)).toEqual(["Front", "Page 2"]);
  });
  it("previews the first page, confined to 1200 pixels, with alt text", () => {
    expect(itemPreview(item)).toEqual({
      src: "/iiif/3/memorial-cards-c000001-p001/full/!1200,1200/0/default.jpg",
      href: "/iiif/3/memorial-cards-c000001-p001/full/max/0/default.jpg",
      alt: "Memorial card of Mary Smith, 1893, Front (first of 2 pages)",
      width: 800,
      height: 1200,
    });
  });
  it("has no preview of scans the visitor may not see", () => {
    expect(itemPreview({ ...item, allowed: false, images: [], thumbnail: null, access: "members" })).toBeNull();
    expect(itemPreview({ ...item, images: [] })).toBeNull();
  });
});
