import { describe, expect, it } from "vitest";
import { controlId, errorsAt, errorsUnclaimed, errorsUnder, nearestControl } from "./errors";

const errors = {
  "data.title": ["Title is required before publishing."],
  "data.body.2.primary.image.alt": ["Describe the picture for people who cannot see it."],
  "data.body.2.primary.title.0.spans.1.data.id": ["That document no longer exists."],
  "data.bodyish": ["Not a child of data.body."],
};

describe("error paths", () => {
  it("finds messages at a path and under it", () => {
    expect(errorsAt(errors, "data.title")).toEqual(["Title is required before publishing."]);
    expect(errorsAt(errors, "data.body")).toEqual([]);
    expect(errorsUnder(errors, "data.body")).toHaveLength(2);
    expect(errorsUnder(undefined, "data")).toEqual([]);
  });
  it("leaves messages that a drawn child field shows to that field", () => {
    expect(errorsUnclaimed(errors, "data.body.2", ["data.body.2.primary.image"])).toEqual(["That document no longer exists."]);
  });
  it("links a message to the nearest drawn control", () => {
    const drawn = new Set([controlId("data.body.2.primary.title"), controlId("data.title")]);
    expect(nearestControl("data.body.2.primary.title.0.spans.1.data.id", (id) => drawn.has(id))).toBe("doc-data-body-2-primary-title");
    expect(nearestControl("uid", (id) => drawn.has(id))).toBeNull();
  });
});
