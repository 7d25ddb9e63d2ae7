import { describe, expect, it } from "vitest";
import { fromLocalInput, moved, toLocalInput } from "./fields";

describe("timestamps between the form and Prismic", () => {
  it("round-trips a time typed in this computer's time", () => {
    const stored = fromLocalInput("2026-11-26T09:30");
    expect(stored).toMatch(/^2026-11-2[56]T\d{2}:30:00\+0000$/);
    expect(toLocalInput(stored)).toBe("2026-11-26T09:30");
  });
  it("reads Prismic's +0000 form and RFC 3339", () => {
    expect(toLocalInput("2026-11-26T09:30:00+0000")).toBe(toLocalInput("2026-11-26T09:30:00Z"));
  });
  it.each([[""], ["not a time"], [null], [42]])("leaves %j empty", (v) => {
    expect(toLocalInput(v)).toBe("");
  });
  it("stores an empty or bad input as no time", () => {
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("31/12/2026")).toBeNull();
  });
});

describe("moving items", () => {
  it("moves an item up or down and ignores moves past the ends", () => {
    expect(moved(["a", "b", "c"], 2, 1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moved(["a", "b"], 0, -1)).toEqual(["a", "b"]);
    expect(moved(["a", "b"], 1, 2)).toEqual(["a", "b"]);
  });
});
