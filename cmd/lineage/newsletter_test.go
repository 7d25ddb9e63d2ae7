package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/newsletter"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

var (
	alertSurnames = []string{"Smith", "Smyth", "Smythe", "Jones", "Brown", "Browne", "Taylor", "Tayler", "Baker"}
	alertGiven    = []string{"John", "Mary", "Jon", "Anne", "William", "Wm", "Elizabeth"}
	alertPlaces   = []string{"Guildford", "Woking", "Dorking", "Farnham"}
)

// alertCSV writes n records of the canonical layout with keys from first on; keys
// below first that exist already are changed records.
func alertCSV(rng *rand.Rand, keys []int) string {
	var b strings.Builder
	b.WriteString("record_id,record_type,date,place,role,surname,given_names\n")
	for _, k := range keys {
		typ := []string{"baptism", "burial", "marriage"}[rng.IntN(3)]
		fmt.Fprintf(&b, "R%d,%s,%d,%s,,%s,%s\n", k, typ, 1820+rng.IntN(60), alertPlaces[rng.IntN(len(alertPlaces))],
			alertSurnames[rng.IntN(len(alertSurnames))], alertGiven[rng.IntN(len(alertGiven))])
	}
	return b.String()
}

// addAlert saves a member's search, as the account area does, and turns an alert on
// for it at freq.
func addAlert(t *testing.T, db *store.DB, svc *newsletter.Service, userID int64, name, path, params, freq string) {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := db.QueryRowContext(ctx, db.Rebind(`INSERT INTO saved_searches (user_id, name, path, params, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0) RETURNING id`),
		userID, name, path, params).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetAlert(ctx, userID, id, freq); err != nil {
		t.Fatal(err)
	}
}

// searchIDs runs a saved search's query through the research engine, every page.
func searchIDs(t *testing.T, rs *research.Service, params url.Values, scope []string) map[int64]bool {
	t.Helper()
	q, errs := research.ParseQuery(searchValues(params))
	if errs != nil {
		t.Fatalf("query %v: %v", params, errs)
	}
	q.Limit = 100
	out := map[int64]bool{}
	for {
		res, err := rs.Search(context.Background(), q, scope)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			out[r.ID] = true
		}
		if res.Next == nil || len(res.Results) == 0 {
			return out
		}
		q.After = *res.Next
	}
}

// For random imports (new records and changed ones, in an existing collection, a
// members-only one and a new one), each member's one digest lists, under each saved
// search, exactly the records the search finds after the import and did not before.
func TestAlertDigestIsTheSearchDifference(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(7, 21))
		rs := research.New(db, research.Options{})
		if err := rs.Init(ctx); err != nil {
			t.Fatal(err)
		}
		importInto := func(coll, access string, keys []int) {
			t.Helper()
			_, err := rs.ImportRecords(ctx, strings.NewReader(alertCSV(rng, keys)), nil,
				research.ImportOptions{Collection: coll, Access: access, Bulk: research.BulkOff}, 0)
			if err != nil {
				t.Fatal(err)
			}
		}
		keys := func(from, n int) []int {
			var k []int
			for i := range n {
				k = append(k, from+i)
			}
			return k
		}
		importInto("parish", "", keys(0, 300))
		importInto("wills", "members", keys(1000, 100))

		accounts := auth.New(db, auth.Options{})
		newMembership(db, accounts)
		smtp := mailtest.Start(t, "", "")
		outbox := mail.NewOutbox(db, &mail.SMTPSender{Host: smtp.Host, Port: smtp.Port, TLS: mail.TLSNone, From: "no-reply@lineage.test"}, nil)
		svc := newNewsletter(db, config.Config{PublicURL: "https://lineage.test"}, newsletterSettings{Rate: 1000, Bounces: 3}, accounts, nil, rs, nil, outbox)

		type alert struct {
			user   *auth.User
			name   string
			params url.Values
		}
		reg, _ := accounts.CreateUser(ctx, auth.NewUser{Email: "reg@example.org", Verified: true})
		ed, _ := accounts.CreateUser(ctx, auth.NewUser{Email: "ed@example.org", Verified: true, Role: auth.RoleEditor})
		alerts := []alert{
			{reg, "Smith variants", url.Values{"surname": {"Smith"}}},
			{reg, "Smith exact", url.Values{"surname": {"Smith"}, "surname_mode": {"exact"}}},
			{reg, "Brown John", url.Values{"surname": {"Brown"}, "given": {"John"}}},
			{reg, "Taylor wills", url.Values{"surname": {"Taylor"}, "collection": {"wills"}}},
			{ed, "Jones 1850", url.Values{"surname": {"Jones"}, "year": {"1850"}, "year_pm": {"5"}}},
			{ed, "Baker in Woking", url.Values{"surname": {"Baker"}, "place": {"Woking"}}},
			{ed, "Taylor wills", url.Values{"surname": {"Taylor"}, "collection": {"wills"}}},
		}
		for _, a := range alerts {
			p := map[string]any{}
			for k, v := range a.params {
				p[k] = v[0]
			}
			addAlert(t, db, svc, a.user.ID, a.name, researchSearchPath, paramsJSONOf(a.params), "immediately")
		}
		if _, err := svc.MatchAlerts(ctx); err != nil { // primes the alerts
			t.Fatal(err)
		}
		scopeOf := func(u *auth.User) []string { x, _ := accounts.UserByID(ctx, u.ID); return x.Scope }

		for round := range 3 {
			before := make([]map[int64]bool, len(alerts))
			for i, a := range alerts {
				before[i] = searchIDs(t, rs, a.params, scopeOf(a.user))
			}
			// New records in each collection and a new one, and changed records.
			importInto("parish", "", append(keys(300+round*100, 60), rng.Perm(300)[:40]...))
			importInto("wills", "members", append(keys(1100+round*100, 30), 1000+rng.IntN(100)))
			importInto("new-"+strconv.Itoa(round), "", keys(5000, 40))
			seen := len(smtp.Messages())
			rep, err := svc.MatchAlerts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n, err := svc.SendDigests(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("round %d: %+v, %d digests", round, rep, n)
			if _, err := outbox.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
			got := map[string]map[string][]int64{} // address → search → records
			for _, m := range smtp.Messages()[seen:] {
				if got[m.To[0]] != nil {
					t.Errorf("round %d: %s got two digests", round, m.To[0])
				}
				got[m.To[0]] = digestRecords(m.Parts["text/plain"].Body)
				for _, ids := range got[m.To[0]] {
					for _, id := range ids {
						if link := `href="https://lineage.test/research-hub/our-collections/records/` + strconv.FormatInt(id, 10) + `"`; !strings.Contains(m.Parts["text/html"].Body, link) {
							t.Errorf("the HTML part lacks %s", link)
						}
					}
				}
				if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.Contains(m.Header.Get("List-Unsubscribe"), "list=alerts") {
					t.Errorf("digest headers %v", m.Header)
				}
			}
			for i, a := range alerts {
				after := searchIDs(t, rs, a.params, scopeOf(a.user))
				var want []int64
				for id := range after {
					if !before[i][id] {
						want = append(want, id)
					}
				}
				slices.Sort(want)
				have := got[a.user.Email][a.name]
				slices.Sort(have)
				if !slices.Equal(have, want) {
					t.Errorf("round %d, %s's %q: digest %v, search difference %v", round, a.user.Email, a.name, have, want)
				}
			}
		}
	})
}

func paramsJSONOf(v url.Values) string {
	var parts []string
	for k, vs := range v {
		parts = append(parts, strconv.Quote(k)+":"+strconv.Quote(vs[0]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// digestRecords reads a digest's text part: each saved search's name, then its
// matches, each "- title" and an indented link to the record.
func digestRecords(text string) map[string][]int64 {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "=\r\n", ""), "\r\n", "\n")
	out := map[string][]int64{}
	current := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "  https://lineage.test/research-hub/our-collections/records/"):
			id, _ := strconv.ParseInt(strings.TrimPrefix(line, "  https://lineage.test/research-hub/our-collections/records/"), 10, 64)
			out[current] = append(out[current], id)
		case line == "--":
			return out
		case line != "" && !strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, " ") && !strings.Contains(line, "new result"):
			current = line
		}
	}
	return out
}

// The one-click row of the route table has no session: a POST with a stale session
// cookie and no CSRF token (which the session middleware would refuse with 419)
// unsubscribes.
func TestOneClickRouteHasNoSession(t *testing.T) {
	ctx, _, _, a, srv := startSite(t, t.TempDir())
	u, err := a.accounts.CreateUser(ctx, auth.NewUser{Email: "ann@example.org", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	v := newsletter.Viewer{ID: u.ID, Email: u.Email, Verified: true}
	c, err := a.newsletter.SetMine(ctx, v, []string{"news"}, "", "")
	if err != nil || !*c.Lists[0].Subscribed {
		t.Fatalf("SetMine = %+v, %v", c, err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/newsletter/one-click?list=news&token="+url.QueryEscape(c.PreferencesToken), strings.NewReader("List-Unsubscribe=One-Click"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: "stale"})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("one-click with a stale cookie: %d", res.StatusCode)
	}
	if c, _ := a.newsletter.Me(ctx, v); *c.Lists[0].Subscribed {
		t.Error("still subscribed")
	}
}

// The commands as an operator (and the browser tests) use them: a member's alerts on
// a records search and a family-tree search; `lineage import records` and `lineage
// import gedcom`, then `lineage newsletter run-due`, and one digest lands in the data
// folder's mail with both searches' new matches.
func TestAlertDigestAfterImportCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	data := dir + "/data"
	db := openData(t, data)
	accounts := auth.New(db, auth.Options{})
	u, err := accounts.CreateUser(ctx, auth.NewUser{Email: "ann@example.org", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	rs := research.New(db, research.Options{})
	if _, err := rs.ImportCatalogue(ctx, research.KindLibrary, "shelves", "The shelves", strings.NewReader("key,title,authors,year,publisher,subjects,shelfmark\nB1,Old parish guide,A. Writer,1901,,,\n")); err != nil {
		t.Fatal(err)
	}
	svc := newNewsletter(db, config.Config{PublicURL: "http://localhost"}, newsletterSettings{Rate: 100}, accounts, nil, rs, trees.New(db, trees.Options{Viewer: treeViewer}), nil)
	for _, s := range []struct{ name, path, params string }{
		{"Ashworths in trees", pedigreeSearchPath, `{"surname":"Ashworth"}`},
		{"Quelch records", researchSearchPath, `{"surname":"Quelch"}`},
		{"New on the shelves", "/research-hub/our-collections/shelves", `{}`},
	} {
		addAlert(t, db, svc, u.ID, s.name, s.path, s.params, "immediately")
	}
	db.Close()
	run := func() string {
		out, err := runJob(ctx, data, runNewsletterDue)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run() // the alerts remember what they find today
	file := testFile(t, dir, "q.csv", "record_id,record_type,date,place,role,surname,given_names\nQ1,baptism,1850,Guildford,,Quelch,John\nQ2,baptism,1851,Guildford,,Smith,Mary\n")
	if err := runImport(ctx, []string{"records", "--data", data, "--collection", "quelch", "--quiet", file}); err != nil {
		t.Fatal(err)
	}
	if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "ashworths", "--quiet", "../../demo/trees/ashworth.ged"}); err != nil {
		t.Fatal(err)
	}
	books := testFile(t, dir, "books.csv", "key,title,authors,year,publisher,subjects,shelfmark\nB1,Old parish guide,A. Writer,1901,,,\nB2,Surrey wills explained,B. Author,1950,,,\n")
	if err := runImport(ctx, []string{"library", "--data", data, "--collection", "shelves", books}); err != nil {
		t.Fatal(err)
	}
	// An alert turned on after the import, before the next run, hears of it too.
	db = openData(t, data)
	svc = newNewsletter(db, config.Config{PublicURL: "http://localhost"}, newsletterSettings{Rate: 100}, auth.New(db, auth.Options{}), nil, research.New(db, research.Options{}), nil, nil)
	addAlert(t, db, svc, u.ID, "Late Quelch alert", researchSearchPath, `{"surname":"Quelch","surname_mode":"exact"}`, "immediately")
	db.Close()
	if out := run(); !strings.Contains(out, "1 digest(s)") {
		t.Fatalf("run-due: %s", out)
	}
	files, _ := filepath.Glob(data + "/mail/*.eml")
	if len(files) != 1 {
		t.Fatalf("%d mails, want one digest", len(files))
	}
	b, _ := os.ReadFile(files[0])
	eml := string(b)
	for _, want := range []string{"To: <ann@example.org>", "Quelch records", "Late Quelch alert", "John Quelch", "/research-hub/our-collections/records/",
		"Ashworths in trees", "/research-hub/our-collections/family-trees-record/ashworths~I1\n",
		"New on the shelves", "- Surrey wills explained — B. Author", "/research-hub/our-collections/shelves\n", "List-Unsubscribe-Post: List-Unsubscribe=One-Click"} {
		if !strings.Contains(eml, want) {
			t.Errorf("digest lacks %q", want)
		}
	}
	if strings.Contains(eml, "Mary Smith") || strings.Contains(eml, "Old parish guide") {
		t.Error("digest lists a record no alert searches for, or a book that was there before")
	}
	if out := run(); strings.Contains(out, "1 digest(s)") {
		t.Errorf("a second run sent the digest again: %s", out)
	}
}

// Daily and weekly alerts wait for their time; what was found meanwhile comes in the
// next digest, one mail per member.
func TestDigestFrequency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rs := research.New(db, research.Options{})
		if err := rs.Init(ctx); err != nil {
			t.Fatal(err)
		}
		key := 0
		importSurname := func(surname string, n int) {
			t.Helper()
			var b strings.Builder
			b.WriteString("record_id,record_type,date,place,role,surname,given_names\n")
			for range n {
				key++
				fmt.Fprintf(&b, "F%d,baptism,1850,Guildford,,%s,John\n", key, surname)
			}
			if _, err := rs.ImportRecords(ctx, strings.NewReader(b.String()), nil, research.ImportOptions{Collection: "parish", Bulk: research.BulkOff}, 0); err != nil {
				t.Fatal(err)
			}
		}
		importSurname("Oldham", 1)
		accounts := auth.New(db, auth.Options{})
		smtp := mailtest.Start(t, "", "")
		ob := mail.NewOutbox(db, &mail.SMTPSender{Host: smtp.Host, Port: smtp.Port, TLS: mail.TLSNone, From: "no-reply@lineage.test"}, nil)
		now := time.Now()
		svc := newsletter.New(db, newsletter.Options{Outbox: ob, PublicURL: "https://lineage.test", Accounts: newsletterAccounts{accounts},
			Finders: []newsletter.Finder{&recordsFinder{rs: rs, db: db, publicURL: "https://lineage.test"}}, Now: func() time.Time { return now }})
		u, _ := accounts.CreateUser(ctx, auth.NewUser{Email: "ann@example.org", Verified: true})
		for _, a := range []struct{ name, surname, freq string }{{"Quelch daily", "Quelch", "daily"}, {"Pask weekly", "Pask", "weekly"}} {
			addAlert(t, db, svc, u.ID, a.name, researchSearchPath, `{"surname":"`+a.surname+`","surname_mode":"exact"}`, a.freq)
		}
		seen := 0
		step := func(label string, wantDigest bool, want ...string) {
			t.Helper()
			if _, err := svc.RunDue(ctx, 100); err != nil {
				t.Fatal(err)
			}
			if _, err := ob.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
			got := smtp.Messages()[seen:]
			seen += len(got)
			if !wantDigest {
				if len(got) != 0 {
					t.Errorf("%s: %d digests, want none", label, len(got))
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%s: %d digests, want one", label, len(got))
			}
			recs := digestRecords(got[0].Parts["text/plain"].Body)
			var have []string
			for name, ids := range recs {
				have = append(have, fmt.Sprintf("%s:%d", name, len(ids)))
			}
			slices.Sort(have)
			if !slices.Equal(have, want) {
				t.Errorf("%s: digest %v, want %v", label, have, want)
			}
		}
		step("first run", false)
		importSurname("Quelch", 2)
		importSurname("Pask", 1)
		step("after the first import", true, "Pask weekly:1", "Quelch daily:2")
		importSurname("Quelch", 3)
		importSurname("Pask", 1)
		step("an hour later", false)
		now = now.Add(25 * time.Hour)
		step("the next day", true, "Quelch daily:3")
		now = now.Add(7 * 24 * time.Hour)
		step("a week later", true, "Pask weekly:1")
	})
}
