import type { SliceComponentProps } from "@prismicio/react";
import type { RichTextSlice as RichTextSliceType } from "../content-types";
import { RichText } from "../RichText";

export function RichTextSlice({ slice }: SliceComponentProps<RichTextSliceType>) {
  return (
    <section className="slice slice--rich-text prose">
      <RichText field={slice.primary.content} />
    </section>
  );
}
