// The header's account control: "Sign in" for visitors; for members a menu (a
// <details> disclosure, so it works without JavaScript) with the account pages and
// the sign-out button.
import { useEffect, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { CsrfField } from "../../components/forms/Forms";
import { signInPath } from "./access";
import { hasScope } from "./user";
import { useAuth } from "./useAuth";
import styles from "./AccountNav.module.css";

/** Pages of the sign-in flow: the header's sign-in link does not send visitors back to them. */
const AUTH_PAGES = /^\/(sign-in|sign-out|register|verify-email|forgot-password|reset-password|login-required|veryconnect-auth)(\/|$)/;

/** Every member's pages in the menu; the staff's follow by scope. */
const ACCOUNT_PAGES: { to: string; label: string }[] = [
  { to: "/user-account", label: "Profile and settings" },
  { to: "/user-account/membership", label: "Membership" },
  { to: "/user-account/bookings", label: "Event bookings" },
  { to: "/user-account#bookmarks", label: "Bookmarks" },
  { to: "/user-account#reading-lists", label: "Reading lists" },
  { to: "/user-account#saved-searches", label: "Saved searches" },
];

export function AccountNav() {
  const auth = useAuth();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);

  // Close the menu when the page changes.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.key]);

  if (!auth.loggedIn || !auth.user) {
    const here = location.pathname + location.search;
    const to = AUTH_PAGES.test(location.pathname) ? "/sign-in" : signInPath(here);
    return (
      <Link to={to} className={styles.signIn}>
        Sign in
      </Link>
    );
  }

  const onKeyDown = (event: React.KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key === "Escape" && menu.current?.open) {
      menu.current.open = false;
      menu.current.querySelector("summary")?.focus();
    }
  };

  return (
    <details ref={menu} className={styles.menu} onKeyDown={onKeyDown}>
      <summary className={styles.summary}>Your account</summary>
      <div className={styles.panel}>
        <p className={styles.who}>
          Signed in as <strong>{auth.user.name}</strong>
        </p>
        <ul className={styles.links}>
          {ACCOUNT_PAGES.map(({ to, label }) => (
            <li key={to}>
              <Link to={to}>{label}</Link>
            </li>
          ))}
          {hasScope(auth.user, "editor") || hasScope(auth.user, "admin") ? (
            <li>
              <Link to="/studio">Studio (editors)</Link>
            </li>
          ) : null}
          {auth.user.role === "admin" || hasScope(auth.user, "admin") ? (
            <li>
              <Link to="/admin/members">Members (admin)</Link>
            </li>
          ) : null}
        </ul>
        <Form method="post" action="/sign-out">
          <CsrfField />
          <button type="submit" className={`button ${styles.signOut}`} disabled={auth.busy}>
            {auth.busy ? "Signing out…" : "Sign out"}
          </button>
        </Form>
      </div>
    </details>
  );
}
