import { useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { AccountNav } from "../features/auth/AccountNav";
import { SITE_NAME, SITE_TAGLINE } from "../lib/seo";

// Only areas whose pages exist.
export const MAIN_NAVIGATION: { to: string; label: string }[] = [
  { to: "/research-hub/our-collections", label: "Research hub" },
  { to: "/news", label: "News" },
  { to: "/sog-events", label: "Events" },
  { to: "/education", label: "Education" },
  { to: "/learn/guides", label: "Guides" },
  { to: "/about/organisation/governance", label: "About us" },
];

export const SITE_NAV_ID = "site-nav";

/**
 * The site header. On narrow screens the main navigation folds behind a "Menu"
 * control (styles: .site-menu-toggle, .site-nav in app.css). The server renders
 * that control as a link to #site-nav, which CSS opens with :target, so the
 * navigation is reachable without JavaScript; once hydrated it becomes a
 * disclosure button (aria-expanded, aria-controls) that Escape closes,
 * returning focus to it. On wide screens the control is hidden and the
 * navigation always shown.
 */
export function SiteHeader() {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // The first client render matches the server's (link); the button replaces it after hydration.
  useEffect(() => setEnhanced(true), []);
  // A followed link closes the menu.
  useEffect(() => setOpen(false), [location.key]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape" && open) {
      setOpen(false);
      toggle.current?.focus();
    }
  };

  return (
    <header className="site-header" onKeyDown={onKeyDown}>
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand">
          <span className="site-header__name">{SITE_NAME}</span>
          <span className="site-header__tagline">{SITE_TAGLINE}</span>
        </Link>
        {enhanced ? (
          <button
            ref={toggle}
            type="button"
            className="site-menu-toggle"
            aria-expanded={open}
            aria-controls={SITE_NAV_ID}
            onClick={() => setOpen((was) => !was)}
          >
            <MenuIcon />
            Menu
          </button>
        ) : (
          <a href={`#${SITE_NAV_ID}`} className="site-menu-toggle">
            <MenuIcon />
            Menu
          </a>
        )}
        <nav id={SITE_NAV_ID} aria-label="Main" className={open ? "site-nav is-open" : enhanced ? "site-nav is-closed" : "site-nav"}>
          <ul role="list" className="site-nav__list">
            {MAIN_NAVIGATION.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="site-nav__link" prefetch="intent">
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header__account">
          <AccountNav />
        </div>
      </div>
    </header>
  );
}

function MenuIcon() {
  return (
    <svg className="site-menu-toggle__icon" aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 20 20">
      <path d="M2 4h16M2 10h16M2 16h16" stroke="currentColor" strokeWidth="2.5" fill="none" />
    </svg>
  );
}
