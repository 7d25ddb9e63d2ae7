package membership_test

import (
	"context"
	"testing"

	"lineage/internal/membership"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// Marketing consent is kept apart from the membership, with the words shown, the page
// and the time: given with the join form, withdrawn from the account page, both in
// "download my data", and gone with the account.
func TestMarketingConsent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db)
		e.auth.AddExporter(membership.ConsentExporter{Service: e.ms})
		e.plan(t, annual)
		uid, tok := e.user(t, "ada@example.org", "")
		if _, got := e.do(t, "GET", "/api/membership", tok, ""); got["marketing_consent"] != nil || got["marketing_wording"] != membership.MarketingWording {
			t.Fatalf("before any answer: %v", got)
		}
		if code, got := e.do(t, "POST", "/api/membership/join", tok, `{"plan":"individual","marketing_consent":true}`); code != 201 {
			t.Fatalf("join: %d %v", code, got)
		}
		_, got := e.do(t, "GET", "/api/membership", tok, "")
		c, _ := got["marketing_consent"].(map[string]any)
		if c["given"] != true || c["at"] != "2026-03-01T12:00:00Z" || c["wording"] != membership.MarketingWording || c["source"] != "/subscribe/individual" {
			t.Fatalf("after joining with consent: %v", got)
		}

		for _, bad := range []string{`{}`, `{"given":"no"}`, `{"given":false,"source":"https://evil.example/"}`, `{"given":false,"source":"//x"}`} {
			if code, got := e.do(t, "POST", "/api/membership/marketing-consent", tok, bad); code != 422 && code != 400 {
				t.Errorf("%s: %d %v, want a 4xx", bad, code, got)
			}
		}
		e.clock.Set(start.Add(days(5)))
		code, got := e.do(t, "POST", "/api/membership/marketing-consent", tok, `{"given":false}`)
		if c, _ := got["marketing_consent"].(map[string]any); code != 200 || c["given"] != false || c["at"] != "2026-03-06T12:00:00Z" || c["source"] != "/user-account/membership" {
			t.Fatalf("withdraw: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership", tok, ""); got["marketing_consent"].(map[string]any)["given"] != false {
			t.Errorf("after withdrawing: %v", got)
		}

		code, got = e.do(t, "GET", "/api/user/data", tok, "")
		list, _ := got["marketing_consents"].([]any)
		if code != 200 || len(list) != 2 || list[0].(map[string]any)["given"] != false || list[1].(map[string]any)["wording"] != membership.MarketingWording {
			t.Fatalf("my data: %d %v", code, got)
		}

		// Without the box ticked, joining records nothing.
		_, tok2 := e.user(t, "bob@example.org", "")
		if code, got := e.do(t, "POST", "/api/membership/join", tok2, `{"plan":"individual"}`); code != 201 {
			t.Fatalf("join: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership", tok2, ""); got["marketing_consent"] != nil {
			t.Errorf("an unticked box was recorded: %v", got)
		}

		fatal(t, e.auth.DeleteUser(ctx, uid))
		var left int
		fatal(t, db.QueryRowContext(ctx, `SELECT COUNT(*) FROM marketing_consents`).Scan(&left))
		if left != 0 {
			t.Errorf("after deleting the account: %d consent rows left", left)
		}
	})
}
