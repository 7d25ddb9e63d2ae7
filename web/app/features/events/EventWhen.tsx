import type { TimeRange } from "./london-time";

/** "Wednesday 2 December 2026, 7pm to 8:30pm", each end in a <time> with its London offset. */
export function EventWhen({ when }: { when: TimeRange }) {
  return (
    <>
      <time dateTime={when.start.iso}>{when.start.text}</time>
      {when.end ? (
        <>
          {" to "}
          <time dateTime={when.end.iso}>{when.end.text}</time>
        </>
      ) : null}
    </>
  );
}
