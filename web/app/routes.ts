import { type RouteConfig, index, route } from "@react-router/dev/routes";

// The site's routes (seed-spec §2). Static routes outrank the catch-all, so
// later issues add their pages (research hub, accounts…) here.
export default [
  index("routes/home.tsx"),
  route("preview", "routes/preview.ts"),

  route("news", "routes/news.tsx"),
  route("news/:slug", "routes/news-item.tsx"),

  route("education", "routes/education.tsx"),
  route("education/learning-hub/featured/:slug?", "routes/featured.tsx"),

  // Documents of the custom type named after the route: list at the root, one at the slug.
  route("fhwuifhe", "routes/custom-type.tsx", { id: "fhwuifhe-list" }),
  route("fhwuifhe/:slug", "routes/custom-type.tsx", { id: "fhwuifhe-item" }),
  route("cwbhvwt/:slug?", "routes/custom-type.tsx", { id: "cwbhvwt" }),
  route("dheyenbvu", "routes/custom-type.tsx", { id: "dheyenbvu-list" }),

  // Events: the list (filters, calendar) without a slug, one event with it.
  // The static join route outranks the slug.
  route("sog-events/join", "routes/events-join.tsx"),
  route("sog-events/:slug?", "routes/events.tsx"),
  // Bookings: the form, Stripe's return, the editors' page; a booking's own page and
  // the emailed links' pages (static "bookings" outranks an event's slug).
  route("sog-events/:slug/book", "routes/events-book.tsx"),
  route("sog-events/:slug/booked", "routes/events-booked.tsx"),
  route("sog-events/:slug/manage", "routes/events-manage.tsx"),
  route("sog-events/bookings/confirm", "routes/bookings-token.tsx", { id: "bookings-confirm" }),
  route("sog-events/bookings/offer", "routes/bookings-token.tsx", { id: "bookings-offer" }),
  route("sog-events/bookings/:ref", "routes/bookings-booking.tsx"),
  route("user-account/bookings", "routes/user-account.bookings.tsx"),

  // Sign-in and accounts. Access levels are in each module's `handle`
  // (features/auth/access.ts): a route that declares none requires sign-in.
  route("sign-in", "routes/sign-in.tsx"),
  route("sign-out", "routes/sign-out.tsx"),
  route("register", "routes/register.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("login-required", "routes/login-required.tsx"),
  route("veryconnect-auth", "routes/veryconnect-auth.tsx"),
  route("bookmarks", "routes/bookmarks.tsx"),
  route("saved-searches", "routes/saved-searches.tsx"),
  route("user-account", "routes/user-account.tsx"),
  route("user-account/data", "routes/user-account.data.ts"),
  route("user-account/delete", "routes/user-account.delete.tsx"),
  route("user-account/reading-lists/:id", "routes/user-account.reading-list.tsx"),

  // Membership: the plans, one plan's join form, the member's membership
  // (Stripe Checkout returns there), and the admins' members pages.
  route("subscribe", "routes/subscribe.tsx"),
  route("subscribe/:slug", "routes/subscribe.plan.tsx"),
  route("user-account/membership", "routes/user-account.membership.tsx"),
  route("admin/members", "routes/admin.members.tsx"),
  // Static segments outrank :id, so "plans" is never taken for a member's id.
  route("admin/members/plans", "routes/admin.plans.tsx"),
  route("admin/members/plans/new", "routes/admin.plan.tsx", { id: "admin-plan-new" }),
  route("admin/members/plans/:slug/edit", "routes/admin.plan.tsx", { id: "admin-plan-edit" }),
  route("admin/members/:id", "routes/admin.member.tsx"),

  // Newsletter: the archive and one edition; sign-up (the action of every
  // sign-up form), confirmation and preferences (from the emails' links); the member's
  // own lists; the editors' editions. The static segments outrank :id.
  route("newsletter", "routes/newsletter.tsx"),
  route("newsletter/subscribe", "routes/newsletter.subscribe.tsx"),
  route("newsletter/confirm", "routes/newsletter.confirm.tsx"),
  route("newsletter/preferences", "routes/newsletter.preferences.tsx"),
  route("newsletter/:id", "routes/newsletter.edition.tsx"),
  route("user-account/newsletter", "routes/user-account.newsletter.tsx"),
  route("admin/newsletter", "routes/admin.newsletter.tsx"),
  route("admin/newsletter/lists", "routes/admin.newsletter-lists.tsx"),
  route("admin/newsletter/:id", "routes/admin.newsletter-edition.tsx"),

  // Research hub: search and explore (advanced and global search), record pages.
  route("research-hub/our-collections/searchexplore", "routes/research-searchexplore.tsx"),
  route("research-hub/our-collections/records/:id", "routes/research-record.tsx"),
  // Research hub collections: the overview and a collection at /:slug; each kind's
  // static route outranks the slug (features/research/collections/model.ts RESERVED_SLUGS).
  route("research-hub/our-collections/memorial-cards/:slug?", "routes/research-memorial-cards.tsx"),
  route("research-hub/our-collections/record-sets/:slug?", "routes/research-record-sets.tsx"),
  route("research-hub/our-collections/indexes/:slug?", "routes/research-indexes.tsx"),
  route("research-hub/our-collections/birth-briefs", "routes/research-birth-briefs.tsx"),
  route("research-hub/our-collections/:slug?", "routes/research-collections.tsx"),

  // Scans: the image explorer without a slug, one item in the Universal Viewer with it.
  route("image-viewer/:slug?", "routes/image-viewer.tsx"),

  // Family trees: the list, a tree (summary, surnames, person search, viewer),
  // a person ("{tree}~{person id}"), pedigree search; a member's uploads (sign-in).
  route("research-hub/our-collections/family-trees", "routes/trees-list.tsx"),
  route("research-hub/our-collections/family-trees/:slug", "routes/trees-tree.tsx"),
  route("research-hub/our-collections/family-trees-record/:slug?", "routes/trees-person.tsx"),
  route("research-hub/our-collections/pedigree-search", "routes/trees-pedigree-search.tsx"),
  route("user-account/trees", "routes/user-account.trees.tsx"),

  // The studio: editors and admins only (routes/studio.tsx says so before any
  // child loads). Its screens are children, shown in its layout with its navigation
  // (features/studio/nav.ts).
  route("studio", "routes/studio.tsx", [
    // Content: writing, releases, pictures (features/studio). Static segments outrank :id.
    index("routes/studio.home.tsx"),
    route("content", "routes/studio.content.tsx"),
    route("content/lookup", "routes/studio.content-lookup.ts"),
    route("content/:id", "routes/studio.content-document.tsx"),
    route("content/:id/history", "routes/studio.content-history.tsx"),
    route("releases", "routes/studio.releases.tsx"),
    route("releases/:id", "routes/studio.release.tsx"),
    route("media", "routes/studio.media.tsx"),
    route("models/:id?", "routes/studio.models.tsx"),
    route("webhooks", "routes/studio.webhooks.tsx"),

    // Staff tools: records, scans, trees, people, audit log.
    route("records", "routes/studio.records.tsx"),
    route("records/:upload", "routes/studio.records-upload.tsx"),
    route("jobs/:id", "routes/studio.job.tsx"),
    route("scans", "routes/studio.scans.tsx"),
    route("trees", "routes/studio.trees.tsx"),
    route("people", "routes/studio.people.tsx"),
    route("audit", "routes/studio.audit.tsx"),

  ]),

  // Resource routes: feeds, sitemap, robots.
  route("feeds/news.xml", "routes/feeds.news-rss.ts"),
  route("feeds/news.atom", "routes/feeds.news-atom.ts"),
  route("feeds/events.ics", "routes/feeds.events-ics.ts"),
  route("feeds/newsletter.xml", "routes/feeds.newsletter-rss.ts"),
  // One event: /feeds/events/{uid}.ics (a segment cannot be part param, part text).
  route("feeds/events/:file", "routes/feeds.event-ics.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  // The Go supervisor's health probe of this server (docs/deployment.md).
  route("ssr-health", "routes/ssr-health.ts"),

  // Content pages of one to six segments, placed by the link resolver.
  route(":s1/:s2?/:s3?/:s4?/:s5?/:s6?", "routes/content-page.tsx"),
  // Anything deeper is not a page.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
