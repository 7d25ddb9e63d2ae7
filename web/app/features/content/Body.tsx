import { SliceZone } from "@prismicio/react";
import type { Body as BodyField } from "../../lib/content-types";
import { sliceComponents } from "./slices";

/** A document's body: its slices in order. Unknown slice types render nothing. */
export function Body({ slices }: { slices: BodyField | null | undefined }) {
  if (!slices?.length) return null;
  return (
    <div className="body">
      <SliceZone slices={slices} components={sliceComponents} />
    </div>
  );
}
