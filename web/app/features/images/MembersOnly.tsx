// What a visitor sees instead of the viewer when an item's scans are for members
// (docs/iiif.md, "Members-only scans": Go answers 401 to the manifest and images, so
// there is nothing to show; this says why and how to get in). The links are the
// research paywall's: "Join or renew" goes to /subscribe and comes back here.
import { Link } from "react-router";
import { signInPath } from "../auth";
import { JOIN_OR_RENEW, subscribePath } from "../membership";
import { pagesText } from "./items";
import styles from "./images.module.css";

export const REGISTER_PATH = "/register";

export interface MembersOnlyProps {
  /** The page to come back to after signing in. */
  returnTo: string;
  pages: number;
  /** Signed in, but the account does not include members-only scans. */
  signedIn: boolean;
  /** The heading's level: 2 on the viewer page, 3 inside a record's "Scans" section. */
  headingLevel?: 2 | 3;
}

export function MembersOnly({ returnTo, pages, signedIn, headingLevel = 2 }: MembersOnlyProps) {
  const join = subscribePath(returnTo);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const id = `members-only-${returnTo.replace(/[^a-z0-9]+/gi, "-")}`;
  return (
    <section className={styles.membersOnly} aria-labelledby={id}>
      <Heading id={id}>These scans are for members</Heading>
      <p>
        {pages === 1 ? "The scan of this item" : `The ${pagesText(pages)} of this item`} can be seen by members of the
        society only. Members can zoom into every page and turn through the whole item, and see the members-only records
        of the research hub.
      </p>
      {signedIn ? (
        <p>
          Your account does not include members-only scans. <Link to={join}>{JOIN_OR_RENEW}</Link> to see them.
        </p>
      ) : (
        <>
          <p>To see them:</p>
          <ol>
            <li>
              <Link to={REGISTER_PATH}>create an account</Link> with your email address, and confirm it with the link we email to
              you;
            </li>
            <li>
              join the society or renew your membership (<Link to={join}>the membership plans</Link>);
            </li>
            <li>sign in, and the scans open here.</li>
          </ol>
          <p className={styles.actions}>
            <Link to={join} className="button button--primary">
              {JOIN_OR_RENEW}
            </Link>
            <Link to={REGISTER_PATH} className="button">
              Create an account
            </Link>
            <Link to={signInPath(returnTo)} className="button">
              Sign in as a member
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
