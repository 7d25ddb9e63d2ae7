import { describe, expect, it } from "vitest";
import { autoplaySrc, embedPlayerSrc, localPoster, videoDuration, videoHostName } from "./embed";

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

describe("video facade helpers", () => {
  it("adds autoplay to the player's address", () => {
    expect(autoplaySrc("https://www.youtube-nocookie.com/embed/x?start=42")).toBe("https://www.youtube-nocookie.com/embed/x?start=42&autoplay=1");
    expect(autoplaySrc("https://player.vimeo.com/video/76979871")).toBe("https://player.vimeo.com/video/76979871?autoplay=1");
  });

  it("names the video host", () => {
    expect(videoHostName("Vimeo", "https://player.vimeo.com/video/1")).toBe("Vimeo");
    expect(videoHostName(undefined, "https://www.youtube-nocookie.com/embed/x")).toBe("YouTube");
    expect(videoHostName("", "https://player.vimeo.com/video/1")).toBe("Vimeo");
  });

  it.each([
    [634, "10:34", "PT10M34S", "10 minutes 34 seconds"],
    [3723, "1:02:03", "PT1H2M3S", "1 hour 2 minutes 3 seconds"],
    ["60", "1:00", "PT1M", "1 minute"],
    [59.6, "1:00", "PT1M", "1 minute"],
  ])("formats a duration of %s", (input, text, iso, words) => {
    expect(videoDuration(input)).toEqual({ text, iso, words });
  });

  it.each([undefined, null, 0, -3, "soon", NaN])("has no duration for %s", (input) => {
    expect(videoDuration(input)).toBeNull();
  });

  it("uses only a poster the site serves itself", () => {
    expect(localPoster("/media/lecture.svg")).toBe("/media/lecture.svg");
    expect(localPoster("https://i.ytimg.com/vi/x/hqdefault.jpg")).toBeNull();
    expect(localPoster("//i.ytimg.com/x.jpg")).toBeNull();
    expect(localPoster(undefined)).toBeNull();
  });
});
