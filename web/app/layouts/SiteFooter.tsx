import { Link, useLocation } from "react-router";
import { footerOffersSignup, NewsletterSignup } from "../features/newsletter";
import { SITE_NAME, SITE_TAGLINE } from "../lib/seo";
import styles from "./SiteFooter.module.css";

/** The footer's links; `file`: a feed or the site map, not a page, so a plain link. */
const FOOTER_LINKS: { to: string; label: string; file?: true }[] = [
  { to: "/about/organisation/governance", label: "Governance" },
  { to: "/about/organisation/society-policies", label: "Society policies" },
  { to: "/about/organisation/annual-reports-and-agm", label: "Annual reports and AGM" },
  { to: "/feeds/news.xml", label: "News feed (RSS)", file: true },
  { to: "/feeds/news.atom", label: "News feed (Atom)", file: true },
  { to: "/newsletter", label: "Past newsletters" },
  { to: "/sitemap.xml", label: "Site map", file: true },
];

export function SiteFooter() {
  const { pathname } = useLocation();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="site-footer__name">{SITE_NAME}</p>
          <p>{SITE_TAGLINE}</p>
        </div>
        {footerOffersSignup(pathname) ? (
          <div className={styles.signup}>
            <NewsletterSignup idPrefix="footer-newsletter" heading="Get our newsletter" intro={<p>News of the society, new indexes and events, by email.</p>} />
          </div>
        ) : null}
        <nav aria-label="Footer">
          <ul role="list" className="site-footer__links">
            {FOOTER_LINKS.map(({ to, label, file }) => (
              <li key={to}>{file ? <a href={to}>{label}</a> : <Link to={to}>{label}</Link>}</li>
            ))}
          </ul>
        </nav>
        <p className="site-footer__copyright">© {new Date().getFullYear()} {SITE_NAME}</p>
      </div>
    </footer>
  );
}
