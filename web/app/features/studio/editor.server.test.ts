import { describe, expect, it } from "vitest";
import { parsePayload } from "./editor.server";

describe("parsePayload", () => {
  it("reads the editor's document", () => {
    expect(parsePayload('{"revision":3,"uid":"agm","tags":["news",4],"data":{"title":[]}}')).toEqual({ revision: 3, uid: "agm", tags: ["news"], data: { title: [] } });
  });
  it.each([
    [null],
    [""],
    ["{"],
    ["[]"],
    ['{"uid":"a","tags":[],"data":{}}'],
    ['{"revision":"3","tags":[],"data":{}}'],
    ['{"revision":3,"tags":"news","data":{}}'],
    ['{"revision":3,"tags":[],"data":[]}'],
    ['{"revision":3,"tags":[],"data":null}'],
  ])("refuses %j", (raw) => {
    expect(parsePayload(raw)).toBeNull();
  });
  it("treats a uid that is not text as none", () => {
    expect(parsePayload('{"revision":1,"uid":5,"tags":[],"data":{}}')?.uid).toBeNull();
  });
});
