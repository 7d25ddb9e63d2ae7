package newsletter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Content is what editions are made of, from the content and research rooms
// (cmd/lineage adapts them).
type Content interface {
	// NewsletterDocuments lists the content documents of type newsletter.
	NewsletterDocuments(ctx context.Context) ([]DocumentInfo, error)
	// NewsletterDocument returns one, its data with absolute media URLs; nil if none.
	NewsletterDocument(ctx context.Context, uid string) (*Document, error)
	// Section returns the items of an automatic section (SectionKinds) newer than
	// since, or the latest few when since is zero (a list's first edition).
	Section(ctx context.Context, kind string, since, now time.Time) ([]Item, error)
}

// DocumentInfo names a newsletter document.
type DocumentInfo struct {
	UID   string `json:"uid"`
	Title string `json:"title"`
}

// Document is a newsletter document's content: Data is Prismic's data object.
type Document struct {
	UID   string
	Title string
	Data  map[string]any
}

// Item is one entry of an automatic section.
type Item struct {
	Title   string
	URL     string // absolute
	Summary string
	When    string // a date as shown, may be empty
}

// SectionKinds are the automatic sections an edition may add after its document, in
// this order, with their headings.
var SectionKinds = []string{"news", "events", "collections"}

var sectionHeadings = map[string]string{
	"news":        "Latest news",
	"events":      "Coming up",
	"collections": "New indexes and collections",
}

// Edition is a newsletter issue.
type Edition struct {
	ID          int64      `json:"id"`
	List        string     `json:"list"`
	Document    string     `json:"document"`
	Subject     string     `json:"subject"`
	Sections    []string   `json:"sections"`
	Status      string     `json:"status"`
	ScheduledAt *time.Time `json:"scheduled_at"`
	StartedAt   *time.Time `json:"started_at"`
	SentAt      *time.Time `json:"sent_at"`
	Public      bool       `json:"public"`
	Counts      *Counts    `json:"counts,omitempty"`

	listID int64
	html   string
	text   string
	since  int64
}

// Counts are an edition's recipients by delivery state.
type Counts struct {
	Recipients int `json:"recipients"` // subscribed now, or claimed once sending
	Queued     int `json:"queued"`
	Sent       int `json:"sent"`
	Failed     int `json:"failed"`
	Skipped    int `json:"skipped"` // members' list: the account no longer holds its scope
}

// deliveryStatus is a delivery's state from its outbox row: an outbox row swept after
// sending was sent; outbox id -1 marks a recipient skipped.
const deliveryStatus = `CASE WHEN d.outbox_id < 0 THEN 'skipped' ELSE COALESCE(m.status, 'sent') END`

const editionCols = `e.id, l.slug, l.audience, e.list_id, e.document, e.subject, e.sections, e.status, e.scheduled_at, e.started_at, e.sent_at, e.html, e.body_text, e.since`

func scanEdition(r store.Row) (*Edition, error) {
	e := &Edition{}
	var audience, sections string
	var sched, started, sent int64
	err := r.Scan(&e.ID, &e.List, &audience, &e.listID, &e.Document, &e.Subject, &sections, &e.Status, &sched, &started, &sent, &e.html, &e.text, &e.since)
	if err != nil {
		return nil, err
	}
	e.Public = audience == "public"
	e.Sections = []string{}
	if sections != "" {
		e.Sections = strings.Split(sections, ",")
	}
	e.ScheduledAt, e.StartedAt, e.SentAt = ts(sched), ts(started), ts(sent)
	return e, nil
}

func (s *Service) edition(ctx context.Context, id int64) (*Edition, error) {
	e, err := scanEdition(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+editionCols+` FROM newsletter_editions e JOIN newsletter_lists l ON l.id = e.list_id WHERE e.id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return e, err
}

// Editions returns every edition, newest first, with counts.
func (s *Service) Editions(ctx context.Context) ([]*Edition, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+editionCols+` FROM newsletter_editions e JOIN newsletter_lists l ON l.id = e.list_id ORDER BY e.id DESC`)
	out, err := store.Collect(rows, err, scanEdition)
	if err != nil {
		return nil, err
	}
	for _, e := range out {
		if e.Counts, err = s.counts(ctx, e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Edition returns one edition with its counts.
func (s *Service) Edition(ctx context.Context, id int64) (*Edition, error) {
	e, err := s.edition(ctx, id)
	if err != nil {
		return nil, err
	}
	e.Counts, err = s.counts(ctx, e)
	return e, err
}

// counts reads an edition's deliveries joined to their outbox rows.
func (s *Service) counts(ctx context.Context, e *Edition) (*Counts, error) {
	c := &Counts{}
	if e.Status == "draft" || e.Status == "scheduled" {
		err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM newsletter_subscriptions x JOIN newsletter_subscribers s ON s.id = x.subscriber_id
			WHERE x.list_id = ? AND x.status = 'subscribed' AND s.confirmed_at > 0 AND s.suppressed_at = 0`), e.listID).Scan(&c.Recipients)
		return c, err
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+deliveryStatus+`, COUNT(*) FROM newsletter_deliveries d
		LEFT JOIN mail_outbox m ON m.id = d.outbox_id WHERE d.edition_id = ? GROUP BY `+deliveryStatus), e.ID)
	byStatus, err := store.CollectMap(rows, err, store.Pair[string, int])
	if err != nil {
		return nil, err
	}
	for st, n := range byStatus {
		if st != "skipped" {
			c.Recipients += n
		}
		switch st {
		case "pending":
			c.Queued += n
		case "sent":
			c.Sent += n // an outbox row swept after sending was sent
		case "failed":
			c.Failed += n
		case "skipped":
			c.Skipped += n
		}
	}
	return c, nil
}

// EditionInput is what an editor sets on an edition.
type EditionInput struct {
	List     *string   `json:"list"`
	Document *string   `json:"document"`
	Subject  *string   `json:"subject"`
	Sections *[]string `json:"sections"`
}

// SaveEdition creates an edition (id 0) or changes a draft or scheduled one.
func (s *Service) SaveEdition(ctx context.Context, v Viewer, id int64, in EditionInput) (*Edition, error) {
	var cur *Edition
	if id != 0 {
		var err error
		if cur, err = s.edition(ctx, id); err != nil {
			return nil, err
		}
		if cur.Status != "draft" && cur.Status != "scheduled" {
			return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This edition has been sent: it can no longer change."}
		}
	} else {
		cur = &Edition{Sections: []string{}}
		if in.List == nil || in.Document == nil || in.Subject == nil {
			var fe httpx.FieldErrors
			if in.List == nil {
				fe.Add("list", "Choose the list to send to.")
			}
			if in.Document == nil {
				fe.Add("document", "Choose the newsletter document.")
			}
			if in.Subject == nil {
				fe.Add("subject", "The subject is required.")
			}
			return nil, fe.Err()
		}
	}
	var fe httpx.FieldErrors
	if in.List != nil {
		l, err := s.List(ctx, *in.List)
		if err != nil {
			fe.Add("list", "The list %q does not exist.", textfield.Escape(*in.List))
		} else {
			cur.listID = l.ID
		}
	}
	if in.Document != nil {
		doc, err := s.document(ctx, *in.Document)
		if err != nil {
			return nil, err
		}
		if doc == nil {
			fe.Add("document", "There is no published newsletter document %q.", textfield.Escape(*in.Document))
		}
		cur.Document = *in.Document
	}
	if in.Subject != nil {
		subj, err := textfield.SingleLine(*in.Subject, 150)
		if err != nil || subj == "" {
			fe.Add("subject", "The subject is required: one line of at most 150 characters.")
		}
		cur.Subject = subj
	}
	if in.Sections != nil {
		cur.Sections = []string{}
		for _, k := range SectionKinds {
			if slices.Contains(*in.Sections, k) {
				cur.Sections = append(cur.Sections, k)
			}
		}
		for _, k := range *in.Sections {
			if !slices.Contains(SectionKinds, k) {
				fe.Add("sections", "Sections are news, events and collections.")
			}
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now := s.now().Unix()
	sections := strings.Join(cur.Sections, ",")
	if id == 0 {
		var creator any
		if v.ID != 0 {
			creator = v.ID
		}
		if err := s.db.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO newsletter_editions (list_id, document, subject, sections, created_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`), cur.listID, cur.Document, cur.Subject, sections, creator, now, now).Scan(&id); err != nil {
			return nil, err
		}
	} else if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_editions SET list_id = ?, document = ?, subject = ?, sections = ?, updated_at = ?
		WHERE id = ? AND status IN ('draft', 'scheduled')`), cur.listID, cur.Document, cur.Subject, sections, now, id); err != nil {
		return nil, err
	}
	return s.Edition(ctx, id)
}

func (s *Service) document(ctx context.Context, uid string) (*Document, error) {
	if s.opt.Content == nil {
		return nil, nil
	}
	return s.opt.Content.NewsletterDocument(ctx, uid)
}

// Placeholders of a rendered edition, replaced per recipient.
const (
	phPreferences = "%%LINEAGE_PREFERENCES_URL%%"
	phUnsubscribe = "%%LINEAGE_UNSUBSCRIBE_URL%%"
)

// render makes the edition's HTML and text from its document and automatic sections
// (items newer than since), with the per-recipient links as placeholders.
func (s *Service) render(ctx context.Context, e *Edition, since time.Time) (string, string, error) {
	doc, err := s.document(ctx, e.Document)
	if err != nil {
		return "", "", err
	}
	if doc == nil {
		return "", "", httpx.Invalid("document", "There is no published newsletter document %q.", textfield.Escape(e.Document))
	}
	var h, t strings.Builder
	t.WriteString(e.Subject + "\n" + strings.Repeat("=", min(len(e.Subject), 70)) + "\n\n")
	if sum, ok := doc.Data["summary"]; ok {
		sh, st := richText(sum, s.opt.PublicURL)
		h.WriteString(`<div style="font-size:19px;color:#333333">` + sh + `</div>`)
		t.WriteString(st)
	}
	body, _ := doc.Data["body"].([]any)
	for _, raw := range body {
		sl, _ := raw.(map[string]any)
		primary, _ := sl["primary"].(map[string]any)
		if primary == nil {
			continue
		}
		for _, key := range []string{"title", "heading"} {
			if v, ok := primary[key]; ok {
				sh, st := richText(v, s.opt.PublicURL)
				h.WriteString(sh)
				t.WriteString(st)
			}
		}
		for _, key := range []string{"content", "text", "body"} {
			if v, ok := primary[key]; ok {
				sh, st := richText(v, s.opt.PublicURL)
				h.WriteString(sh)
				t.WriteString(st)
			}
		}
		if img, ok := primary["image"].(map[string]any); ok {
			if src, _ := img["url"].(string); src != "" {
				alt, _ := img["alt"].(string)
				h.WriteString(`<p style="margin:0 0 16px"><img src="` + esc(absURL(src, s.opt.PublicURL)) + `" alt="` + esc(alt) + `" style="max-width:100%;height:auto;display:block;border:0"></p>`)
			}
		}
	}
	if s.opt.Content != nil {
		for _, kind := range e.Sections {
			items, err := s.opt.Content.Section(ctx, kind, since, s.now())
			if err != nil {
				return "", "", fmt.Errorf("newsletter: section %s: %w", kind, err)
			}
			if len(items) == 0 {
				continue
			}
			heading := sectionHeadings[kind]
			h.WriteString(`<h2 style="margin:32px 0 8px;font-size:22px;line-height:1.25">` + esc(heading) + `</h2><ul style="margin:0 0 16px;padding-left:20px">`)
			t.WriteString("\n" + strings.ToUpper(heading) + "\n\n")
			for _, it := range items {
				h.WriteString(`<li style="margin:0 0 10px"><a href="` + esc(it.URL) + `" style="` + linkStyle + `">` + esc(it.Title) + `</a>`)
				t.WriteString("- " + it.Title)
				if it.When != "" {
					h.WriteString(` <span style="color:#555555">(` + esc(it.When) + `)</span>`)
					t.WriteString(" (" + it.When + ")")
				}
				t.WriteString("\n  " + it.URL + "\n")
				if it.Summary != "" {
					h.WriteString(`<br>` + esc(it.Summary))
					t.WriteString("  " + it.Summary + "\n")
				}
				h.WriteString(`</li>`)
			}
			h.WriteString(`</ul>`)
		}
	}
	footer := `You receive this because you subscribed to ` + esc(s.opt.SocietyName) + `'s mailing list. ` +
		`<a href="` + phPreferences + `" style="` + linkStyle + `">Your preferences</a> · ` +
		`<a href="` + phUnsubscribe + `" style="` + linkStyle + `">Unsubscribe</a> · ` +
		`<a href="` + esc(s.abs("/newsletter")) + `" style="` + linkStyle + `">Past editions</a>`
	t.WriteString("\n--\nYou receive this because you subscribed to " + s.opt.SocietyName + "'s mailing list.\n" +
		"Your preferences: " + phPreferences + "\nUnsubscribe: " + phUnsubscribe + "\nPast editions: " + s.abs("/newsletter") + "\n")
	return emailPage(s.opt.SocietyName, e.Subject, h.String(), footer), wrapLines(t.String()), nil
}

// sinceFor is when the list's previous edition went out (zero: never).
func (s *Service) sinceFor(ctx context.Context, e *Edition) (time.Time, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COALESCE(MAX(started_at), 0) FROM newsletter_editions WHERE list_id = ? AND id <> ? AND status IN ('sending', 'sent')`),
		e.listID, e.ID).Scan(&n)
	if n == 0 {
		return time.Time{}, err // the list's first edition: the latest of each section
	}
	return time.Unix(n, 0), err
}

// Preview renders the edition as it would go out now, with the personal links
// pointing at the preferences page without a token.
func (s *Service) Preview(ctx context.Context, id int64) (subject, html, text string, err error) {
	e, err := s.edition(ctx, id)
	if err != nil {
		return "", "", "", err
	}
	if e.html != "" {
		html, text = e.html, e.text
	} else {
		since, err := s.sinceFor(ctx, e)
		if err != nil {
			return "", "", "", err
		}
		if html, text, err = s.render(ctx, e, since); err != nil {
			return "", "", "", err
		}
	}
	r := strings.NewReplacer(phPreferences, s.abs("/newsletter/preferences"), phUnsubscribe, s.abs("/newsletter/preferences"))
	return e.Subject, r.Replace(html), r.Replace(text), nil
}

// SendTest mails the edition, as rendered now, to the editor's own address.
func (s *Service) SendTest(ctx context.Context, v Viewer, id int64) error {
	subject, html, text, err := s.Preview(ctx, id)
	if err != nil {
		return err
	}
	return s.opt.Outbox.Enqueue(ctx, mail.Message{To: v.Email, Subject: "[Test] " + subject, Text: text, HTML: html,
		Headers: []mail.Header{{Name: "Auto-Submitted", Value: "auto-generated"}}})
}

// Send schedules the edition for at, or starts sending it now (at zero or past).
func (s *Service) Send(ctx context.Context, id int64, at time.Time) (*Edition, error) {
	e, err := s.edition(ctx, id)
	if err != nil {
		return nil, err
	}
	if e.Status != "draft" && e.Status != "scheduled" {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This edition is being sent or has been sent."}
	}
	now := s.now()
	if !at.IsZero() && at.After(now) {
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_editions SET status = 'scheduled', scheduled_at = ?, updated_at = ? WHERE id = ?`),
			at.Unix(), now.Unix(), id); err != nil {
			return nil, err
		}
		return s.Edition(ctx, id)
	}
	if err := s.start(ctx, e); err != nil {
		return nil, err
	}
	return s.Edition(ctx, id)
}

// Cancel takes a scheduled edition back to draft.
func (s *Service) Cancel(ctx context.Context, id int64) (*Edition, error) {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_editions SET status = 'draft', scheduled_at = 0 WHERE id = ? AND status = 'scheduled'`), id)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.edition(ctx, id); err != nil {
			return nil, err
		}
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "Only a scheduled edition can be cancelled."}
	}
	return s.Edition(ctx, id)
}

// start freezes the edition's content and marks it sending; the scheduler sends it.
func (s *Service) start(ctx context.Context, e *Edition) error {
	since, err := s.sinceFor(ctx, e)
	if err != nil {
		return err
	}
	html, text, err := s.render(ctx, e, since)
	if err != nil {
		return err
	}
	now := s.now().Unix()
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_editions SET status = 'sending', started_at = ?, html = ?, body_text = ?, since = ?, updated_at = ?
		WHERE id = ? AND status IN ('draft', 'scheduled')`), now, html, text, since.Unix(), now, e.ID)
	return err
}

// recipient is one address an edition goes to.
type recipient struct {
	id    int64
	email string // the subscriber's address, which its links are signed for
	to    string // where the mail goes: the account's address when it has one
}

// sendBatch claims and enqueues up to n more recipients of a sending edition, and
// marks it sent when none is left. It returns how many it enqueued.
func (s *Service) sendBatch(ctx context.Context, e *Edition, n int) (int, error) {
	if _, err := s.installationSecret(ctx); err != nil { // before the transaction that signs
		return 0, err
	}
	// A subscriber of an account is written to at the account's address, which follows
	// the member's verified changes of address.
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT s.id, s.email, COALESCE(u.email, s.email) FROM newsletter_subscriptions x
		JOIN newsletter_subscribers s ON s.id = x.subscriber_id LEFT JOIN users u ON u.id = s.user_id
		WHERE x.list_id = ? AND x.status = 'subscribed' AND s.confirmed_at > 0 AND s.suppressed_at = 0
		AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries d WHERE d.edition_id = ? AND d.subscriber_id = s.id)
		ORDER BY s.id LIMIT ?`), e.listID, e.ID, n)
	rs, err := store.Collect(rows, err, func(row store.Row) (r recipient, err error) {
		err = row.Scan(&r.id, &r.email, &r.to)
		return r, err
	})
	if err != nil {
		return 0, err
	}
	now := s.now().Unix()
	if len(rs) == 0 {
		_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_editions SET status = 'sent', sent_at = ?, updated_at = ? WHERE id = ? AND status = 'sending'`), now, now, e.ID)
		return 0, err
	}
	l := &List{Slug: e.List}
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT name, audience, scope FROM newsletter_lists WHERE id = ?`), e.listID).Scan(&l.Name, &l.Audience, &l.Scope); err != nil {
		return 0, err
	}
	// Addresses the mail server refused too often are suppressed, not sent to; a
	// members' list skips those whose account no longer holds its scope (a lapsed
	// membership), recording them so that the edition moves on.
	var send, skip []recipient
	for _, r := range rs {
		if sup, err := s.suppressIfBouncing(ctx, r); err != nil {
			return 0, err
		} else if sup {
			continue
		}
		if l.Audience == "members" {
			if ok, err := s.holdsScope(ctx, r, l.Scope); err != nil {
				return 0, err
			} else if !ok {
				skip = append(skip, r)
				continue
			}
		}
		send = append(send, r)
	}
	sent := 0
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		sent = 0
		for _, r := range skip {
			if _, err := s.exec(ctx, tx, `INSERT INTO newsletter_deliveries (edition_id, subscriber_id, outbox_id, created_at) VALUES (?, ?, -1, ?)
				ON CONFLICT (edition_id, subscriber_id) DO NOTHING`, e.ID, r.id, now); err != nil {
				return err
			}
		}
		for _, r := range send {
			m, err := s.editionMail(ctx, e, l, r)
			if err != nil {
				return err
			}
			// The claim and the message commit together: a recipient claimed is a
			// message enqueued, and a recipient is claimed once per edition.
			res, err := s.exec(ctx, tx, `INSERT INTO newsletter_deliveries (edition_id, subscriber_id, outbox_id, created_at) VALUES (?, ?, 0, ?)
				ON CONFLICT (edition_id, subscriber_id) DO NOTHING`, e.ID, r.id, now)
			if err != nil {
				return err
			}
			if k, _ := res.RowsAffected(); k != 1 {
				continue // another sender claimed them
			}
			oid, err := s.opt.Outbox.EnqueueTx(ctx, tx, m)
			if err != nil {
				return err
			}
			if _, err := s.exec(ctx, tx, `UPDATE newsletter_deliveries SET outbox_id = ? WHERE edition_id = ? AND subscriber_id = ?`, oid, e.ID, r.id); err != nil {
				return err
			}
			sent++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if sent > 0 {
		s.opt.Outbox.Wake()
	}
	return len(rs), nil
}

// holdsScope reports whether the recipient's account holds scope now.
func (s *Service) holdsScope(ctx context.Context, r recipient, scope string) (bool, error) {
	var uid int64
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COALESCE(user_id, 0) FROM newsletter_subscribers WHERE id = ?`), r.id).Scan(&uid); err != nil {
		return false, err
	}
	if uid == 0 || s.opt.Accounts == nil {
		return false, nil
	}
	v, err := s.opt.Accounts.Account(ctx, uid)
	if err != nil {
		return false, nil // the account is gone
	}
	return v.has(scope), nil
}

// suppressIfBouncing suppresses an address the mail server has refused Bounces times.
func (s *Service) suppressIfBouncing(ctx context.Context, r recipient) (bool, error) {
	n, err := s.opt.Outbox.Rejections(ctx, r.to)
	if err != nil || n < s.opt.Bounces {
		return false, err
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_subscribers SET suppressed_at = ? WHERE id = ? AND suppressed_at = 0`), s.now().Unix(), r.id)
	s.log.Info("newsletter: address suppressed after refusals", "subscriber", r.id, "refusals", n)
	return true, err
}

// editionMail is the edition for one recipient: their preferences and one-click links
// in the body and in the list headers (RFC 2369, RFC 8058).
func (s *Service) editionMail(ctx context.Context, e *Edition, l *List, r recipient) (mail.Message, error) {
	tok, err := s.PreferencesToken(ctx, r.id, r.email)
	if err != nil {
		return mail.Message{}, err
	}
	prefs := s.abs("/newsletter/preferences?token=" + url.QueryEscape(tok))
	rep := strings.NewReplacer(phPreferences, prefs, phUnsubscribe, prefs)
	return mail.Message{
		To:      r.to,
		Subject: e.Subject,
		Text:    rep.Replace(e.text),
		HTML:    rep.Replace(e.html),
		Headers: s.listHeaders(l, s.oneClickURL(tok, l.Slug)),
	}, nil
}

// oneClickURL is the RFC 8058 address: a POST to it unsubscribes, a GET shows the
// preferences page.
func (s *Service) oneClickURL(token, list string) string {
	return s.abs("/api/newsletter/one-click?token=" + url.QueryEscape(token) + "&list=" + url.QueryEscape(list))
}

func (s *Service) listHeaders(l *List, oneClick string) []mail.Header {
	return []mail.Header{
		{Name: "List-Unsubscribe", Value: "<" + oneClick + ">"},
		{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"},
		{Name: "List-Id", Value: l.Name + " <" + l.Slug + ".lists." + s.host() + ">"},
		{Name: "List-Archive", Value: "<" + s.abs("/newsletter") + ">"},
		{Name: "Precedence", Value: "bulk"},
	}
}

// SendDue starts the scheduled editions that are due and sends the next batch of
// every edition being sent, at most budget messages in all. It returns how many it
// enqueued and whether editions are still sending.
func (s *Service) SendDue(ctx context.Context, budget int) (int, bool, error) {
	now := s.now().Unix()
	due, err := s.editionIDs(ctx, `SELECT id FROM newsletter_editions WHERE status = 'scheduled' AND scheduled_at <= ? ORDER BY id`, now)
	if err != nil {
		return 0, false, err
	}
	for _, id := range due {
		e, err := s.edition(ctx, id)
		if err != nil {
			return 0, false, err
		}
		if err := s.start(ctx, e); err != nil {
			return 0, false, err
		}
		if e.Public && s.opt.PagesChanged != nil {
			if err := s.opt.PagesChanged(ctx); err != nil {
				s.log.Warn("newsletter: the archive changed, but the page caches were not told", "err", err)
			}
		}
	}
	sending, err := s.editionIDs(ctx, `SELECT id FROM newsletter_editions WHERE status = 'sending' ORDER BY id`)
	if err != nil {
		return 0, false, err
	}
	total := 0
	for _, id := range sending {
		e, err := s.edition(ctx, id)
		if err != nil {
			return total, true, err
		}
		for total < budget {
			n, err := s.sendBatch(ctx, e, min(100, budget-total))
			if err != nil {
				return total, true, err
			}
			if n == 0 {
				break
			}
			total += n
		}
	}
	more, err := s.editionIDs(ctx, `SELECT id FROM newsletter_editions WHERE status = 'sending' LIMIT 1`)
	return total, len(more) > 0, err
}

func (s *Service) editionIDs(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), args...)
	return store.Collect(rows, err, store.Scalar[int64])
}

// Recipient is one recipient of an edition and what became of their message.
type Recipient struct {
	Email  string `json:"email"`
	Status string `json:"status"` // queued, sent, failed, skipped
	Error  string `json:"error"`
}

// Recipients lists an edition's recipients, optionally only those in one state.
func (s *Service) Recipients(ctx context.Context, id int64, status string, limit int) ([]Recipient, error) {
	if _, err := s.edition(ctx, id); err != nil {
		return nil, err
	}
	q := `SELECT s.email, ` + deliveryStatus + `, COALESCE(m.last_error, '') FROM newsletter_deliveries d
		JOIN newsletter_subscribers s ON s.id = d.subscriber_id LEFT JOIN mail_outbox m ON m.id = d.outbox_id WHERE d.edition_id = ?`
	args := []any{id}
	switch status {
	case "":
	case "queued":
		q += ` AND m.status = 'pending'`
	case "sent", "skipped":
		q += ` AND ` + deliveryStatus + ` = '` + status + `'`
	case "failed":
		q += ` AND m.status = 'failed'`
	default:
		return nil, httpx.Invalid("status", "The status must be queued, sent, failed or skipped.")
	}
	q += ` ORDER BY s.id LIMIT ?`
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), args...)
	return store.Collect(rows, err, func(row store.Row) (r Recipient, err error) {
		if err := row.Scan(&r.Email, &r.Status, &r.Error); err != nil {
			return r, err
		}
		if r.Status == "pending" {
			r.Status = "queued"
		}
		return r, nil
	})
}

// ArchiveEntry is a past public edition in the archive.
type ArchiveEntry struct {
	ID       int64     `json:"id"`
	List     string    `json:"list"`
	ListName string    `json:"list_name"`
	Subject  string    `json:"subject"`
	SentAt   time.Time `json:"sent_at"`
	Summary  string    `json:"summary,omitempty"`
	HTML     string    `json:"html,omitempty"`
	Text     string    `json:"text,omitempty"`
}

// Archive lists the editions of public lists that have gone out, newest first.
func (s *Service) Archive(ctx context.Context, limit int) ([]ArchiveEntry, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT e.id, l.slug, l.name, e.subject, e.started_at, e.body_text FROM newsletter_editions e
		JOIN newsletter_lists l ON l.id = e.list_id WHERE l.audience = 'public' AND e.status IN ('sending', 'sent') ORDER BY e.started_at DESC, e.id DESC LIMIT ?`), limit)
	return store.Collect(rows, err, func(row store.Row) (a ArchiveEntry, err error) {
		var started int64
		var text string
		if err := row.Scan(&a.ID, &a.List, &a.ListName, &a.Subject, &started, &text); err != nil {
			return a, err
		}
		a.SentAt = store.Time(started)
		a.Summary = summary(text, a.Subject)
		return a, nil
	})
}

// ArchivedEdition is one public edition as mailed, without any personal link.
func (s *Service) ArchivedEdition(ctx context.Context, id int64) (*ArchiveEntry, error) {
	e, err := s.edition(ctx, id)
	if err != nil {
		return nil, err
	}
	if !e.Public || (e.Status != "sending" && e.Status != "sent") {
		return nil, errNotFound
	}
	a := &ArchiveEntry{ID: e.ID, List: e.List, Subject: e.Subject, SentAt: *e.StartedAt}
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT name FROM newsletter_lists WHERE id = ?`), e.listID).Scan(&a.ListName); err != nil {
		return nil, err
	}
	r := strings.NewReplacer(phPreferences, s.abs("/newsletter/preferences"), phUnsubscribe, s.abs("/newsletter/preferences"))
	a.HTML, a.Text = r.Replace(e.html), r.Replace(e.text)
	return a, nil
}

// summary is the first words of an edition's text after its title.
func summary(text, subject string) string {
	text = strings.TrimPrefix(text, subject+"\n")
	text = strings.TrimLeft(text, "=\n")
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > 200 {
		text = string(r[:199]) + "…"
	}
	return text
}
