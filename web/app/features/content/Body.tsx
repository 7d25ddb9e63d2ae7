import { SliceZone } from "@prismicio/react";
import type { Body as BodyField, BodySlice } from "./content-types";
import { sliceComponents } from "./slices";

/** A document's body: its slices in order. Unknown slice types render nothing. */
/** Slice types this site does not know are left out, in development too. */
function UnknownSlice() {
  return null;
}

export interface BodyContext {
  /** The first slice, when it is a hero, carries the page's h1. */
  leadHeroIsPageHeading?: boolean;
}

export function Body({ slices, context = {} }: { slices: readonly BodySlice[] | null | undefined; context?: BodyContext }) {
  if (!slices?.length) return null;
  return (
    <div className="body">
      <SliceZone slices={slices as BodyField} components={sliceComponents} defaultComponent={UnknownSlice} context={context} />
    </div>
  );
}
