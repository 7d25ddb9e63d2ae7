import { describe, expect, it } from "vitest";
import { errorPageFailureHtml } from "./error-fallback";

describe("errorPageFailureHtml", () => {
  it("says what happened and links home, without scripts", () => {
    const html = errorPageFailureHtml();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>An error occurred while showing the error page</h1>");
    expect(html).toContain('<a href="/">Go back to home</a>');
    expect(html).not.toContain("<script");
  });
});
