import { Link, NavLink } from "react-router";
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

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="site-header__brand">
          <span className="site-header__name">{SITE_NAME}</span>
          <span className="site-header__tagline">{SITE_TAGLINE}</span>
        </Link>
        <nav aria-label="Main" className="site-nav">
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
        <AccountNav />
      </div>
    </header>
  );
}
