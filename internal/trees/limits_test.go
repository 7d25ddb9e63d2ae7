package trees_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/gedcom"
	"lineage/internal/gedcom/gedcomtest"
	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// limitedService is newService's room with other limits (the accounts are newService's).
func limitedService(t *testing.T, db *store.DB, lim trees.Limits) *trees.Service {
	t.Helper()
	newService(t, db)
	s := trees.New(db, trees.Options{Log: quietLog(), Limits: lim, Viewer: func(ctx context.Context) trees.Viewer {
		v, _ := ctx.Value(viewerKey{}).(trees.Viewer)
		return v
	}})
	s.Now = func() time.Time { return testNow }
	return s
}

// gedOf is a GEDCOM file of n people (about 40 bytes each) with extra lines at the end of
// the first person.
func gedOf(n int, extra string) string {
	var b strings.Builder
	b.WriteString("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "0 @I%d@ INDI\n1 NAME Ann /Limitson/\n", i)
		if i == 1 {
			b.WriteString(extra)
		}
	}
	b.WriteString("0 TRLR\n")
	return b.String()
}

// gdzOf is a GEDZIP archive of the named files.
func gdzOf(t testing.TB, files ...[2]string) string {
	t.Helper()
	return string(gedcomtest.Zip(t, files...))
}

type errorAnswer struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

// upload sends one upload as the viewer and returns the status and the answer.
func upload(t *testing.T, h http.Handler, v trees.Viewer, title, filename, file string) (int, errorAnswer, string) {
	t.Helper()
	body, ct := uploadForm(title, "", filename, file)
	req, _ := http.NewRequest("POST", "/api/trees/uploads", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req = req.WithContext(withViewer(req.Context(), v))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var a errorAnswer
	json.Unmarshal(rec.Body.Bytes(), &a)
	return rec.Code, a, rec.Body.String()
}

// stored counts what the tree tables hold, hidden staging trees included.
func stored(t *testing.T, db *store.DB) string {
	t.Helper()
	var out []string
	for _, table := range []string{"trees", "tree_records", "tree_people", "tree_families", "tree_events", "tree_names", "tree_links"} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, table+"="+strconv.Itoa(n))
	}
	return strings.Join(out, " ")
}

var member = trees.Viewer{ID: ownerID, Role: "member"}

// TestUploadLimits: a file past any of the upload limits is refused with the limit named
// (413 for the file's own size, 422 for what is inside it), and nothing is stored.
func TestUploadLimits(t *testing.T) {
	lim := trees.Limits{UploadBytes: 64 << 10, ArchiveBytes: 1 << 20, ArchiveEntries: 20, Lines: 200, Records: 50, TextBytes: 1 << 10}
	longNote := "1 NOTE " + strings.Repeat("n", 200) + "\n" + strings.Repeat("2 CONT "+strings.Repeat("c", 200)+"\n", 5)
	manyLines := strings.Repeat("1 OCCU Limiter\n", 250)
	// 4 MB of blank lines after TRLR deflate to a few KB: a bomb within the upload limit.
	bomb := gedOf(1, "") + strings.Repeat("\n", 4<<20)
	many := [][2]string{{"gedcom.ged", gedOf(1, "")}}
	for i := range 30 {
		many = append(many, [2]string{"media/" + strconv.Itoa(i) + ".jpg", "x"})
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := limitedService(t, db, lim)
		h := httpx.Serve(treesRoom(s))
		empty := stored(t, db)
		for _, tc := range []struct {
			name, filename, file string
			status               int
			msg                  string
		}{
			{"ErrZipBomb", "bomb.gdz", gdzOf(t, [2]string{"gedcom.ged", bomb}), 422, "a GEDZIP archive may expand to at most 1 MB"},
			{"ErrZipBombInMedia", "bomb.gdz", gdzOf(t, [2]string{"gedcom.ged", gedOf(1, "")}, [2]string{"media/a.jpg", bomb}), 422, "a GEDZIP archive may expand to at most 1 MB"},
			{"ErrTooManyEntries", "many.gdz", gdzOf(t, many...), 422, "a GEDZIP archive may hold at most 20 files"},
			{"ErrTooManyLines", "lines.ged", gedOf(2, manyLines), 422, "a GEDCOM file may have at most 200 lines"},
			{"ErrTooManyRecords", "records.ged", gedOf(60, ""), 422, "a GEDCOM file may have at most 50 records"},
			{"ErrOverlongNote", "note.ged", gedOf(2, longNote), 422, "a text value (a NOTE or TEXT with its CONT and CONC lines) may be at most 1 KB"},
			{"ErrTooManyLinesInGEDZIP", "lines.gdz", gdzOf(t, [2]string{"gedcom.ged", gedOf(2, manyLines)}), 422, "a GEDCOM file may have at most 200 lines"},
			{"ErrUploadTooLarge", "big.ged", gedOf(2000, ""), 413, "The file may be at most 64 KB."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, a, body := upload(t, h, member, "Limits", tc.filename, tc.file)
				if code != tc.status || len(a.Errors["file"]) != 1 || !strings.Contains(a.Errors["file"][0], tc.msg) {
					t.Fatalf("status %d, body %s; want %d with errors.file naming %q", code, body, tc.status, tc.msg)
				}
				if got := stored(t, db); got != empty {
					t.Fatalf("stored after a refused upload: %s (before: %s)", got, empty)
				}
			})
		}
		// Within every limit, the same kinds of file are taken.
		for _, f := range [][2]string{
			{"ok.ged", gedOf(20, "1 NOTE short\n2 CONT note\n")},
			{"ok.gdz", gdzOf(t, [2]string{"gedcom.ged", gedOf(20, "")}, [2]string{"media/a.jpg", "x"})},
		} {
			if code, _, body := upload(t, h, member, "Within", f[0], f[1]); code != http.StatusCreated {
				t.Fatalf("%s within the limits: %d %s", f[0], code, body)
			}
		}
	})
}

// TestTreesPerMember: a member may own at most TreesPerMember trees; past it the upload
// answers 422 naming the limit and stores nothing. Editors are not bound by it.
func TestTreesPerMember(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := limitedService(t, db, trees.Limits{TreesPerMember: 2})
		h := httpx.Serve(treesRoom(s))
		for i := range 2 {
			if code, _, body := upload(t, h, member, "Tree "+strconv.Itoa(i), "a.ged", gedOf(1, "")); code != http.StatusCreated {
				t.Fatalf("upload %d: %d %s", i, code, body)
			}
		}
		before := stored(t, db)
		code, a, body := upload(t, h, member, "Third", "a.ged", gedOf(1, ""))
		if code != 422 || len(a.Errors["file"]) != 1 || a.Errors["file"][0] != "You may have at most 2 family trees. Delete one first." {
			t.Fatalf("third tree: %d %s", code, body)
		}
		if got := stored(t, db); got != before {
			t.Fatalf("stored %s, before %s", got, before)
		}
		if code, _, body := upload(t, h, trees.Viewer{ID: 3, Role: "editor"}, "Editor's", "a.ged", gedOf(1, "")); code != http.StatusCreated {
			t.Fatalf("an editor's upload: %d %s", code, body)
		}
	})
}

// TestBytesPerMember: the trees a member owns may hold at most BytesPerMember of GEDCOM
// in all, the upload's own bytes counted as it is read; past it the upload answers 422
// naming the limit and stores nothing.
func TestBytesPerMember(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// About 4 KB of GEDCOM each: the first fits in 6 KB, the second does not.
		s := limitedService(t, db, trees.Limits{BytesPerMember: 6 << 10})
		h := httpx.Serve(treesRoom(s))
		file := gedOf(100, "")
		if len(file) < 3<<10 || len(file) > 5<<10 {
			t.Fatalf("fixture of %d bytes", len(file))
		}
		if code, _, body := upload(t, h, member, "First", "a.ged", file); code != http.StatusCreated {
			t.Fatalf("first: %d %s", code, body)
		}
		before := stored(t, db)
		code, a, body := upload(t, h, member, "Second", "b.ged", file)
		if code != 422 || len(a.Errors["file"]) != 1 || !strings.HasPrefix(a.Errors["file"][0], "Your family trees may hold at most 6 KB of GEDCOM in all") {
			t.Fatalf("second: %d %s", code, body)
		}
		if got := stored(t, db); got != before {
			t.Fatalf("stored %s, before %s", got, before)
		}
		if n := len(mustOwn(t, s, member)); n != 1 {
			t.Fatalf("the member owns %d trees", n)
		}
		// Once the first is deleted there is room again.
		if err := s.Delete(context.Background(), mustOwn(t, s, member)[0].Slug); err != nil {
			t.Fatal(err)
		}
		if code, _, body := upload(t, h, member, "Second", "b.ged", file); code != http.StatusCreated {
			t.Fatalf("after a delete: %d %s", code, body)
		}
	})
}

func mustOwn(t *testing.T, s *trees.Service, v trees.Viewer) []*trees.Tree {
	t.Helper()
	own, err := s.OwnTrees(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	return own
}

// bigPerson is a file whose I1 has many names, events (each with several notes), notes,
// sources, media, and a family with many children.
func bigPerson(events, notes, children int, noteLen int) string {
	var b strings.Builder
	b.WriteString("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Big /Person/\n1 DEAT Y\n1 FAMS @F1@\n")
	text := strings.Repeat("t", noteLen)
	for i := range events {
		fmt.Fprintf(&b, "1 OCCU Job %d\n2 DATE %d\n2 NOTE %s\n2 NOTE %s\n", i, 1800+i%100, text, text)
	}
	for i := range notes {
		fmt.Fprintf(&b, "1 NOTE %d %s\n", i, text)
	}
	for i := range 150 {
		fmt.Fprintf(&b, "1 SOUR Source %d\n2 PAGE %d\n", i, i)
	}
	b.WriteString("0 @F1@ FAM\n1 HUSB @I1@\n")
	for i := range children {
		fmt.Fprintf(&b, "1 CHIL @C%d@\n", i)
	}
	for i := range children {
		fmt.Fprintf(&b, "0 @C%d@ INDI\n1 NAME Child%d /Person/\n1 DEAT Y\n1 FAMC @F1@\n", i, i)
	}
	b.WriteString("0 TRLR\n")
	return b.String()
}

// TestPersonAnswerBounded: however much a person holds, their answer keeps within about
// PersonAnswerBytes and PersonItems per list; what is cut comes in pages (more.*.next)
// that together give every item once, and every page is bounded too.
func TestPersonAnswerBounded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		lim := trees.Limits{PersonItems: 50, PersonAnswerBytes: 256 << 10}
		s := limitedService(t, db, lim)
		importString(t, s, "big", bigPerson(300, 120, 180, 2000))
		srv := testServer(t, s)
		const bound = 2 * (256 << 10) // the budget plus one item of up to the budget
		code, body := get(t, srv, editor, "/api/trees/big/people/I1")
		if code != 200 || len(body) > bound {
			t.Fatalf("person: status %d, %d bytes (bound %d)", code, len(body), bound)
		}
		var p struct {
			Events    []json.RawMessage                      `json:"events"`
			Notes     []string                               `json:"notes"`
			Sources   []json.RawMessage                      `json:"sources"`
			Families  []struct{ Children []json.RawMessage } `json:"families"`
			More      map[string]trees.More                  `json:"more"`
			Truncated bool                                   `json:"truncated"`
		}
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Events) > 50 || len(p.Notes) > 50 || len(p.Sources) > 50 {
			t.Fatalf("%d events, %d notes, %d sources in one answer", len(p.Events), len(p.Notes), len(p.Sources))
		}
		if len(p.Families) != 1 || len(p.Families[0].Children) > 50 || !p.Truncated {
			t.Fatalf("families %d, truncated %v", len(p.Families), p.Truncated)
		}
		for section, total := range map[string]int{"events": 301, "notes": 120, "sources": 150} {
			m, ok := p.More[section]
			if !ok || m.Total != total || m.Next == "" {
				t.Fatalf("more.%s = %+v, want total %d and a next page (more: %+v)", section, m, total, p.More)
			}
			// Walk the pages: every item once, each page bounded.
			seen := 0
			var first json.RawMessage
			next := "/api/trees/big/people/I1/" + section + "?offset=0"
			for next != "" {
				code, body := get(t, srv, editor, next)
				if code != 200 || len(body) > bound {
					t.Fatalf("%s: status %d, %d bytes", next, code, len(body))
				}
				var page struct {
					Total   int               `json:"total"`
					Results []json.RawMessage `json:"results"`
					Next    *string           `json:"next"`
				}
				json.Unmarshal([]byte(body), &page)
				if page.Total != total || len(page.Results) == 0 || len(page.Results) > 50 {
					t.Fatalf("%s: total %d, %d results", next, page.Total, len(page.Results))
				}
				if first == nil {
					first = page.Results[0]
				}
				seen += len(page.Results)
				next = ""
				if page.Next != nil {
					next = *page.Next
				}
			}
			if seen != total {
				t.Fatalf("%s: %d items over the pages, want %d", section, seen, total)
			}
		}
		// Bad paging is 422, an unknown list 404, and a living person's lists are empty.
		if code, _ := get(t, srv, editor, "/api/trees/big/people/I1/events?limit=51"); code != 422 {
			t.Fatalf("limit past PersonItems: %d", code)
		}
		if code, _ := get(t, srv, editor, "/api/trees/big/people/I1/secrets"); code != 404 {
			t.Fatalf("unknown section: %d", code)
		}
		if code, _ := get(t, srv, editor, "/api/trees/big/people/NOBODY/events"); code != 404 {
			t.Fatalf("unknown person: %d", code)
		}
	})
}

// importString imports a GEDCOM text as a published tree.
func importString(t *testing.T, s *trees.Service, slug, ged string) {
	t.Helper()
	r, err := gedcom.NewReader(strings.NewReader(ged), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(context.Background(), r, trees.ImportOptions{Slug: slug, Published: published(true)}); err != nil {
		t.Fatal(err)
	}
}

func TestLimitsReadEnv(t *testing.T) {
	env := map[string]string{"LINEAGE_TREE_UPLOAD_MB": "10", "LINEAGE_GEDZIP_MAX_MB": "300", "LINEAGE_GEDZIP_MAX_FILES": "50",
		"LINEAGE_GEDCOM_MAX_LINES": "1000", "LINEAGE_GEDCOM_MAX_RECORDS": "100", "LINEAGE_GEDCOM_MAX_TEXT_KB": "64",
		"LINEAGE_TREES_PER_MEMBER": "5", "LINEAGE_TREE_MB_PER_MEMBER": "20", "LINEAGE_PERSON_MAX_ITEMS": "30", "LINEAGE_PERSON_ANSWER_KB": "512"}
	var l trees.Limits
	if err := l.ReadEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	want := trees.Limits{UploadBytes: 10 << 20, ArchiveBytes: 300 << 20, ArchiveEntries: 50, Lines: 1000, Records: 100, TextBytes: 64 << 10,
		TreesPerMember: 5, BytesPerMember: 20 << 20, PersonItems: 30, PersonAnswerBytes: 512 << 10}
	if l != want {
		t.Fatalf("got %+v, want %+v", l, want)
	}
	for k, v := range map[string]string{"LINEAGE_TREES_PER_MEMBER": "0", "LINEAGE_GEDZIP_MAX_MB": "lots", "LINEAGE_PERSON_ANSWER_KB": "1"} {
		var l trees.Limits
		err := l.ReadEnv(func(name string) string {
			if name == k {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
	if s := trees.New(nil, trees.Options{}); s.Limits() != trees.DefaultLimits {
		t.Errorf("defaults: %+v", s.Limits())
	}
}

// TestPersonSectionLiving: a living person's lists are empty to a public reader in
// pages too ([] and no next page), and in full to the owner.
func TestPersonSectionLiving(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := limitedService(t, db, trees.Limits{})
		importString(t, s, "living", "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n0 @I1@ INDI\n1 NAME Lively /Person/\n1 BIRT\n2 DATE 1990\n1 NOTE Secretnote\n0 TRLR\n")
		srv := testServer(t, s)
		code, body := get(t, srv, anonymous, "/api/trees/living/people/I1/notes")
		if code != 200 || !strings.Contains(body, `"results":[]`) || !strings.Contains(body, `"next":null`) || strings.Contains(body, "Secretnote") {
			t.Fatalf("public: %d %s", code, body)
		}
		code, body = get(t, srv, editor, "/api/trees/living/people/I1/notes")
		if code != 200 || !strings.Contains(body, "Secretnote") || !strings.Contains(body, `"total":1`) {
			t.Fatalf("editor: %d %s", code, body)
		}
	})
}
