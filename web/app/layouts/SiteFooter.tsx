import { Link, useLocation } from "react-router";
import { footerOffersSignup, NewsletterSignup } from "../features/newsletter";
import { SITE_NAME, SITE_TAGLINE } from "../lib/seo";
import styles from "./SiteFooter.module.css";

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
            <li>
              <Link to="/about/organisation/governance">Governance</Link>
            </li>
            <li>
              <Link to="/about/organisation/society-policies">Society policies</Link>
            </li>
            <li>
              <Link to="/about/organisation/annual-reports-and-agm">Annual reports and AGM</Link>
            </li>
            <li>
              <a href="/feeds/news.xml">News feed (RSS)</a>
            </li>
            <li>
              <a href="/feeds/news.atom">News feed (Atom)</a>
            </li>
            <li>
              <Link to="/newsletter">Past newsletters</Link>
            </li>
            <li>
              <a href="/sitemap.xml">Site map</a>
            </li>
          </ul>
        </nav>
        <p className="site-footer__copyright">© {new Date().getFullYear()} {SITE_NAME}</p>
      </div>
    </footer>
  );
}
