import { describe, expect, it } from "vitest";
import {
  canvases,
  confinedImageUrl,
  confinedSize,
  firstPagePreview,
  labelText,
  manifestSummary,
  manifestTitle,
  metadataPairs,
  pageLabels,
  pagePreview,
} from "./manifest";

const BASE = "https://lineage.example/iiif/3";

function canvas(n: number, { label, width = 6000, height = 4000, service = true }: { label?: unknown; width?: number; height?: number; service?: boolean } = {}) {
  const id = `${BASE}/manifests/register/canvas/${n}`;
  return {
    id,
    type: "Canvas",
    ...(label === undefined ? { label: { none: [`p. ${n}`] } } : label === null ? {} : { label }),
    width,
    height,
    items: [
      {
        id: `${id}/page`,
        type: "AnnotationPage",
        items: [
          {
            id: `${id}/annotation`,
            type: "Annotation",
            motivation: "painting",
            body: {
              id: `${BASE}/register-p${n}/full/max/0/default.jpg`,
              type: "Image",
              format: "image/jpeg",
              width,
              height,
              ...(service ? { service: [{ id: `${BASE}/register-p${n}`, type: "ImageService3", profile: "level2" }] } : {}),
            },
            target: id,
          },
        ],
      },
    ],
  };
}

const manifest = {
  "@context": "http://iiif.io/api/presentation/3/context.json",
  id: `${BASE}/manifests/register`,
  type: "Manifest",
  label: { en: ["Baptism register, 1851"] },
  summary: { en: ["Baptisms of the parish, <b>1851</b>."] },
  metadata: [
    { label: { en: ["Date"] }, value: { none: ["1851"] } },
    { label: { en: ["Place"] }, value: { en: ["St Mary, Islington"] } },
    { label: { en: ["Empty"] }, value: { en: [] } },
    "not a pair",
  ],
  requiredStatement: { label: { en: ["Attribution"] }, value: { en: ["Lineage Society"] } },
  items: [canvas(1), canvas(2, { label: { en: ["Back"] } }), canvas(3, { label: null })],
};

describe("labelText", () => {
  it("prefers English, then none, then the first language", () => {
    expect(labelText({ fr: ["Registre"], en: ["Register"] })).toBe("Register");
    expect(labelText({ fr: ["Registre"], "en-GB": ["Register"] })).toBe("Register");
    expect(labelText({ fr: ["Registre"], none: ["p. 1"] })).toBe("p. 1");
    expect(labelText({ fr: ["Registre"], de: ["Register"] })).toBe("Registre");
  });
  it("joins several values and strips markup", () => {
    expect(labelText({ en: ["One", "<i>Two</i>", "  "] })).toBe("One; Two");
  });
  it("reads absent and malformed maps as empty", () => {
    for (const bad of [undefined, null, 3, [], {}, { en: [1, 2] }, { en: null }]) expect(labelText(bad)).toBe("");
    // Lenient with single values and Presentation 2 style plain strings.
    expect(labelText({ en: "Not an array" })).toBe("Not an array");
    expect(labelText("  Plain  ")).toBe("Plain");
  });
});

describe("manifest fields", () => {
  it("reads title, summary, page labels and metadata", () => {
    expect(manifestTitle(manifest)).toBe("Baptism register, 1851");
    expect(manifestSummary(manifest)).toBe("Baptisms of the parish, 1851.");
    expect(pageLabels(manifest)).toEqual(["p. 1", "Back", "Page 3"]);
    expect(metadataPairs(manifest)).toEqual([
      { label: "Date", value: "1851" },
      { label: "Place", value: "St Mary, Islington" },
      { label: "Attribution", value: "Lineage Society" },
    ]);
  });
  it("ignores what is not a Canvas and survives malformed manifests", () => {
    expect(canvases({ items: [{ type: "Range" }, canvas(1), null, "x"] })).toHaveLength(1);
    for (const bad of [null, undefined, "manifest", 42, [], { items: "nope" }]) {
      expect(canvases(bad)).toEqual([]);
      expect(pageLabels(bad)).toEqual([]);
      expect(metadataPairs(bad)).toEqual([]);
      expect(manifestTitle(bad)).toBe("");
      expect(firstPagePreview(bad)).toBeNull();
    }
  });
});

describe("the no-JavaScript preview", () => {
  it("confines sizes without enlarging", () => {
    expect(confinedSize(6000, 4000, 1200)).toEqual({ width: 1200, height: 800 });
    expect(confinedSize(4000, 6000, 1200)).toEqual({ width: 800, height: 1200 });
    expect(confinedSize(600, 400, 1200)).toEqual({ width: 600, height: 400 });
    expect(confinedImageUrl(`${BASE}/x/`, 1200)).toBe(`${BASE}/x/full/!1200,1200/0/default.jpg`);
  });
  it("uses the first page's image service", () => {
    expect(firstPagePreview(manifest)).toEqual({
      src: `${BASE}/register-p1/full/!1200,1200/0/default.jpg`,
      href: `${BASE}/register-p1/full/max/0/default.jpg`,
      alt: "Baptism register, 1851, p. 1 (first of 3 pages)",
      width: 1200,
      height: 800,
    });
  });
  it("names a single page without counting", () => {
    const one = { ...manifest, items: [canvas(1, { label: { en: ["Front"] }, width: 3000, height: 5000 })] };
    expect(firstPagePreview(one, "Memorial card")).toMatchObject({ alt: "Memorial card, Front", width: 720, height: 1200 });
  });
  it("falls back to the image itself without a service, and skips canvases without images", () => {
    const empty = { id: "c0", type: "Canvas", items: [] };
    const plain = { ...manifest, items: [empty, canvas(2, { service: false, width: 800, height: 600 })] };
    expect(firstPagePreview(plain)).toEqual({
      src: `${BASE}/register-p2/full/max/0/default.jpg`,
      href: `${BASE}/register-p2/full/max/0/default.jpg`,
      alt: "Baptism register, 1851, p. 2 (first of 2 pages)",
      width: 800,
      height: 600,
    });
  });
  it("takes the default of a Choice", () => {
    const c = canvas(1);
    const anno = c.items[0].items[0] as Record<string, unknown>;
    anno.body = { type: "Choice", items: [anno.body, { id: "other.jpg", type: "Image" }] };
    expect(firstPagePreview({ ...manifest, items: [c] })?.src).toBe(`${BASE}/register-p1/full/!1200,1200/0/default.jpg`);
  });
  it("builds a preview from a page without dimensions", () => {
    expect(pagePreview({ service: "/iiif/3/a", width: null, height: null, label: "p. 1" }, "", 1)).toEqual({
      src: "/iiif/3/a/full/!1200,1200/0/default.jpg",
      href: "/iiif/3/a/full/max/0/default.jpg",
      alt: "Scan, p. 1",
      width: null,
      height: null,
    });
    expect(pagePreview({ service: null, id: null, width: 1, height: 1, label: "p. 1" }, "T", 1)).toBeNull();
  });
});
