package staff_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

type peopleAnswer struct {
	People []staff.Person `json:"people"`
	Total  int            `json:"total"`
	Roles  []string       `json:"roles"`
}

// TestPeopleAccess: people and the audit log are for admins only; editors get 403.
func TestPeopleAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		editor, _ := e.signedIn("Eddie", "editor")
		member, _ := e.signedIn("Reg", "registered")
		anon := e.browser()
		for _, path := range []string{"/api/studio/people", "/api/studio/audit", "/api/studio/audit.csv"} {
			if st, body := editor.do("GET", path, nil); st != http.StatusForbidden {
				t.Errorf("editor %s: %d %s", path, st, body)
			}
			if st, _ := member.do("GET", path, nil); st != http.StatusForbidden {
				t.Errorf("registered %s: %d", path, st)
			}
			if st, _ := anon.do("GET", path, nil); st != http.StatusUnauthorized {
				t.Errorf("anonymous %s: %d", path, st)
			}
		}
		if st, _ := member.do("GET", "/api/studio/records/uploads", nil); st != http.StatusForbidden {
			t.Errorf("registered reaches the records tools: %d", st)
		}
		if st, _ := editor.do("GET", "/api/studio/records/uploads", nil); st != http.StatusOK {
			t.Errorf("editor cannot reach the records tools: %d", st)
		}
	})
}

// TestPeopleSearchRoleAndAudit: an admin finds an account, changes its role, and sees
// the change in the audit log (JSON and CSV) with before and after; bad input is a
// 422 naming the field; an admin cannot change their own role.
func TestPeopleSearchRoleAndAudit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		admin, me := e.signedIn("Ada", "admin")
		ann := e.user("Ann", "registered")
		e.user("Annabel", "editor")
		e.user("Bob", "registered")

		var pa peopleAnswer
		st, body := admin.do("GET", "/api/studio/people?q=ann", nil)
		want(t, "search", st, body, http.StatusOK, &pa)
		if pa.Total != 2 || len(pa.People) != 2 || pa.People[0].Name != "Ann" || pa.People[1].Name != "Annabel" || strings.Join(pa.Roles, ",") != "registered,editor,admin" {
			t.Fatalf("search ann: %+v", pa)
		}
		st, body = admin.do("GET", "/api/studio/people?role=editor", nil)
		want(t, "by role", st, body, http.StatusOK, &pa)
		if pa.Total != 1 || pa.People[0].Name != "Annabel" {
			t.Errorf("role=editor: %+v", pa)
		}
		st, body = admin.do("GET", "/api/studio/people?q=%25", nil)
		want(t, "percent", st, body, http.StatusOK, &pa)
		if pa.Total != 0 {
			t.Errorf("q=%% matched %d accounts", pa.Total)
		}
		if pa.People == nil {
			t.Error("people is null")
		}
		st, body = admin.do("GET", "/api/studio/people?limit=2&offset=1", nil)
		want(t, "page", st, body, http.StatusOK, &pa)
		if pa.Total != 4 || len(pa.People) != 2 || pa.People[0].Name != "Ann" {
			t.Errorf("page: %+v", pa)
		}
		for q, field := range map[string]string{"role=owner": "role", "status=gone": "status", "limit=0": "limit", "limit=x": "limit",
			"offset=-1": "offset", "q=" + strings.Repeat("a", 201): "q"} {
			st, body := admin.do("GET", "/api/studio/people?"+q, nil)
			if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"`+field+`"`) {
				t.Errorf("%s: %d %s", q, st, body)
			}
		}

		var one struct{ Person staff.Person }
		st, body = admin.do("PUT", fmt.Sprintf("/api/studio/people/%d/role", ann.ID), map[string]string{"role": "editor"})
		want(t, "role", st, body, http.StatusOK, &one)
		if one.Person.Role != "editor" {
			t.Errorf("role now %q", one.Person.Role)
		}
		if u, _ := e.acc.UserByID(t.Context(), ann.ID); u.Role != "editor" {
			t.Errorf("stored role %q", u.Role)
		}
		st, body = admin.do("PUT", fmt.Sprintf("/api/studio/people/%d/role", ann.ID), map[string]string{"role": "owner"})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"role":["The role must be one of registered, editor, admin."]`) {
			t.Errorf("bad role: %d %s", st, body)
		}
		if st, body := admin.do("PUT", fmt.Sprintf("/api/studio/people/%d/role", me.ID), map[string]string{"role": "registered"}); st != http.StatusForbidden {
			t.Errorf("own role: %d %s", st, body)
		}
		if st, _ := admin.do("PUT", "/api/studio/people/99999/role", map[string]string{"role": "editor"}); st != http.StatusNotFound {
			t.Errorf("unknown person: %d", st)
		}

		var log struct {
			Entries []struct {
				Action, Subject, Summary string
				Actor                    *struct{ ID int64 }
				Before, After            map[string]string
			}
			Actions []string
		}
		st, body = admin.do("GET", "/api/studio/audit?action=user.", nil)
		want(t, "audit", st, body, http.StatusOK, &log)
		if len(log.Entries) != 1 {
			t.Fatalf("audit entries: %s", body)
		}
		en := log.Entries[0]
		if en.Action != "user.role" || en.Subject != fmt.Sprintf("user:%d", ann.ID) || en.Actor == nil || en.Actor.ID != me.ID ||
			en.Before["role"] != "registered" || en.After["role"] != "editor" || !strings.Contains(en.Summary, "ann@example.org") {
			t.Errorf("entry: %+v", en)
		}
		if st, body := admin.do("GET", "/api/studio/audit?from=2026-13-01", nil); st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"from"`) {
			t.Errorf("bad date: %d %s", st, body)
		}

		req := admin.request("GET", "/api/studio/audit.csv?action=user.role", nil, "")
		res, err := admin.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(res.Body).ReadAll()
		res.Body.Close()
		if err != nil || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("csv: %v %v", res.Header, err)
		}
		if len(rows) != 2 || rows[1][5] != "user.role" || !strings.Contains(rows[1][9], "editor") {
			t.Errorf("csv rows %q", rows)
		}
	})
}

// TestDisableEnableAndReset: a disabled account is signed out and cannot sign in; an
// enabled one can; a reset link goes by mail, once a minute; all three are audited.
func TestDisableEnableAndReset(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		admin, me := e.signedIn("Ada", "admin")
		bea, u := e.signedIn("Bea", "editor")
		if st, _ := bea.do("GET", "/api/user", nil); st != http.StatusOK {
			t.Fatalf("Bea is not signed in: %d", st)
		}
		var one struct{ Person staff.Person }
		st, body := admin.do("POST", fmt.Sprintf("/api/studio/people/%d/disable", u.ID), nil)
		want(t, "disable", st, body, http.StatusOK, &one)
		if !one.Person.Disabled || one.Person.DisabledAt == nil {
			t.Errorf("person after disable: %+v", one.Person)
		}
		if st, _ := bea.do("GET", "/api/user", nil); st != http.StatusUnauthorized {
			t.Errorf("a disabled account's session still works: %d", st)
		}
		again := e.browser()
		st, body = again.do("POST", "/login", map[string]string{"email": u.Email, "password": "a long enough password"})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), "disabled") {
			t.Errorf("disabled sign-in: %d %s", st, body)
		}
		st, body = again.do("POST", "/api/tokens", map[string]string{"email": u.Email, "password": "a long enough password", "name": "script"})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), "disabled") {
			t.Errorf("disabled token: %d %s", st, body)
		}
		if st, body := admin.do("POST", fmt.Sprintf("/api/studio/people/%d/password-reset", u.ID), nil); st != http.StatusUnprocessableEntity {
			t.Errorf("reset of a disabled account: %d %s", st, body)
		}
		if st, _ := admin.do("POST", fmt.Sprintf("/api/studio/people/%d/disable", me.ID), nil); st != http.StatusForbidden {
			t.Errorf("disabling oneself: %d", st)
		}
		var pa peopleAnswer
		st, body = admin.do("GET", "/api/studio/people?status=disabled", nil)
		want(t, "disabled list", st, body, http.StatusOK, &pa)
		if pa.Total != 1 || pa.People[0].ID != u.ID {
			t.Errorf("disabled: %+v", pa)
		}

		st, body = admin.do("POST", fmt.Sprintf("/api/studio/people/%d/enable", u.ID), nil)
		want(t, "enable", st, body, http.StatusOK, &one)
		if one.Person.Disabled {
			t.Error("still disabled")
		}
		if st, body := again.do("POST", "/login", map[string]string{"email": u.Email, "password": "a long enough password"}); st != http.StatusNoContent {
			t.Errorf("sign-in after enable: %d %s", st, body)
		}

		st, body = admin.do("POST", fmt.Sprintf("/api/studio/people/%d/password-reset", u.ID), nil)
		if st != http.StatusAccepted || !strings.Contains(string(body), "Bea") {
			t.Fatalf("reset: %d %s", st, body)
		}
		if st, _ := admin.do("POST", fmt.Sprintf("/api/studio/people/%d/password-reset", u.ID), nil); st != http.StatusTooManyRequests {
			t.Errorf("second reset within a minute: %d", st)
		}
		if _, err := e.outbox.DeliverDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range e.smtp.Messages() {
			if len(m.To) == 1 && m.To[0] == u.Email && strings.Contains(m.Body, "token=") {
				found = true
			}
		}
		if !found {
			t.Error("no reset mail with a link reached Bea")
		}
		for _, action := range []string{staff.ActionUserDisable, staff.ActionUserEnable, staff.ActionUserPasswordReset} {
			if es := e.auditEntries(action); len(es) != 1 || es[0].Subject != fmt.Sprintf("user:%d", u.ID) {
				t.Errorf("%s: %+v", action, es)
			}
		}
	})
}
