// A "Scans" section for pages about one thing with scans (a record, a memorial card):
// the first item the visitor may see in the viewer, links to the others, and for
// members-only scans the visitor may not see, how to join. Its data comes from
// loadRecordScans (images.server.ts). docs/web.md, "Image viewer".
import { Link } from "react-router";
import { ImageViewer } from "./ImageViewer";
import { MembersOnly } from "./MembersOnly";
import { accessLabel, pagesText } from "./items";
import type { ScansData } from "./scans";

export interface ItemScansProps {
  scans: ScansData;
  /** This page's path, where signing in comes back to. */
  returnTo: string;
  /** The section's heading text (default "Scans"). */
  heading?: string;
}

export function ItemScans({ scans, returnTo, heading = "Scans" }: ItemScansProps) {
  const { items, viewer, signedIn } = scans;
  if (items.length === 0) return null;
  const shown = viewer ? items.find((i) => i.slug === viewer.slug) : undefined;
  const others = items.filter((i) => i !== shown);
  const refused = items.find((i) => !i.allowed);
  return (
    <section aria-labelledby="item-scans">
      <h2 id="item-scans">{heading}</h2>
      {viewer ? (
        <>
          <ImageViewer key={viewer.manifest} manifest={viewer.manifest} title={viewer.title} preview={viewer.preview} pages={viewer.pages} />
          <p>
            <Link to={viewer.path}>Open “{viewer.title}” in the image viewer</Link>
          </p>
        </>
      ) : refused ? (
        <MembersOnly returnTo={returnTo} pages={refused.pages} signedIn={signedIn} headingLevel={3} />
      ) : null}
      {others.length ? (
        <ul>
          {others.map((item) => (
            <li key={item.slug}>
              <Link to={item.viewer}>{item.label}</Link> {`(${pagesText(item.pages)}${item.allowed ? "" : `, ${accessLabel(item).toLowerCase()}`})`}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
