import { describe, expect, it } from "vitest";
import { newsletterFeedItems } from "./feed";
import { framedHtml } from "./EmailFrame";

describe("newsletterFeedItems", () => {
  it("links each edition's archive page, newest first, with its list and summary", () => {
    const items = newsletterFeedItems(
      [
        { id: 1, list: "news", list_name: "Society news", subject: "Autumn", sent_at: "2026-10-01T09:00:00Z", summary: "Hello" },
        { id: 2, list: "events", list_name: "Events digest", subject: "Winter", sent_at: "2026-12-01T09:00:00Z", summary: "" },
      ],
      "https://lineage.example",
    );
    expect(items).toEqual([
      { id: "2", title: "Winter", url: "https://lineage.example/newsletter/2", date: new Date("2026-12-01T09:00:00Z"), summary: "Events digest" },
      { id: "1", title: "Autumn", url: "https://lineage.example/newsletter/1", date: new Date("2026-10-01T09:00:00Z"), summary: "Society news: Hello" },
    ]);
  });

  it("keeps an edition with an unreadable date, without one", () => {
    const [item] = newsletterFeedItems([{ id: 3, list: "news", list_name: "", subject: "S", sent_at: "soon", summary: "x" }], "https://l.example");
    expect(item!.date).toBeNull();
  });
});

describe("framedHtml", () => {
  it("aims the email's links at the whole window, inside its head", () => {
    expect(framedHtml('<!doctype html><html><head lang="en"><title>x</title></head><body>Hi</body></html>')).toBe(
      '<!doctype html><html><head lang="en"><base target="_top"><title>x</title></head><body>Hi</body></html>',
    );
  });

  it("wraps a fragment in a document of its own (standards mode)", () => {
    expect(framedHtml("<p>Hi</p>")).toBe('<!doctype html><html><head><meta charset="utf-8"><base target="_top"></head><body><p>Hi</p></body></html>');
  });

  it("does not take <header> for <head>", () => {
    expect(framedHtml("<header>x</header>")).toMatch(/^<!doctype html>/);
  });
});
