import { describe, expect, it } from "vitest";
import { toCard } from "./cards";

describe("toCard", () => {
  it("summarises a news item", () => {
    const card = toCard({
      id: "N1",
      uid: "agm",
      type: "news_item",
      data: {
        title: [{ type: "heading1", text: "AGM announced", spans: [] }],
        summary: [{ type: "paragraph", text: "Join us.", spans: [] }],
        date: "2024-05-01",
        image: {},
        body: [{ slice_type: "rich_text" }],
      },
    });
    expect(card).toEqual({
      id: "N1",
      href: "/news/agm",
      title: "AGM announced",
      summary: [{ type: "paragraph", text: "Join us.", spans: [] }],
      date: "2024-05-01",
      image: null,
    });
  });

  it("uses an event's start and location, and falls back to the uid for a title", () => {
    const card = toCard({ id: "E1", uid: "fair", type: "event", data: { title: [], start: "2030-01-01T10:00:00+0000", location: "Hall" } });
    expect(card.title).toBe("fair");
    expect(card.date).toBe("2030-01-01T10:00:00+0000");
    expect(card.location).toBe("Hall");
    expect(card.href).toBe("/sog-events/fair");
  });
});
