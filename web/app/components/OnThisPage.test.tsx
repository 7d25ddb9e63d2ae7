import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OnThisPage } from "./OnThisPage";

describe("OnThisPage", () => {
  it("is a named navigation landmark listing the page's sections, in order", () => {
    const html = renderToStaticMarkup(
      <OnThisPage
        className="contents"
        links={[
          { href: "#past", label: "Past events" },
          { href: "#calendar", label: "Calendar" },
        ]}
      />,
    );
    expect(html).toBe(
      '<nav aria-label="On this page" class="contents"><ul role="list"><li><a href="#past">Past events</a></li><li><a href="#calendar">Calendar</a></li></ul></nav>',
    );
  });
});
