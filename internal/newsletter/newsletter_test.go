package newsletter_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/newsletter"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// docs is the editions' content: one newsletter document with an image and a link
// given as site paths, which mail must carry as absolute URLs.
type docs struct{}

var docData = map[string]any{
	"title":   []any{map[string]any{"type": "heading1", "text": "Winter news", "spans": []any{}}},
	"summary": []any{map[string]any{"type": "paragraph", "text": "A short summary.", "spans": []any{}}},
	"body": []any{map[string]any{"slice_type": "rich_text", "primary": map[string]any{"content": []any{
		map[string]any{"type": "paragraph", "text": "Read the news page & more.", "spans": []any{
			map[string]any{"start": 9.0, "end": 18.0, "type": "hyperlink", "data": map[string]any{"url": "/news"}}}},
		map[string]any{"type": "image", "url": "/media/winter.jpg", "alt": "Snow on the church"},
		// A long paragraph: mail goes 8bit, where SMTP refuses lines over 998 bytes.
		map[string]any{"type": "paragraph", "text": strings.Repeat("The registers of the parish survive from 1538 with gaps. ", 60), "spans": []any{}},
	}}}},
}

func (docs) NewsletterDocuments(ctx context.Context) ([]newsletter.DocumentInfo, error) {
	return []newsletter.DocumentInfo{{UID: "winter", Title: "Winter news"}}, nil
}

func (docs) NewsletterDocument(ctx context.Context, uid string) (*newsletter.Document, error) {
	if uid != "winter" {
		return nil, nil
	}
	return &newsletter.Document{UID: uid, Title: "Winter news", Data: docData}, nil
}

func (docs) Section(ctx context.Context, kind string, since, now time.Time) ([]newsletter.Item, error) {
	if kind == "news" {
		return []newsletter.Item{{Title: "Library opens late", URL: "https://lineage.test/news/late", Summary: "Thursdays."}}, nil
	}
	return nil, nil
}

type env struct {
	db   *store.DB
	smtp *mailtest.Server
	ob   *mail.Outbox
	svc  *newsletter.Service
	opt  newsletter.Options
}

func newEnv(t *testing.T, db *store.DB, tweak ...func(*newsletter.Options)) *env {
	t.Helper()
	e := &env{db: db, smtp: mailtest.Start(t, "", "")}
	e.ob = mail.NewOutbox(db, e.smtp.Sender("no-reply@lineage.test"), quiet)
	e.opt = newsletter.Options{Outbox: e.ob, PublicURL: "https://lineage.test", Content: docs{}, Log: quiet, Rate: 1000, SocietyName: "Test Society"}
	for _, f := range tweak {
		f(&e.opt)
	}
	e.svc = newsletter.New(db, e.opt)
	return e
}

// deliver sends what the outbox holds and returns the messages that arrived since
// the previous call.
func (e *env) deliver(t *testing.T, seen *int) []mailtest.Received {
	t.Helper()
	if _, err := e.ob.DeliverDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	all := e.smtp.Messages()
	got := all[*seen:]
	*seen = len(all)
	return got
}

var tokenInLink = regexp.MustCompile(`confirm\?token=([A-Za-z0-9_%-]+)`)

func signup(email string, lists ...string) newsletter.Signup {
	return newsletter.Signup{Email: email, Lists: lists, Source: "/about-us", Wording: "Send me the society's news."}
}

func fieldOf(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) {
		for f := range he.Fields {
			return f
		}
		return he.Code
	}
	return ""
}

// An address gets one confirmation mail and nothing else until it confirms; once
// confirmed it receives the edition, with list headers and both parts.
func TestDoubleOptInAndEdition(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		seen := 0
		st, err := e.svc.Subscribe(ctx, newsletter.Viewer{}, signup("Ann@Example.org", "news"), "192.0.2.1")
		if err != nil || st != "pending" {
			t.Fatalf("Subscribe = %q, %v", st, err)
		}
		// Signing up again at once sends no second confirmation.
		if _, err := e.svc.Subscribe(ctx, newsletter.Viewer{}, signup("ann@example.org", "news"), "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		// Someone who never confirms.
		if _, err := e.svc.Subscribe(ctx, newsletter.Viewer{}, signup("bob@example.org", "news"), "192.0.2.2"); err != nil {
			t.Fatal(err)
		}
		got := e.deliver(t, &seen)
		if len(got) != 2 {
			t.Fatalf("%d confirmation mails, want 2 (one per address)", len(got))
		}
		var confirm mailtest.Received
		for _, m := range got {
			if m.To[0] == "ann@example.org" {
				confirm = m
			}
		}
		text := confirm.Parts["text/plain"].Body
		if !strings.Contains(confirm.Parts["text/html"].Body, "https://lineage.test/newsletter/confirm?token=") || confirm.Header.Get("List-Unsubscribe") != "" {
			t.Fatalf("confirmation mail: html %q, List-Unsubscribe %q", confirm.Parts["text/html"].Body, confirm.Header.Get("List-Unsubscribe"))
		}
		mt := tokenInLink.FindStringSubmatch(strings.ReplaceAll(text, "=\r\n", ""))
		if mt == nil {
			t.Fatalf("no link in %q", text)
		}
		tok, _ := url.QueryUnescape(mt[1])

		// An edition before confirmation reaches nobody.
		first := sendEdition(t, e, "news")
		if got := e.deliver(t, &seen); len(got) != 0 {
			t.Fatalf("edition sent to unconfirmed addresses: %v", got[0].To)
		}
		if c := editionCounts(t, e, first); c.Recipients != 0 {
			t.Fatalf("counts %+v", c)
		}

		c, err := e.svc.Confirm(ctx, tok)
		if err != nil || c.Email != "ann@example.org" || !*c.Lists[0].Subscribed {
			t.Fatalf("Confirm = %+v, %v", c, err)
		}
		if _, err := e.svc.Confirm(ctx, tok); fieldOf(err) != "token" {
			t.Fatalf("second use of the link: %v", err)
		}

		id := sendEdition(t, e, "news")
		got = e.deliver(t, &seen)
		if len(got) != 1 || got[0].To[0] != "ann@example.org" {
			t.Fatalf("edition went to %d messages", len(got))
		}
		m := got[0]
		lu := m.Header.Get("List-Unsubscribe")
		if !strings.HasPrefix(lu, "<https://lineage.test/api/newsletter/one-click?token=") || !strings.HasSuffix(lu, "&list=news>") {
			t.Errorf("List-Unsubscribe %q", lu)
		}
		if p := m.Header.Get("List-Unsubscribe-Post"); p != "List-Unsubscribe=One-Click" {
			t.Errorf("List-Unsubscribe-Post %q", p)
		}
		if !strings.Contains(m.Header.Get("List-Id"), "<news.lists.lineage.test>") {
			t.Errorf("List-Id %q", m.Header.Get("List-Id"))
		}
		html, plain := m.Parts["text/html"].Body, strings.ReplaceAll(m.Parts["text/plain"].Body, "\r\n", "\n")
		for _, want := range []string{`src="https://lineage.test/media/winter.jpg"`, `href="https://lineage.test/news"`, "Library opens late",
			"https://lineage.test/newsletter/preferences?token=" + url.QueryEscape(c.PreferencesToken)} {
			if !strings.Contains(html, want) {
				t.Errorf("html lacks %q", want)
			}
		}
		if strings.Contains(html, "<style") || strings.Contains(html, "<script") {
			t.Error("html has a style sheet or a script")
		}
		for _, want := range []string{"Winter news", "Read the news page & more. <https://lineage.test/news>", "- Library opens late",
			"Unsubscribe: https://lineage.test/newsletter/preferences?token="} {
			if !strings.Contains(plain, want) {
				t.Errorf("text lacks %q:\n%s", want, plain)
			}
		}
		if c := editionCounts(t, e, id); c.Recipients != 1 || c.Sent != 1 {
			t.Errorf("counts %+v", c)
		}
		// The archive shows it without anyone's links.
		a, err := e.svc.ArchivedEdition(ctx, id)
		if err != nil || strings.Contains(a.HTML, "token=") || !strings.Contains(a.HTML, "Winter news") {
			t.Errorf("archive: %v %+v", err, a)
		}
	})
}

// startEdition saves a new edition by v as in says and starts sending it.
func startEdition(t *testing.T, e *env, v newsletter.Viewer, in newsletter.EditionInput) *newsletter.Edition {
	t.Helper()
	ctx := context.Background()
	ed, err := e.svc.SaveEdition(ctx, v, 0, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Send(ctx, ed.ID, time.Time{}); err != nil {
		t.Fatal(err)
	}
	return ed
}

func sendEdition(t *testing.T, e *env, list string) int64 {
	t.Helper()
	ctx := context.Background()
	doc, subj := "winter", "Winter news"
	ed := startEdition(t, e, newsletter.Viewer{ID: 1}, newsletter.EditionInput{List: &list, Document: &doc, Subject: &subj, Sections: &[]string{"news"}})
	for {
		n, more, err := e.svc.SendDue(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if !more && n == 0 {
			return ed.ID
		}
	}
}

func editionCounts(t *testing.T, e *env, id int64) newsletter.Counts {
	t.Helper()
	ed, err := e.svc.Edition(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return *ed.Counts
}

// subscribeConfirmed signs addresses up and confirms them, as their owners would.
// sendWinterNews subscribes addrs to the news list and starts sending them an edition;
// it answers how many messages the SMTP server had before the edition, and the edition.
func sendWinterNews(t *testing.T, e *env, addrs ...string) (int, *newsletter.Edition) {
	t.Helper()
	subscribeConfirmed(t, e, "news", addrs...)
	before := len(e.smtp.Messages())
	list, doc, subj := "news", "winter", "Winter news"
	return before, startEdition(t, e, newsletter.Viewer{}, newsletter.EditionInput{List: &list, Document: &doc, Subject: &subj})
}

func subscribeConfirmed(t *testing.T, e *env, list string, addrs ...string) map[string]string {
	t.Helper()
	ctx := context.Background()
	prefs := map[string]string{}
	for _, a := range addrs {
		if _, err := e.svc.Subscribe(ctx, newsletter.Viewer{}, signup(a, list), ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.ob.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	for _, m := range e.smtp.Messages() {
		mt := tokenInLink.FindStringSubmatch(strings.ReplaceAll(m.Parts["text/plain"].Body, "=\r\n", ""))
		if mt == nil {
			continue
		}
		tok, _ := url.QueryUnescape(mt[1])
		if c, err := e.svc.Confirm(ctx, tok); err == nil {
			prefs[c.Email] = c.PreferencesToken
		}
	}
	if len(prefs) != len(addrs) {
		t.Fatalf("%d of %d confirmed", len(prefs), len(addrs))
	}
	return prefs
}

// The RFC 8058 POST works with no session, cookie or CSRF token, and the next
// edition does not go to the address.
func TestOneClickUnsubscribe(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		subscribeConfirmed(t, e, "news", "ann@example.org", "bob@example.org")
		seen := len(e.smtp.Messages())
		sendEdition(t, e, "news")
		got := e.deliver(t, &seen)
		if len(got) != 2 {
			t.Fatalf("%d messages", len(got))
		}
		var lu string
		for _, m := range got {
			if m.To[0] == "ann@example.org" {
				lu = strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
			}
		}
		srv := httptest.NewServer(httpx.Serve(httpx.Room{Routes: []httpx.Route{
			{Pattern: "POST /api/newsletter/one-click", Handler: e.svc.PostOneClick, Access: httpx.Public},
		}}))
		defer srv.Close()
		target := strings.Replace(lu, "https://lineage.test", srv.URL, 1)
		// As a mail provider sends it: a form POST, nothing else.
		res, err := http.Post(target, "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("one-click: %d", res.StatusCode)
		}
		// A forged token changes nothing.
		bad := strings.Replace(target, "token=", "token=9", 1)
		if res, _ := http.Post(bad, "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click")); res.StatusCode != http.StatusNotFound {
			t.Errorf("forged token: %d", res.StatusCode)
		}
		sendEdition(t, e, "news")
		got = e.deliver(t, &seen)
		if len(got) != 1 || got[0].To[0] != "bob@example.org" {
			t.Fatalf("after unsubscribing, the edition went to %d: %v", len(got), got)
		}
	})
}

// Stopping the mail server and the sender in the middle of an edition, then starting
// a new sender (a restart): everyone gets the edition exactly once.
func TestRestartMidSend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		var addrs []string
		for i := range 25 {
			addrs = append(addrs, "member"+string(rune('a'+i))+"@example.org")
		}
		before, ed := sendWinterNews(t, e, addrs...)
		if n, _, err := e.svc.SendDue(ctx, 10); n != 10 || err != nil {
			t.Fatalf("first batch: %d, %v", n, err)
		}
		e.ob.DeliverDue(ctx)
		e.smtp.Stop()
		if n, _, err := e.svc.SendDue(ctx, 10); n != 10 || err != nil {
			t.Fatalf("second batch: %d, %v", n, err)
		}
		e.ob.DeliverDue(ctx) // the server is down: these wait for a retry

		// A new process: new room and outbox on the same store, a clock past the backoff.
		later := time.Now().Add(time.Hour)
		ob2 := mail.NewOutbox(db, e.smtp.Sender("no-reply@lineage.test"), quiet)
		ob2.Now = func() time.Time { return later }
		opt := e.opt
		opt.Outbox = ob2
		svc2 := newsletter.New(db, opt)
		e.smtp.Restart(t)
		for {
			n, more, err := svc2.SendDue(ctx, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 && !more {
				break
			}
		}
		eachReceivedOnce(t, e, ob2, before, addrs)
		ed2, _ := svc2.Edition(ctx, ed.ID)
		if ed2.Status != "sent" || ed2.Counts.Sent != 25 || ed2.Counts.Failed != 0 {
			t.Errorf("edition %s %+v", ed2.Status, ed2.Counts)
		}
	})
}

// An address the mail server refuses (5xx) Bounces times is suppressed: the next
// edition is not sent to it; its failures show per recipient.
func TestBouncesSuppress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, func(o *newsletter.Options) { o.Bounces = 2 })
		subscribeConfirmed(t, e, "news", "gone@example.org", "here@example.org")
		e.smtp.Reject("gone@example.org")
		seen := len(e.smtp.Messages())
		var last int64
		for range 2 {
			last = sendEdition(t, e, "news")
			got := e.deliver(t, &seen)
			if len(got) != 1 || got[0].To[0] != "here@example.org" {
				t.Fatalf("delivered %d", len(got))
			}
		}
		failed, err := e.svc.Recipients(context.Background(), last, "failed", 10)
		if err != nil || len(failed) != 1 || failed[0].Email != "gone@example.org" || !strings.Contains(failed[0].Error, "550") {
			t.Fatalf("failed recipients %+v, %v", failed, err)
		}
		third := sendEdition(t, e, "news")
		if c := editionCounts(t, e, third); c.Recipients != 1 {
			t.Errorf("third edition claimed %d recipients, want 1 (the refused address suppressed)", c.Recipients)
		}
		if n, _ := e.ob.Rejections(context.Background(), "gone@example.org"); n != 2 {
			t.Errorf("rejections %d", n)
		}
	})
}

// Bad sign-ups get a field error; sign-ups from one network are throttled.
func TestSignupRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		for _, c := range []struct {
			name  string
			in    newsletter.Signup
			field string
		}{
			{"not an address", signup("ann at example.org", "news"), "email"},
			{"a name and address", signup("Ann <ann@example.org>", "news"), "email"},
			{"disposable", signup("x@mailinator.com", "news"), "email"},
			{"no list", signup("ann@example.org"), "lists"},
			{"unknown list", signup("ann@example.org", "nope"), "lists"},
			{"members only", signup("ann@example.org", "members"), "lists"},
			{"no wording", newsletter.Signup{Email: "ann@example.org", Lists: []string{"news"}}, "wording"},
			{"foreign source", newsletter.Signup{Email: "ann@example.org", Lists: []string{"news"}, Wording: "w", Source: "https://evil.test/"}, "source"},
		} {
			if _, err := e.svc.Subscribe(ctx, newsletter.Viewer{}, c.in, ""); fieldOf(err) != c.field {
				t.Errorf("%s: %v, want a %s error", c.name, err, c.field)
			}
		}
		// A member may join the members' list, with their verified address at once.
		v := account(t, db, "", "m@example.org", "registered", "member")
		if st, err := e.svc.Subscribe(ctx, v, signup("m@example.org", "members"), ""); err != nil || st != "subscribed" {
			t.Errorf("member: %q, %v", st, err)
		}
		var last error
		for i := range newsletter.SignupsPerIP + 1 {
			_, last = e.svc.Subscribe(ctx, newsletter.Viewer{}, signup("p"+string(rune('a'+i))+"@example.org", "news"), "198.51.100.7")
		}
		var he *httpx.Error
		if !errors.As(last, &he) || he.Code != httpx.ETOOMANY {
			t.Errorf("sign-up %d from one IP: %v, want 429", newsletter.SignupsPerIP+1, last)
		}
	})
}

// The account's data export holds its subscriptions and consents; deleting the
// account deletes the subscriber, whichever way it signed up.
func TestExportAndDeletion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		v := account(t, db, "Ann", "ann@example.org", "registered")
		subscribeConfirmed(t, e, "news", "ann@example.org") // signed up anonymously first
		if _, err := e.svc.SetMine(ctx, v, []string{"news", "events"}, "/user-account", "Tick to receive."); err != nil {
			t.Fatal(err)
		}
		data, err := e.svc.ExportUserData(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(data)
		for _, want := range []string{`"list":"events","email":"ann@example.org","status":"subscribed"`, `"action":"confirmed","source":"/about-us","wording":"Send me the society's news."`,
			`"wording":"Tick to receive."`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("export lacks %s: %s", want, b)
			}
		}
		if err := auth.New(db, auth.Options{}).DeleteUser(ctx, v.ID); err != nil {
			t.Fatal(err)
		}
		var n int
		db.QueryRow(`SELECT (SELECT COUNT(*) FROM newsletter_subscribers) + (SELECT COUNT(*) FROM newsletter_consents)`).Scan(&n)
		if n != 0 {
			t.Errorf("%d subscriber and consent rows left after deleting the account", n)
		}
	})
}

// account creates a verified account and returns it as the room sees its holder, with
// scope.
func account(t *testing.T, db *store.DB, name, email string, scope ...string) newsletter.Viewer {
	t.Helper()
	u, err := auth.New(db, auth.Options{}).CreateUser(context.Background(), auth.NewUser{Email: email, Name: name, Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	return newsletter.Viewer{ID: u.ID, Email: u.Email, Verified: true, Scope: scope}
}

// eachReceivedOnce delivers what ob holds, then checks that each of addrs received
// exactly one of the messages that arrived after the first before.
func eachReceivedOnce(t *testing.T, e *env, ob *mail.Outbox, before int, addrs []string) {
	t.Helper()
	if _, err := ob.DeliverDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, m := range e.smtp.Messages()[before:] {
		count[m.To[0]]++
	}
	for _, a := range addrs {
		if count[a] != 1 {
			t.Errorf("%s received the edition %d times", a, count[a])
		}
	}
}

// Two instances sending the same edition at once (two servers' schedulers): each
// recipient is claimed, and mailed, once.
func TestTwoSendersOneEdition(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		var addrs []string
		for i := range 40 {
			addrs = append(addrs, "reader"+strconv.Itoa(i)+"@example.org")
		}
		before, _ := sendWinterNews(t, e, addrs...)
		other := newsletter.New(db, e.opt)
		errs := make(chan error, 2)
		for _, svc := range []*newsletter.Service{e.svc, other} {
			go func() {
				for {
					n, more, err := svc.SendDue(ctx, 5)
					if err != nil || (n == 0 && !more) {
						errs <- err
						return
					}
				}
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		eachReceivedOnce(t, e, e.ob, before, addrs)
	})
}

// serve's scheduler and the outbox's worker, left to run: an edition sent now arrives.
func TestSchedulerSendsEdition(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		subscribeConfirmed(t, e, "news", "ann@example.org", "bob@example.org")
		before := len(e.smtp.Messages())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		list, doc, subj := "news", "winter", "Scheduled news"
		startEdition(t, e, newsletter.Viewer{}, newsletter.EditionInput{List: &list, Document: &doc, Subject: &subj})
		go e.ob.Run(ctx)
		go e.svc.Run(ctx, time.Second)
		got := e.smtp.Wait(t, before+2, time.Minute)[before:]
		for _, m := range got {
			if m.Subject != "Scheduled news" {
				t.Errorf("got %q", m.Subject)
			}
		}
	})
}

// A member's subscriber follows the account: after a verified change of address the
// edition goes to the new one, and its links still work.
func TestEditionGoesToTheAccountsAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		v := account(t, db, "Ann", "old@example.org", "registered")
		if _, err := e.svc.SetMine(ctx, v, []string{"news"}, "/user-account", "Tick to receive."); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(db.Rebind(`UPDATE users SET email = ? WHERE id = ?`), "new@example.org", v.ID); err != nil {
			t.Fatal(err)
		}
		seen := len(e.smtp.Messages())
		sendEdition(t, e, "news")
		got := e.deliver(t, &seen)
		if len(got) != 1 || got[0].To[0] != "new@example.org" {
			var to [][]string
			for _, m := range got {
				to = append(to, m.To)
			}
			t.Fatalf("the edition went to %v, want the account's new address", to)
		}
		link := strings.Trim(got[0].Header.Get("List-Unsubscribe"), "<>")
		tok, _ := url.ParseQuery(link[strings.IndexByte(link, '?')+1:])
		if _, err := e.svc.Preferences(ctx, tok.Get("token")); err != nil {
			t.Errorf("the mail's preferences link: %v", err)
		}
	})
}
