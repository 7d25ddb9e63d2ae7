import { Suspense, use } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import type { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { collectPage } from "./whole-page.server";

function Later({ text }: { text: Promise<string> }) {
  return <p>{use(text)}</p>;
}

describe("collectPage", () => {
  test("a page React renders in several writes comes back whole", async () => {
    const list = (
      <ul>
        {Array.from({ length: 400 }, (_, i) => (
          <li key={i}>{`Row ${i} of a long list`}</li>
        ))}
      </ul>
    );
    const html = await new Promise<Buffer>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(list, {
        onShellReady: () => collectPage(pipe).then(resolve, reject),
        onShellError: reject,
      });
    });
    expect(html.byteLength).toBeGreaterThan(2048 * 4); // React writes 2 KB at a time: several writes
    expect(html.toString("utf8")).toBe(renderToString(list));
  });

  test("what a Suspense boundary renders after the shell is in it too", async () => {
    let finish: (s: string) => void = () => {};
    const text = new Promise<string>((r) => (finish = r));
    const html = await new Promise<Buffer>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(
        <div>
          <Suspense fallback={<span>Loading</span>}>
            <Later text={text} />
          </Suspense>
        </div>,
        {
          onShellReady: () => {
            collectPage(pipe).then(resolve, reject);
            finish("Arrived after the shell");
          },
          onShellError: reject,
        },
      );
    });
    expect(html.toString("utf8")).toContain("Arrived after the shell");
  });

  test("a destination destroyed before its end is no page, and does not throw out of the process", async () => {
    const boom = new Error("rendering failed after the shell");
    await expect(
      collectPage((destination: Writable) => {
        destination.write("<p>half a page");
        destination.destroy(boom);
      }),
    ).rejects.toBe(boom);
    await expect(collectPage((destination: Writable) => destination.destroy())).rejects.toThrow(/stopped before its end/);
  });
});
