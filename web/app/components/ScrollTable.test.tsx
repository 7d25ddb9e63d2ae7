import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ScrollTable } from "./ScrollTable";

const body = (
  <tbody>
    <tr>
      <td>1851</td>
    </tr>
  </tbody>
);

describe("ScrollTable", () => {
  it("is a labelled region the keyboard can reach, with the label as the table's hidden caption", () => {
    const html = renderToStaticMarkup(
      <ScrollTable label="Files waiting" className="wrap" tableClassName="table">
        {body}
      </ScrollTable>,
    );
    expect(html).toBe(
      '<div class="wrap" role="region" aria-label="Files waiting" tabindex="0"><table class="table"><caption class="visually-hidden">Files waiting</caption><tbody><tr><td>1851</td></tr></tbody></table></div>',
    );
  });
  it("takes a caption of its own", () => {
    const html = renderToStaticMarkup(
      <ScrollTable label="Audit entries" caption="Audit entries, newest first" className="wrap" tableClassName="table">
        {body}
      </ScrollTable>,
    );
    expect(html).toContain('aria-label="Audit entries"');
    expect(html).toContain('<caption class="visually-hidden">Audit entries, newest first</caption>');
  });
  it("draws the head from columns and can show its caption", () => {
    const html = renderToStaticMarkup(
      <ScrollTable label="Rows with errors" captionShown columns={["Line", "Problem"]} className="wrap" tableClassName="table">
        {body}
      </ScrollTable>,
    );
    expect(html).toBe(
      '<div class="wrap" role="region" aria-label="Rows with errors" tabindex="0"><table class="table"><caption>Rows with errors</caption><thead><tr><th scope="col">Line</th><th scope="col">Problem</th></tr></thead><tbody><tr><td>1851</td></tr></tbody></table></div>',
    );
  });
});
