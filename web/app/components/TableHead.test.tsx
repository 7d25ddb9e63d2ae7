import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TableHead } from "./TableHead";

describe("TableHead", () => {
  it("is one row of column headers, in the order given", () => {
    expect(renderToStaticMarkup(<TableHead columns={["When", "Who", "What"]} />)).toBe(
      '<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th></tr></thead>',
    );
  });
});
