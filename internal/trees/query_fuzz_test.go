package trees_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/httpx"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// FuzzTreeQueries sends any query string, and any person id and section in the path,
// to every GET endpoint of the trees API on a small published tree, as a visitor and
// as staff: no panic, no 5xx, and every answer but a redirect is JSON.
func FuzzTreeQueries(f *testing.F) {
	for _, s := range []string{
		"surname=Smith&given=John&surname_mode=soundex&born_from=1800&born_to=1900&limit=5&offset=0",
		"person=I1&kind=hourglass&generations=3", "person=I9&kind=descendants&generations=99",
		"q=smi*&sort=name&limit=0", "offset=-1&limit=x", "surname=%00&given=%FF", "letter=S", "limit=1000000",
	} {
		f.Add(uint8(0), "I1", "events", s)
	}
	const ged = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n" +
		"0 @I1@ INDI\n1 NAME John /Smith/\n1 SEX M\n1 BIRT\n2 DATE 1820\n2 PLAC Rochdale\n1 DEAT\n2 DATE 1880\n1 FAMS @F1@\n" +
		"0 @I2@ INDI\n1 NAME Mary /Jones/\n1 SEX F\n1 BIRT\n2 DATE 1822\n1 DEAT\n2 DATE 1890\n1 FAMS @F1@\n" +
		"0 @I3@ INDI\n1 NAME Ann /Smith/\n1 BIRT\n2 DATE 1850\n1 DEAT\n2 DATE 1920\n1 FAMC @F1@\n" +
		"0 @F1@ FAM\n1 HUSB @I1@\n1 WIFE @I2@\n1 CHIL @I3@\n0 TRLR\n"
	db := storetest.SQLite(f)
	s := newService(f, db)
	r, err := gedcom.NewReader(bytes.NewReader([]byte(ged)), nil)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := s.Import(context.Background(), r, trees.ImportOptions{Slug: "fam", Title: "Fam", Published: published(true)}); err != nil {
		f.Fatal(err)
	}
	h := httpx.Serve(treesRoom(s))
	viewers := []trees.Viewer{{}, {ID: 3, Role: "editor"}}
	f.Fuzz(func(t *testing.T, which uint8, person, section, query string) {
		paths := []string{
			"/api/trees", "/api/trees/search", "/api/trees/fam", "/api/trees/fam/surnames", "/api/trees/fam/people",
			"/api/trees/fam/people/" + url.PathEscape(person), "/api/trees/fam/people/" + url.PathEscape(person) + "/" + url.PathEscape(section),
			"/api/trees/fam/graph",
		}
		path := paths[int(which)%len(paths)]
		req := httptest.NewRequest("GET", "/", nil)
		req.URL = &url.URL{Path: path, RawQuery: query}
		req.RequestURI = ""
		req = req.WithContext(withViewer(req.Context(), viewers[int(which>>4)%len(viewers)]))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("GET %s?%s: %d %s", path, query, rec.Code, rec.Body)
		}
		// The mux redirects a path it cleans (/people/0/. → /people/0) with its own page.
		if rec.Code/100 != 3 && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("GET %s?%s: %d, not JSON: %q", path, query, rec.Code, rec.Body)
		}
	})
}
