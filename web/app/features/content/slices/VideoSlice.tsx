import type { SliceComponentProps } from "@prismicio/react";
import type { VideoSlice as VideoSliceType } from "../content-types";
import { Embed } from "../Embed";

export function VideoSlice({ slice }: SliceComponentProps<VideoSliceType>) {
  const { title, video } = slice.primary;
  return (
    <section className="slice slice--video">
      {title ? <h2>{title}</h2> : null}
      <Embed oembed={video} title={title} />
    </section>
  );
}
