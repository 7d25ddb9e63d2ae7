import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ActionOutcome, ErrorText } from "./Forms";

describe("ActionOutcome", () => {
  it("says nothing before the form is posted", () => {
    expect(renderToStaticMarkup(<ActionOutcome result={undefined} failed="Not removed." className="failed" />)).toBe("");
  });
  it("announces a success message politely", () => {
    const html = renderToStaticMarkup(<ActionOutcome result={{ ok: true, message: "Removed." }} className="failed" />);
    expect(html).toMatch(/^<div role="status" class="[^"]+"><p>Removed.<\/p><\/div>$/);
  });
  it("shows a failure as an alert, with its message or else the fallback", () => {
    expect(renderToStaticMarkup(<ActionOutcome result={{ ok: false, message: "In use." }} failed="Not removed." className="failed" />)).toBe(
      '<p role="alert" class="failed">In use.</p>',
    );
    expect(renderToStaticMarkup(<ActionOutcome result={{ ok: false }} failed="Not removed." className="failed" />)).toBe('<p role="alert" class="failed">Not removed.</p>');
  });
});

describe("ErrorText", () => {
  it("says nothing without errors", () => {
    expect(renderToStaticMarkup(<ErrorText id="q-error" errors={[]} />)).toBe("");
    expect(renderToStaticMarkup(<ErrorText id="q-error" errors={undefined} />)).toBe("");
  });
  it("names the errors as errors, in the forms' style or the class it is given", () => {
    expect(renderToStaticMarkup(<ErrorText id="q-error" errors={["Too short.", "Letters only."]} />)).toMatch(
      /^<p id="q-error" class="[^"]+"><span class="visually-hidden">Error: <\/span>Too short. Letters only.<\/p>$/,
    );
    expect(renderToStaticMarkup(<ErrorText id="q-error" errors={["Too short."]} className="fieldError" />)).toBe(
      '<p id="q-error" class="fieldError"><span class="visually-hidden">Error: </span>Too short.</p>',
    );
  });
});
