import { expect, test } from "vitest";
import { returnToOf, subscribePath } from "./subscribe";

test("subscribePath carries a valid local return path and drops others", () => {
  expect(subscribePath("/research-hub/our-collections/records/12")).toBe("/subscribe?return_to=%2Fresearch-hub%2Four-collections%2Frecords%2F12");
  expect(subscribePath("/image-viewer/x?page=2", "/subscribe/joint")).toBe("/subscribe/joint?return_to=%2Fimage-viewer%2Fx%3Fpage%3D2");
  expect(subscribePath(null)).toBe("/subscribe");
  expect(subscribePath("https://evil.example/")).toBe("/subscribe");
  expect(subscribePath("//evil.example/")).toBe("/subscribe");
});

test("returnToOf reads ?return_to= only when it is a valid local path", () => {
  expect(returnToOf(new URL("http://x/subscribe?return_to=%2Fnews"))).toBe("/news");
  expect(returnToOf(new URL("http://x/subscribe?return_to=https%3A%2F%2Fevil.example"))).toBeNull();
  expect(returnToOf(new URL("http://x/subscribe"))).toBeNull();
});
