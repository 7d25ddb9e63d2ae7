// What a visitor sees instead of the viewer when an item's scans are for members
// (docs/iiif.md, "Members-only scans": Go answers 401 to the manifest and images, so
// there is nothing to show; this says why and how to get in).
import { Link } from "react-router";
import { signInPath } from "../../lib/auth/access";
import { pagesText } from "./items";
import styles from "./images.module.css";

export interface MembersOnlyProps {
  /** The page to come back to after signing in. */
  returnTo: string;
  pages: number;
  /** Signed in, but the account does not include members-only scans. */
  signedIn: boolean;
}

export function MembersOnly({ returnTo, pages, signedIn }: MembersOnlyProps) {
  return (
    <section className={styles.membersOnly} aria-labelledby="members-only-heading">
      <h2 id="members-only-heading">These scans are for members</h2>
      <p>
        The {pagesText(pages)} of this item can be seen by members of the society only. Members can zoom into every
        page and turn through the whole item.
      </p>
      {signedIn ? (
        <p>
          Your account does not include members-only scans. Please contact the society to become a member.
        </p>
      ) : (
        <>
          <h3>How to join</h3>
          <ol>
            <li>
              <Link to="/register">Create an account</Link> with your email address and a password.
            </li>
            <li>Confirm your address with the link we email to you.</li>
            <li>Sign in: the scans open here, along with the other members-only records.</li>
          </ol>
          <p className={styles.actions}>
            <Link to="/register" className="button button--primary">
              Join the society
            </Link>{" "}
            <Link to={signInPath(returnTo)} className="button">
              Sign in as a member
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
