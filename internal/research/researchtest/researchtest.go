// Package researchtest holds what the research room's tests share: a service on a
// test store with a fixed clock, a stand-in for the auth room's membership, the
// fixture files and helpers that import and search them. Only tests import it.
package researchtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/research"
	"lineage/internal/store"
)

// Members stands in for the auth room: a request holds the scope its
// X-Test-Scope header lists, or a member's when X-Test-Member says so. cmd/lineage's
// tests run the API behind the real middleware.
type Members struct{}

// Scope is the scope the request's test headers give.
func (Members) Scope(r *http.Request) []string {
	if sc := r.Header.Get("X-Test-Scope"); sc != "" {
		return strings.Fields(sc)
	}
	return ScopeOf(r.Header.Get("X-Test-Member") == "yes")
}

// MemberScope is a signed-in member's scope (GET /api/user's "scope").
var MemberScope = []string{"registered", "member"}

// ScopeOf is a member's scope or an anonymous visitor's.
func ScopeOf(member bool) []string {
	if member {
		return MemberScope
	}
	return nil
}

// QuietLog discards what the room logs.
func QuietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// NewService is the room on db with a fixed clock, Members for membership and
// the gazetteer loaded.
func NewService(t testing.TB, db *store.DB, cap int) *research.Service {
	t.Helper()
	s := research.New(db, research.Options{Members: Members{}, Log: QuietLog(), Cap: cap})
	s.Now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	if err := s.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// Broad is the room on db twice more, with caps of 1 and 3, so small that a search
// goes the broad way: a test compares their pages with a bounded room's.
func Broad(db *store.DB) []*research.Service {
	return []*research.Service{
		research.New(db, research.Options{Log: QuietLog(), Cap: 1}),
		research.New(db, research.Options{Log: QuietLog(), Cap: 3}),
	}
}

// ImportFile imports a testdata file into a collection and fails on any error.
func ImportFile(t testing.TB, s *research.Service, file string, opts research.ImportOptions) *research.ImportReport {
	t.Helper()
	f, err := os.Open(Testdata(file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := s.ImportRecords(context.Background(), f, nil, opts, 0)
	if err != nil {
		t.Fatalf("import %s: %v", file, err)
	}
	if rep.ErrorCount > 0 {
		t.Fatalf("import %s: bad rows: %v", file, rep.Errors)
	}
	return rep
}

// ImportString imports CSV text.
func ImportString(t testing.TB, s *research.Service, csv string, m *research.Mapping, opts research.ImportOptions) (*research.ImportReport, error) {
	t.Helper()
	return s.ImportRecords(context.Background(), strings.NewReader(csv), m, opts, 0)
}

// Fixture is the tricky-names store every Search test starts from.
func Fixture(t testing.TB, db *store.DB, cap int) *research.Service {
	t.Helper()
	s := NewService(t, db, cap)
	ImportFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms", Title: "Surrey baptisms"})
	ImportFile(t, s, "burials.csv", research.ImportOptions{Collection: "london-burials", Title: "London burials", Access: research.AccessMembers})
	return s
}

// MustQuery parses a search's query parameters and fails on any error.
func MustQuery(t testing.TB, params string) *research.Query {
	t.Helper()
	v, err := url.ParseQuery(params)
	if err != nil {
		t.Fatal(err)
	}
	q, errs := research.ParseQuery(v)
	if errs != nil {
		t.Fatalf("ParseQuery(%s): %v", params, errs)
	}
	return q
}

// Search runs a search as a member or a visitor and fails on any error.
func Search(t testing.TB, s *research.Service, params string, member bool) *research.SearchResult {
	t.Helper()
	res, err := s.Search(context.Background(), MustQuery(t, params), ScopeOf(member))
	if err != nil {
		t.Fatalf("search %s: %v", params, err)
	}
	return res
}

// Keys lists the source record ids of results, in order (results carry ids; the
// Fixture's Keys are easier to read).
func Keys(t testing.TB, s *research.Service, res *research.SearchResult) []string {
	t.Helper()
	var out []string
	for _, r := range res.Results {
		d, err := s.Record(context.Background(), r.ID, MemberScope)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *d.Key)
	}
	return out
}

// Testdata is the path of a file of the room's testdata directory, from any of its
// packages.
func Testdata(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "testdata", name)
}

// AllPagesAs follows a search's next links as a member or a visitor and lists
// every result as id:match:score, with the first page's total.
func AllPagesAs(t testing.TB, s *research.Service, params string, limit int, member bool) ([]string, int64, error) {
	t.Helper()
	var out []string
	after := ""
	var total int64
	for i := 0; i < 100; i++ {
		q := MustQuery(t, fmt.Sprintf("%s&limit=%d", params, limit))
		q.After = after
		res, err := s.Search(context.Background(), q, ScopeOf(member))
		if err != nil {
			return nil, 0, err
		}
		if i == 0 {
			total = res.Total
		}
		for _, r := range res.Results {
			out = append(out, fmt.Sprintf("%d:%d:%d", r.ID, r.Match, r.Score))
		}
		if res.Next == nil {
			return out, total, nil
		}
		after = *res.Next
	}
	return nil, 0, fmt.Errorf("more than 100 pages")
}

// Room is the research room as cmd/lineage's route table lists it (TestTestRoomsAreTheTable
// holds the two to each other), around session (nil: none; the tests then name the
// requester with headers, Members).
func Room(s *research.Service, session func(http.Handler) http.Handler, log *slog.Logger) httpx.Room {
	return httpx.Room{
		Name:     "research",
		Log:      log,
		Session:  session,
		Fallback: []string{"/api/research/", "/api/search"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/research/search", Handler: s.GetSearch, Access: httpx.Public},
			{Pattern: "GET /api/research/count", Handler: s.GetCount, Access: httpx.Public},
			{Pattern: "GET /api/research/records/{id}", Handler: s.GetRecord, Access: httpx.Public},
			{Pattern: "GET /api/research/collections", Handler: s.ListCollections, Access: httpx.Public},
			{Pattern: "GET /api/research/collections/{slug}", Handler: s.GetCollection, Access: httpx.Public},
			{Pattern: "GET /api/research/places", Handler: s.ListPlaces, Access: httpx.Public},
			{Pattern: "GET /api/research/vocabulary", Handler: s.GetVocabulary, Access: httpx.Public},
			{Pattern: "GET /api/search", Handler: s.GetGlobal, Access: httpx.Public},
		},
	}
}
