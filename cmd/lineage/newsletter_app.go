package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/content"
	"lineage/internal/mail"
	"lineage/internal/newsletter"
	"lineage/internal/pagegen"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// newsletterSettings are the room's LINEAGE_NEWSLETTER_* settings (docs/configuration.md).
type newsletterSettings struct {
	Rate    int           // messages of editions enqueued per minute
	Bounces int           // refusals that suppress an address
	Tick    time.Duration // how often serve's scheduler looks for due work
}

func newsletterSettingsFromEnv(getenv func(string) string) (newsletterSettings, error) {
	ns := newsletterSettings{Rate: newsletter.DefaultRate, Bounces: newsletter.DefaultBounces, Tick: 30 * time.Second}
	if v := getenv("LINEAGE_NEWSLETTER_RATE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return ns, fmt.Errorf("LINEAGE_NEWSLETTER_RATE must be a number of messages per minute, got %q", v)
		}
		ns.Rate = n
	}
	if v := getenv("LINEAGE_NEWSLETTER_BOUNCES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return ns, fmt.Errorf("LINEAGE_NEWSLETTER_BOUNCES must be a number of refusals, got %q", v)
		}
		ns.Bounces = n
	}
	if v := getenv("LINEAGE_NEWSLETTER_TICK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return ns, fmt.Errorf("LINEAGE_NEWSLETTER_TICK must be a duration of at least 1s, got %q", v)
		}
		ns.Tick = d
	}
	return ns, nil
}

// newNewsletter builds the newsletter room on the rooms it reads (serve, and the
// `lineage newsletter` commands).
func newNewsletter(db *store.DB, cfg config.Config, ns newsletterSettings, accounts *auth.Service, ct *content.Service, rs *research.Service, tr *trees.Service, outbox *mail.Outbox) *newsletter.Service {
	opt := newsletter.Options{
		Outbox:      outbox,
		PublicURL:   cfg.PublicURL,
		Viewer:      newsletterViewer,
		Accounts:    newsletterAccounts{accounts},
		Log:         slog.Default(),
		Rate:        ns.Rate,
		Bounces:     ns.Bounces,
		SocietyName: societyName(),
		// A scheduled edition going out enters the public archive.
		PagesChanged: func(ctx context.Context) error { _, err := pagegen.Raise(ctx, db); return err },
	}
	if ct != nil {
		opt.Content = newsletterContent{ct: ct, rs: rs, publicURL: strings.TrimRight(cfg.PublicURL, "/")}
	}
	if rs != nil {
		opt.Finders = append(opt.Finders, &recordsFinder{rs: rs, db: db, publicURL: strings.TrimRight(cfg.PublicURL, "/")},
			&catalogueFinder{rs: rs, db: db, publicURL: strings.TrimRight(cfg.PublicURL, "/")})
	}
	if tr != nil {
		opt.Finders = append(opt.Finders, &treesFinder{tr: tr, db: db, publicURL: strings.TrimRight(cfg.PublicURL, "/")})
	}
	return newsletter.New(db, opt)
}

// addNewsletter builds the newsletter room, adds its part to "download my data" and
// starts its scheduler (editions, alert matching, digests) until ctx ends, on the
// instance that holds its lease.
func (a *app) addNewsletter(ctx context.Context, cfg config.Config, db *store.DB) error {
	ns, err := newsletterSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	svc := newNewsletter(db, cfg, ns, a.accounts, a.content, a.research, a.trees, a.outbox)
	a.accounts.AddExporter(svc)
	a.newsletter = svc
	go a.jobs.Run(ctx, "newsletter", func(ctx context.Context) { svc.Run(ctx, ns.Tick) })
	return nil
}

func viewerOfUser(u *auth.User) newsletter.Viewer {
	if u == nil {
		return newsletter.Viewer{}
	}
	return newsletter.Viewer{ID: u.ID, Email: u.Email, Verified: u.EmailVerifiedAt != nil, Scope: u.Scope,
		Staff: u.Role == auth.RoleEditor || u.Role == auth.RoleAdmin, Admin: u.Role == auth.RoleAdmin}
}

// newsletterViewer tells the newsletter room who is signed in.
func newsletterViewer(r *http.Request) newsletter.Viewer {
	return viewerOfUser(auth.UserFrom(r.Context()))
}

// newsletterAccounts finds accounts for alert digests.
type newsletterAccounts struct{ a *auth.Service }

func (n newsletterAccounts) Account(ctx context.Context, id int64) (newsletter.Viewer, error) {
	u, err := n.a.UserByID(ctx, id)
	if err != nil {
		return newsletter.Viewer{}, err
	}
	return viewerOfUser(u), nil
}

// newsletterContent gives editions their documents (content type newsletter) and
// automatic sections: news items, upcoming events, research collections.
type newsletterContent struct {
	ct        *content.Service
	rs        *research.Service
	publicURL string
}

func (c newsletterContent) search(ctx context.Context, q, orderings string, size int, more ...string) ([]*content.ResultDocument, error) {
	repo, err := c.ct.Repository(ctx)
	if err != nil {
		return nil, err
	}
	res, err := c.ct.Search(ctx, content.SearchParams{Ref: repo.MasterRef, Q: append([]string{q}, more...), Orderings: orderings, PageSize: size, Origin: c.publicURL})
	if err != nil {
		return nil, err
	}
	return res.Results, nil
}

// richTitle is the text of a rich-text field's first block.
func richTitle(v any) string {
	if bl, ok := v.([]any); ok && len(bl) > 0 {
		if m, ok := bl[0].(map[string]any); ok {
			s, _ := m["text"].(string)
			return s
		}
	}
	s, _ := v.(string)
	return s
}

func (c newsletterContent) NewsletterDocuments(ctx context.Context) ([]newsletter.DocumentInfo, error) {
	docs, err := c.search(ctx, `[[at(document.type, "newsletter")]]`, "[document.last_publication_date desc]", 100)
	if err != nil {
		return nil, err
	}
	out := []newsletter.DocumentInfo{}
	for _, d := range docs {
		if d.UID != nil {
			out = append(out, newsletter.DocumentInfo{UID: *d.UID, Title: richTitle(d.Data["title"])})
		}
	}
	return out, nil
}

func (c newsletterContent) NewsletterDocument(ctx context.Context, uid string) (*newsletter.Document, error) {
	b, _ := json.Marshal(uid)
	docs, err := c.search(ctx, `[[at(my.newsletter.uid, `+string(b)+`)]]`, "", 1)
	if err != nil || len(docs) == 0 {
		return nil, err
	}
	return &newsletter.Document{UID: uid, Title: richTitle(docs[0].Data["title"]), Data: docs[0].Data}, nil
}

func (c newsletterContent) Section(ctx context.Context, kind string, since, now time.Time) ([]newsletter.Item, error) {
	var out []newsletter.Item
	switch kind {
	case "news":
		var after []string
		if !since.IsZero() {
			after = append(after, `[[date.after(document.first_publication_date, "`+since.UTC().Format(time.RFC3339)+`")]]`)
		}
		docs, err := c.search(ctx, `[[at(document.type, "news_item")]]`, "[document.first_publication_date desc]", 5, after...)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if d.UID == nil {
				continue
			}
			out = append(out, newsletter.Item{Title: richTitle(d.Data["title"]), URL: c.publicURL + "/news/" + url.PathEscape(*d.UID), Summary: richTitle(d.Data["summary"])})
		}
	case "events":
		docs, err := c.search(ctx, `[[date.after(my.event.start, "`+now.UTC().Format("2006-01-02")+`")]]`, "[my.event.start]", 5)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if d.UID == nil || d.Type != "event" {
				continue
			}
			when := ""
			if s, _ := d.Data["start"].(string); len(s) >= 10 {
				if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
					when = t.Format("2 January 2006")
				}
			}
			out = append(out, newsletter.Item{Title: richTitle(d.Data["title"]), URL: c.publicURL + "/sog-events/" + url.PathEscape(*d.UID), When: when})
		}
	case "collections":
		if c.rs == nil {
			return nil, nil
		}
		rows, err := c.rs.DB().QueryContext(ctx, c.rs.DB().Rebind(`SELECT slug, kind, title, description FROM collections WHERE created_at > ? ORDER BY created_at DESC, id DESC LIMIT 8`), max(since.Unix(), 0))
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var slug, k, title, desc string
			if err := rows.Scan(&slug, &k, &title, &desc); err != nil {
				return nil, err
			}
			out = append(out, newsletter.Item{Title: title, URL: c.publicURL + collectionPath(k, slug), Summary: desc})
		}
		return out, rows.Err()
	}
	return out, nil
}

// collectionPath is where a research collection's page is (the web app's
// features/research/collections collectionPath).
func collectionPath(kind, slug string) string {
	base := "/research-hub/our-collections/"
	s := url.PathEscape(slug)
	switch kind {
	case research.KindRecordSet:
		return base + "record-sets/" + s
	case research.KindIndex:
		return base + "indexes/" + s
	case research.KindMemorialCards:
		return base + "memorial-cards/" + s
	case research.KindBirthBriefs:
		return base + "birth-briefs"
	}
	return base + s
}
