package staff_test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

type queueAnswer struct {
	Trees []struct {
		Slug         string
		Published    bool
		Living       int64
		WarningCount *int `json:"warning_count"`
		Warnings     []string
		Counts       struct{ People int64 }
	}
	Counts map[string]int
}

// TestTreeReviewQueue: a tree uploaded through the studio waits in the queue with its
// counts, living people and warnings; publishing it there (and through the trees
// room's own route) is in the audit log; registered accounts cannot see the queue.
func TestTreeReviewQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ed, _ := e.signedIn("Eddie", "editor")
		ged, err := os.ReadFile("../trees/testdata/privacy.ged")
		if err != nil {
			t.Fatal(err)
		}
		// A line the reader warns about and skips.
		ged = []byte(strings.Replace(string(ged), "0 @I1@ INDI\n", "0 @I1@ INDI\n1 _ODD what is this\nnot a gedcom line\n", 1))
		st, body := ed.upload("/api/studio/trees/uploads", map[string]string{"title": "Smith family"}, []formFile{{"file", "smith.ged", ged}})
		if st != http.StatusCreated || !strings.Contains(string(body), `"warning_count"`) {
			t.Fatalf("upload: %d %s", st, body)
		}
		var q queueAnswer
		st, body = ed.do("GET", "/api/studio/trees", nil)
		want(t, "queue", st, body, http.StatusOK, &q)
		if len(q.Trees) != 1 || q.Counts["waiting"] != 1 || q.Counts["published"] != 0 {
			t.Fatalf("queue: %s", body)
		}
		tr := q.Trees[0]
		if tr.Slug != "smith-family" || tr.Published || tr.Living == 0 || tr.Counts.People == 0 || tr.WarningCount == nil || *tr.WarningCount == 0 || len(tr.Warnings) == 0 {
			t.Errorf("queued tree: %+v", tr)
		}
		if st, body := ed.do("GET", "/api/studio/trees?state=odd", nil); st != http.StatusUnprocessableEntity {
			t.Errorf("bad state: %d %s", st, body)
		}
		if es := e.auditEntries(staff.ActionTreeUpload); len(es) != 1 || es[0].Subject != "tree:smith-family" {
			t.Errorf("upload audit: %+v", es)
		}

		var sum map[string]int
		st, body = ed.do("GET", "/api/studio/staff/summary", nil)
		want(t, "summary", st, body, http.StatusOK, &sum)
		if sum["trees_waiting"] != 1 || sum["jobs_running"] != 0 {
			t.Errorf("summary: %s", body)
		}
		st, body = ed.do("POST", "/api/studio/trees/smith-family/publish", nil)
		if st != http.StatusOK || !strings.Contains(string(body), `"published":true`) {
			t.Fatalf("publish: %d %s", st, body)
		}
		st, body = ed.do("GET", "/api/studio/trees?state=published", nil)
		want(t, "published", st, body, http.StatusOK, &q)
		if len(q.Trees) != 1 || q.Counts["waiting"] != 0 {
			t.Errorf("published list: %s", body)
		}
		if st, _ := ed.do("POST", "/api/studio/trees/no-such-tree/publish", nil); st != http.StatusNotFound {
			t.Errorf("unknown tree: %d", st)
		}
		if st, body := ed.do("POST", "/api/studio/trees/smith-family/unpublish", nil); st != http.StatusOK || !strings.Contains(string(body), `"published":false`) {
			t.Errorf("unpublish: %d %s", st, body)
		}
		// The trees room's own route, audited by the table's wrapper.
		if st, body := ed.do("POST", "/api/trees/smith-family/publish", nil); st != http.StatusOK {
			t.Fatalf("old publish: %d %s", st, body)
		}
		es := e.auditEntries(staff.ActionTreePublish)
		if len(es) != 2 || string(es[0].Before) != `{"published":false}` || string(es[0].After) != `{"published":true}` || string(es[1].Before) != `{"published":false}` {
			t.Errorf("publish audit: %+v", es)
		}
		if es := e.auditEntries(staff.ActionTreeUnpublish); len(es) != 1 {
			t.Errorf("unpublish audit: %+v", es)
		}
		if st, body := ed.do("POST", "/api/trees/smith-family/access", map[string]string{"access": "members"}); st != http.StatusOK {
			t.Fatalf("access: %d %s", st, body)
		}
		if es := e.auditEntries(staff.ActionTreeAccess); len(es) != 1 || string(es[0].Before) != `{"access":"public"}` || string(es[0].After) != `{"access":"members"}` {
			t.Errorf("access audit: %+v", es)
		}
		reg, _ := e.signedIn("Reg", "registered")
		if st, _ := reg.do("GET", "/api/studio/trees", nil); st != http.StatusForbidden {
			t.Errorf("registered sees the queue: %d", st)
		}
	})
}
