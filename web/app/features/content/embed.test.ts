import { describe, expect, it } from "vitest";
import { embedPlayerSrc } from "./embed";

describe("embedPlayerSrc", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42"],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://vimeo.com/76979871/abcdef1234", "https://player.vimeo.com/video/76979871?h=abcdef1234"],
    ["https://player.vimeo.com/video/76979871", "https://player.vimeo.com/video/76979871"],
  ])("%s → %s", (input, want) => {
    expect(embedPlayerSrc(input)).toBe(want);
  });

  it.each([null, "", "not a url", "javascript:alert(1)", "https://example.org/video/1", "https://www.youtube.com/watch?v=<script>"])(
    "refuses %s",
    (input) => {
      expect(embedPlayerSrc(input)).toBeNull();
    },
  );
});
