package research_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// headerMember stands in for the auth room: a request holds the scope its
// X-Test-Scope header lists, or a member's when X-Test-Member says so. cmd/lineage's
// tests run the API behind the real middleware.
type headerMember struct{}

func (headerMember) Scope(r *http.Request) []string {
	if sc := r.Header.Get("X-Test-Scope"); sc != "" {
		return strings.Fields(sc)
	}
	return scopeOf(r.Header.Get("X-Test-Member") == "yes")
}

// memberScope is a signed-in member's scope (GET /api/user's "scope").
var memberScope = []string{"registered", "member"}

// scopeOf is a member's scope or an anonymous visitor's.
func scopeOf(member bool) []string {
	if member {
		return memberScope
	}
	return nil
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newService(t testing.TB, db *store.DB, cap int) *research.Service {
	t.Helper()
	s := research.New(db, research.Options{Members: headerMember{}, Log: quietLog(), Cap: cap})
	s.Now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	if err := s.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// importFile imports a testdata file into a collection and fails on any error.
func importFile(t testing.TB, s *research.Service, file string, opts research.ImportOptions) *research.ImportReport {
	t.Helper()
	f, err := os.Open("testdata/" + file)
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

func importString(t testing.TB, s *research.Service, csv string, m *research.Mapping, opts research.ImportOptions) (*research.ImportReport, error) {
	t.Helper()
	return s.ImportRecords(context.Background(), strings.NewReader(csv), m, opts, 0)
}

// fixture is the tricky-names store every search test starts from.
func fixture(t testing.TB, db *store.DB, cap int) *research.Service {
	t.Helper()
	s := newService(t, db, cap)
	importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms", Title: "Surrey baptisms"})
	importFile(t, s, "burials.csv", research.ImportOptions{Collection: "london-burials", Title: "London burials", Access: research.AccessMembers})
	return s
}

func mustQuery(t testing.TB, params string) *research.Query {
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

func search(t testing.TB, s *research.Service, params string, member bool) *research.SearchResult {
	t.Helper()
	res, err := s.Search(context.Background(), mustQuery(t, params), scopeOf(member))
	if err != nil {
		t.Fatalf("search %s: %v", params, err)
	}
	return res
}

// keys lists the source record ids of results, in order (results carry ids; the
// fixture's keys are easier to read).
func keys(t testing.TB, s *research.Service, res *research.SearchResult) []string {
	t.Helper()
	var out []string
	for _, r := range res.Results {
		d, err := s.Record(context.Background(), r.ID, memberScope)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *d.Key)
	}
	return out
}
