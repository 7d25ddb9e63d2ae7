package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/research"
	"lineage/internal/store"
)

// TestResearchPaywallBehindAccounts runs the research API as serve mounts it, behind
// the real accounts middleware: a visitor and a registered account without a
// membership get the teaser of a members-only record, a member signed in with a bearer
// token gets the record.
func TestResearchPaywallBehindAccounts(t *testing.T) {
	ctx, _, db, a, srv := startSite(t, t.TempDir())

	csv := "record_id,record_type,date,place,role,surname,given_names,transcript,access\n" +
		"D1,burial,14 Jan 1851,\"Stepney, Middlesex\",principal,Smith,John,buried at Mile End,members\n"
	rep, err := research.New(db, research.Options{}).ImportRecords(ctx, strings.NewReader(csv), nil,
		research.ImportOptions{Collection: "burials"}, 0)
	if err != nil || rep.Added != 1 {
		t.Fatalf("%v %+v", err, rep)
	}
	u, tok := userWithToken(t, ctx, a, auth.NewUser{Email: "member@example.org"})
	get := func(path, bearer string) map[string]any {
		t.Helper()
		b := getOK(t, srv.URL+path, bearer)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("GET %s: %v: %s", path, err, b)
		}
		return m
	}
	check := func(who, bearer string, member bool) {
		t.Helper()
		m := get("/api/research/search?surname=Smith", bearer)
		r := m["results"].([]any)[0].(map[string]any)
		id := strconv.FormatFloat(r["id"].(float64), 'f', 0, 64)
		d := get("/api/research/records/"+id, bearer)
		if !member {
			if r["teaser"] != true || r["date"] != nil || d["teaser"] != true || d["transcript"] != nil {
				t.Errorf("%s: %v %v", who, r, d)
			}
		} else if r["teaser"] != false || d["transcript"] != "buried at Mile End" {
			t.Errorf("%s: %v %v", who, r, d)
		}
	}
	check("visitor", "", false)
	// A free account is registered, not a member: it gets the teaser too.
	check("registered", tok, false)
	if _, err := a.membership.GrantMember(ctx, 0, u.ID, "test"); err != nil {
		t.Fatal(err)
	}
	check("member", tok, true)

	// The other levels (internal/access): a registered collection opens for any
	// account, one of scopes only for those scopes, not for plain "member".
	for _, c := range []struct{ coll, access, surname string }{
		{"registered-only", "registered", "Jones"},
		{"overseas-only", "scopes:member:overseas", "Brown"},
	} {
		csv := "record_id,record_type,date,place,role,surname,given_names,transcript\n" +
			"X1,burial,1851,\"Stepney, Middlesex\",principal," + c.surname + ",Ann,a transcript\n"
		if _, err := research.New(db, research.Options{}).ImportRecords(ctx, strings.NewReader(csv), nil,
			research.ImportOptions{Collection: c.coll, Access: c.access}, 0); err != nil {
			t.Fatal(err)
		}
	}
	teaser := func(surname, bearer string) bool {
		t.Helper()
		r := get("/api/research/search?surname="+surname, bearer)["results"].([]any)[0].(map[string]any)
		d := get("/api/research/records/"+strconv.FormatFloat(r["id"].(float64), 'f', 0, 64), bearer)
		if r["teaser"] != d["teaser"] {
			t.Errorf("%s: result teaser %v, record teaser %v", surname, r["teaser"], d["teaser"])
		}
		return d["teaser"] == true
	}
	_, otherTok := userWithToken(t, ctx, a, auth.NewUser{Email: "registered@example.org"})
	if !teaser("Jones", "") || teaser("Jones", otherTok) {
		t.Error("a registered collection: want a teaser for a visitor only")
	}
	if !teaser("Brown", tok) || !teaser("Brown", otherTok) {
		t.Error("a scopes:member:overseas collection opened for scope member or registered")
	}

	// A membership that lapses closes members-only records again.
	until := time.Now().Add(time.Hour)
	if _, err := a.membership.GrantComplimentary(ctx, 0, u.ID, "", &until, "until the end of the hour"); err == nil {
		t.Fatal("a complimentary membership without a plan")
	}
	plan, err := a.membership.DefaultPlan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.membership.GrantComplimentary(ctx, 0, u.ID, plan.Slug, &until, "until the end of the hour"); err != nil {
		t.Fatal(err)
	}
	check("member until the end of the hour", tok, true)
	if n, err := a.membership.Advance(ctx, until.Add(time.Minute)); err != nil || n != 1 {
		t.Fatalf("Advance: %d %v", n, err)
	}
	check("lapsed", tok, false)

	// The global search is mounted too.
	if g := get("/api/search?q=Smith", ""); g["index"].(map[string]any)["total"].(float64) != 1 {
		t.Errorf("global search: %v", g)
	}
}

// TestImportCommand runs `lineage import records` on a file with a bad row.
func TestImportCommand(t *testing.T) {
	data, file := recordsInput(t, "b.csv", "B1,baptism,1850,Guildford,,Smith,John\nB2,baptism,1850,Guildford,,Smith,John\nB2,baptism,1851,,father,Smith,Wm\n")
	err := runImport(context.Background(), []string{"records", "--data", data, "--collection", "baptisms", "--quiet", file})
	if err != nil {
		t.Fatal(err)
	}
	db := openData(t, data)
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil || n != 1 {
		t.Errorf("records: %d %v (B2 has two dates and is skipped)", n, err)
	}
	err = runImport(context.Background(), []string{"records", "--data", data, "--collection", "baptisms", "--strict", "--quiet", file})
	if err == nil || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("--strict: %v", err)
	}
	if err := runImport(context.Background(), []string{"gedcom", "x"}); err == nil {
		t.Error("unknown kind: no error")
	}
	// A bad access level is refused before anything is read, naming the levels.
	err = runImport(context.Background(), []string{"records", "--data", data, "--collection", "wills", "--access", "gold", "--quiet", file})
	if err == nil || !strings.Contains(err.Error(), "use public, registered, members or scopes:") {
		t.Errorf("--access gold: %v", err)
	}
	err = runImport(context.Background(), []string{"records", "--data", data, "--collection", "wills", "--access", "scopes:member:overseas", "--quiet", file})
	var level string
	if err != nil || db.QueryRow(`SELECT access_level FROM collections WHERE slug = 'wills'`).Scan(&level) != nil || level != "scopes:member:overseas" {
		t.Errorf("--access scopes:member:overseas: %v %q", err, level)
	}
	gen := filepath.Join(t.TempDir(), "gen")
	if err := runDemo(context.Background(), []string{"generate", "--records", "50", "--out", gen}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(gen, "parish-baptisms.csv")); err != nil {
		t.Error(err)
	}
}

// TestServeDemoLoadsResearch: serve --demo fills an empty research hub once.
func TestServeDemoLoadsResearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Config{DataDir: t.TempDir(), PublicURL: "http://localhost", Demo: true}
	db, err := store.Open(ctx, cfg.Store())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := func() error { // the accounts and research rooms of assemble
		a := &app{}
		if err := a.addAccounts(ctx, cfg, db); err != nil {
			return err
		}
		return a.addResearch(ctx, cfg, db)
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil || n != demoResearchRecords {
		t.Fatalf("records after serve --demo: %d %v", n, err)
	}
	if err := start(); err != nil { // a second start adds nothing
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil || n != demoResearchRecords {
		t.Fatalf("records after a second start: %d %v", n, err)
	}
}

// TestImportCatalogues runs `lineage import library` and `import archive`.
func TestImportCatalogues(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	lib := testFile(t, dir, "lib.csv", "key,title,authors,year,subjects\nL1,Surrey parish registers,A. Clerk,1923,Parish registers\nL2,,Nobody,x,\n")
	arc := testFile(t, dir, "arc.csv", "reference,title,date,level,parent\nD/1,Papers of the Smith family,BET 1700 AND 1850,fonds,\nD/1/1,Deeds,1750,series,D/1\nD/2/1,Orphan,,item,D/2\n")
	for _, args := range [][]string{{"library", "--data", data, "--collection", "library", lib}, {"archive", "--data", data, "--collection", "archive", arc}} {
		if err := runImport(context.Background(), args); err != nil {
			t.Fatal(err)
		}
	}
	db := openData(t, data)
	defer db.Close()
	g, err := research.New(db, research.Options{}).Global(context.Background(), "papers smith", nil)
	if err != nil || g.Archive.Total != 1 {
		t.Errorf("archive: %v %+v", err, g.Archive)
	}
	g, err = research.New(db, research.Options{}).Global(context.Background(), "surrey registers", nil)
	if err != nil || g.Library.Total != 1 {
		t.Errorf("library (the bad row L2 skipped): %v %+v", err, g.Library)
	}
}
