package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/store"
	"lineage/internal/trees"
)

const privacyFixture = "../../internal/trees/testdata/privacy.ged"

// TestGedcomCommands runs `lineage import gedcom` and `lineage export gedcom`.
func TestGedcomCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "fam", "--title", "The fixture", "--quiet", privacyFixture}); err != nil {
		t.Fatal(err)
	}
	if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "Bad Slug", privacyFixture}); err == nil {
		t.Error("a bad slug was accepted")
	}
	if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "x", "--owner", "nobody@example.org", privacyFixture}); err == nil {
		t.Error("an unknown owner was accepted")
	}
	out := func(args ...string) string {
		t.Helper()
		path := filepath.Join(dir, args[len(args)-1])
		args[len(args)-1] = path
		if err := commands["export"].run(ctx, append([]string{"gedcom", "--data", data, "--tree", "fam"}, args...)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	full := out("full.ged")
	public := out("--public", "public.ged")
	seven := out("--version", "7.0", "seven.ged")
	if !strings.Contains(full, "Robertus") || strings.Contains(public, "Robertus") || !strings.Contains(public, "Living //") {
		t.Errorf("--public did not hide the living:\n%s", public)
	}
	if !strings.Contains(seven, "2 VERS 7.0") || !strings.Contains(seven, "0 @N1@ SNOTE") || !strings.Contains(full, "2 VERS 5.5.1") {
		t.Errorf("--version 7.0:\n%s", seven)
	}
	zipped := out("tree.gdz")
	zr, err := zip.NewReader(strings.NewReader(zipped), int64(len(zipped)))
	if err != nil || len(zr.File) == 0 || zr.File[0].Name != "gedcom.ged" {
		t.Fatalf("GEDZIP: %v", err)
	}
	if err := commands["export"].run(ctx, []string{"gedcom", "--data", data, "--tree", "nothere", filepath.Join(dir, "x.ged")}); err == nil {
		t.Error("export of an unknown tree")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.ged")); err == nil {
		t.Error("a failed export left a file")
	}
	if err := commands["export"].run(ctx, []string{"gedcom", "--data", data, "--tree", "fam", "--version", "6", filepath.Join(dir, "y.ged")}); err == nil {
		t.Error("--version 6 accepted")
	}
	// The exports import again to the same tree.
	for _, f := range []string{"full.ged", "seven.ged", "tree.gdz"} {
		if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "again", "--quiet", filepath.Join(dir, f)}); err != nil {
			t.Fatalf("re-import %s: %v", f, err)
		}
		db := openData(t, data)
		var a, b int
		db.QueryRow(`SELECT n_people + n_families * 1000 + n_events * 1000000 FROM trees WHERE slug = 'fam'`).Scan(&a)
		db.QueryRow(`SELECT n_people + n_families * 1000 + n_events * 1000000 FROM trees WHERE slug = 'again'`).Scan(&b)
		db.Close()
		if a != b || a == 0 {
			t.Errorf("%s: counts %d, re-imported %d", f, a, b)
		}
	}
}

// TestTreesBehindAccounts serves the trees API as serve mounts it, behind the real
// accounts middleware, with the global search's family trees group.
func TestTreesBehindAccounts(t *testing.T) {
	ctx, _, _, a, srv := startSite(t, t.TempDir())
	if _, err := a.trees.LoadDemo(ctx, "../../demo/trees/"+trees.DemoFile); err != nil {
		t.Fatal(err)
	}
	_, tok := userWithToken(t, ctx, a, auth.NewUser{Email: "editor@example.org", Role: auth.RoleEditor})
	get := func(path, bearer string) string {
		t.Helper()
		return string(getOK(t, srv.URL+path, bearer))
	}
	if body := get("/api/trees", ""); !strings.Contains(body, `"slug":"ashworth-family"`) {
		t.Errorf("/api/trees: %s", body)
	}
	// I394 is living: Living to the public, in full to an editor.
	if body := get("/api/trees/ashworth-family/people/I394", ""); !strings.Contains(body, `"name":"Living"`) || strings.Contains(body, "Albert") {
		t.Errorf("living person to the public: %s", body)
	}
	if body := get("/api/trees/ashworth-family/people/I394", tok); !strings.Contains(body, "Albert Walter Ashworth") {
		t.Errorf("living person to an editor: %s", body)
	}
	var g struct {
		FamilyTrees struct {
			Total   int              `json:"total"`
			Results []map[string]any `json:"results"`
			Search  string           `json:"search"`
		} `json:"family_trees"`
	}
	json.Unmarshal([]byte(get("/api/search?q=Walter+Ashworth", "")), &g)
	if g.FamilyTrees.Total == 0 || len(g.FamilyTrees.Results) == 0 || !strings.Contains(g.FamilyTrees.Search, "surname=Ashworth") {
		t.Fatalf("global search family trees: %+v", g.FamilyTrees)
	}
	for _, r := range g.FamilyTrees.Results {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "Albert Walter") || strings.Contains(string(b), `"living":true`) {
			t.Errorf("global search shows the living: %s", b)
		}
	}
	if !strings.Contains(get("/api/search?q=Albert+Walter+Ashworth", tok), "Albert Walter Ashworth") {
		t.Error("an editor's global search does not find the living")
	}
	json.Unmarshal([]byte(get("/api/search?q=Albert+Walter+Ashworth", "")), &g)
	if b, _ := json.Marshal(g.FamilyTrees); strings.Contains(string(b), "Albert Walter") {
		t.Errorf("the public's global search finds the living: %s", b)
	}
}

// TestImportGedcomChildProcess is the child of TestImportGedcomKilled.
func TestImportGedcomChildProcess(t *testing.T) {
	if err := runImport(context.Background(), childArgs(t, "TestImportGedcomKilled")); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// TestImportGedcomKilled kills a real `lineage import gedcom` with SIGKILL while it
// writes: the store has no trace of the tree, and the old tree of the slug is intact.
func TestImportGedcomKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx := context.Background()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	big := filepath.Join(dir, "big.ged")
	var buf bytes.Buffer
	if err := trees.GenerateGEDCOM(&buf, 40000, 5); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(big, buf.Bytes(), 0o644)
	if err := runImport(ctx, []string{"gedcom", "--data", data, "--tree", "fam", "--quiet", privacyFixture}); err != nil {
		t.Fatal(err)
	}
	cmd := childCommand("TestImportGedcomChildProcess", []string{"gedcom", "--data", data, "--tree", "fam", "--quiet", big})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Kill once the import has written a few megabytes to the write-ahead log.
	wal := filepath.Join(data, "lineage.db-wal")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if st, err := os.Stat(wal); err == nil && st.Size() > 4<<20 {
			break
		}
		select {
		case err := <-exited:
			t.Skipf("the import finished (%v) before it could be killed", err)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the import never wrote")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	<-exited
	db := openData(t, data)
	defer db.Close()
	var people, records int
	db.QueryRow(`SELECT n_people FROM trees WHERE slug = 'fam'`).Scan(&people)
	db.QueryRow(`SELECT COUNT(*) FROM tree_people`).Scan(&records)
	if people != 8 || records != 8 {
		t.Fatalf("after the kill: tree has %d people, %d rows (want the old 8)", people, records)
	}
}

// TestServeDemoLoadsTrees: serve --demo loads the demo tree into an empty store once.
func TestServeDemoLoadsTrees(t *testing.T) {
	ctx := context.Background()
	demo, _ := filepath.Abs("../../demo")
	cfg := config.Config{DataDir: t.TempDir(), PublicURL: "http://localhost", Demo: true, DemoDir: demo}
	db, err := store.Open(ctx, cfg.Store())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		a := &app{}
		if err := a.addAccounts(ctx, cfg, db); err != nil {
			t.Fatal(err)
		}
		if err := a.addTrees(ctx, cfg, db); err != nil {
			t.Fatal(err)
		}
		tr, err := a.trees.Tree(ctx, trees.DemoSlug)
		if err != nil || !tr.Published || tr.Counts.People != 400 {
			t.Fatalf("demo tree: %+v %v", tr, err)
		}
	}
	var n int
	db.QueryRow(`SELECT COUNT(*) FROM trees`).Scan(&n)
	if n != 1 {
		t.Fatalf("%d trees after two starts", n)
	}
}
