package membership_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/clocktest"
	"lineage/internal/httpx"
	"lineage/internal/membership"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

func days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }
func ptr[T any](v T) *T        { return &v }
func fatal(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// accounts is the Accounts the import uses, on the real auth room (cmd/lineage has
// the same adapter).
type accounts struct{ a *auth.Service }

func (x accounts) AccountID(ctx context.Context, email string) (int64, error) {
	u, err := x.a.UserByEmail(ctx, email)
	if errors.Is(err, auth.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return u.ID, nil
}

func (x accounts) EnsureAccount(ctx context.Context, email, name string) (int64, error) {
	u, err := x.a.CreateUser(ctx, auth.NewUser{Email: email, Name: name, Verified: true})
	if errors.Is(err, auth.ErrEmailTaken) {
		return x.AccountID(ctx, email)
	}
	if err != nil {
		return 0, err
	}
	return u.ID, nil
}

// env is one store with the real auth room and the membership room behind its
// middleware, as cmd/lineage mounts them.
type env struct {
	db    *store.DB
	auth  *auth.Service
	ms    *membership.Service
	clock *clocktest.Clock
	srv   *httptest.Server
}

var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newEnv is the membership room behind auth's front door on db, with plans on sale.
func newEnv(t *testing.T, db *store.DB, plans ...membership.Plan) *env {
	e := &env{db: db, clock: clocktest.New(start)}
	e.auth = auth.New(db, auth.Options{Password: auth.TestPasswordParams})
	e.ms = membership.New(db, membership.Options{Viewer: viewer, Accounts: accounts{e.auth}, SocietyName: "Test Society"})
	e.ms.Now = e.clock.Now
	e.auth.SetScopeSource(e.ms.ScopesFor)
	e.srv = httptest.NewServer(httpx.Serve(authtest.AuthRoom(e.auth, nil), membershipRoom(e.ms, e.auth.Middleware)))
	t.Cleanup(e.srv.Close)
	for _, p := range plans {
		e.plan(t, p)
	}
	return e
}

func viewer(r *http.Request) membership.Viewer {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return membership.Viewer{}
	}
	return membership.Viewer{ID: u.ID, Name: u.Name, Email: u.Email, Admin: u.Role == auth.RoleAdmin}
}

// user makes an account and a bearer token for it.
func (e *env) user(t *testing.T, email, role string) (int64, string) {
	t.Helper()
	return authtest.User(t, e.auth, email, role)
}

// joined makes an account, a bearer token for it and a pending membership of the
// individual plan.
func (e *env) joined(t *testing.T, email string) (int64, string, *membership.Membership) {
	t.Helper()
	uid, tok := e.user(t, email, "")
	m, err := e.ms.Join(context.Background(), uid, "individual", "")
	fatal(t, err)
	return uid, tok, m
}

func (e *env) do(t *testing.T, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	return authtest.CallJSON(t, e.srv.URL, method, path, token, body)
}

// scope is GET /api/user's scope.
func (e *env) scope(t *testing.T, token string) []string {
	t.Helper()
	code, u := e.do(t, "GET", "/api/user", token, "")
	if code != 200 {
		t.Fatalf("GET /api/user: %d %v", code, u)
	}
	var out []string
	for _, s := range u["scope"].([]any) {
		out = append(out, s.(string))
	}
	return out
}

func (e *env) plan(t *testing.T, p membership.Plan) membership.Plan {
	t.Helper()
	p, err := e.ms.SavePlan(context.Background(), p)
	fatal(t, err)
	return p
}

var annual = membership.Plan{Slug: "individual", Name: "Individual", PriceMinor: 2400, Period: membership.PeriodAnnual, OnSale: true}

func statuses(h []membership.HistoryRow) string {
	var out []string
	for _, r := range h {
		out = append(out, r.From+">"+r.To)
	}
	return strings.Join(out, " ")
}

// Every transition on the fake clock: pending on joining, active on payment (a second
// report of the same payment extends it once), grace and lapsed as Advance is run
// later, each with its history row; the scope follows through GET /api/user.
func TestTransitions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		uid, tok := e.user(t, "ada@example.org", "")
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered"}) {
			t.Fatalf("scope of a registered account = %v", got)
		}
		m, err := e.ms.Join(ctx, uid, "individual", "")
		fatal(t, err)
		if m.Status != membership.StatusPending || !regexp.MustCompile(`^M-\d{6}$`).MatchString(m.Number) {
			t.Fatalf("joined: %+v", m)
		}
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered"}) {
			t.Errorf("scope while pending = %v", got)
		}
		pay := membership.Payment{MembershipID: m.ID, ExternalID: "in_1", AmountMinor: 2400, Currency: "GBP"}
		fatal(t, e.ms.Paid(ctx, pay))
		fatal(t, e.ms.Paid(ctx, pay)) // the same payment again
		m, err = e.ms.ByID(ctx, m.ID)
		fatal(t, err)
		want := start.AddDate(1, 0, 0)
		if m.Status != membership.StatusActive || m.PaidUntil == nil || !m.PaidUntil.Equal(want) {
			t.Fatalf("after payment: %s until %v, want active until %v", m.Status, m.PaidUntil, want)
		}
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 1 || r[0].AmountMinor != 2400 {
			t.Errorf("receipts %+v", r)
		}
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered", "member"}) {
			t.Errorf("scope while active = %v", got)
		}

		// A day past paid-until: grace, still a member; twice changes nothing more.
		e.clock.Set(want.Add(days(1)))
		n, err := e.ms.Advance(ctx, e.clock.Now())
		fatal(t, err)
		if n2, _ := e.ms.Advance(ctx, e.clock.Now()); n != 1 || n2 != 0 {
			t.Errorf("Advance changed %d then %d, want 1 then 0", n, n2)
		}
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered", "member"}) {
			t.Errorf("scope in grace = %v", got)
		}
		// Past the 30 days of grace: lapsed, not a member.
		e.clock.Set(want.Add(days(30)))
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered"}) {
			t.Errorf("scope after grace, before Advance ran = %v", got)
		}
		if n, err := e.ms.Advance(ctx, e.clock.Now()); err != nil || n != 1 {
			t.Errorf("Advance: %d %v", n, err)
		}
		h, err := e.ms.History(ctx, m.ID)
		fatal(t, err)
		if got := statuses(h); got != ">pending pending>active active>grace grace>lapsed" {
			t.Errorf("history %s", got)
		}
		if h[1].By != "system" || !strings.Contains(h[1].Why, "in_1") || !h[3].At.Equal(want.Add(days(30))) {
			t.Errorf("history rows %+v", h)
		}

		// Rejoining after the lapse keeps the number; paying again makes it active.
		m2, err := e.ms.Join(ctx, uid, "individual", "")
		fatal(t, err)
		if m2.Number != m.Number || m2.Status != membership.StatusPending {
			t.Errorf("rejoined: %s %s, want %s pending", m2.Number, m2.Status, m.Number)
		}
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: m.ID, ExternalID: "in_2", AmountMinor: 2400, Currency: "GBP"}))
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered", "member"}) {
			t.Errorf("scope after rejoining = %v", got)
		}
		// A full refund of that payment takes the membership away again.
		fatal(t, e.ms.Refunded(ctx, membership.Refund{ExternalID: "in_2", RefundedMinor: 2400}))
		fatal(t, e.ms.Refunded(ctx, membership.Refund{ExternalID: "in_2", RefundedMinor: 2400}))
		m, _ = e.ms.ByID(ctx, m.ID)
		if m.Status != membership.StatusLapsed {
			t.Errorf("after refund: %s", m.Status)
		}
		if h, _ := e.ms.History(ctx, m.ID); strings.Count(statuses(h), "active>lapsed") != 1 {
			t.Errorf("refund history %s", statuses(h))
		}
	})
}

// A room bound to the caller's transaction (In) writes in it, as the payments room
// needs for a Stripe event and its effect: a payment recorded there is gone when the
// caller rolls back, and kept when it commits.
func TestInJoinsTheCallersTransaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		_, _, m := e.joined(t, "ada@example.org")
		pay := membership.Payment{MembershipID: m.ID, ExternalID: "in_1", AmountMinor: 2400, Currency: "GBP"}
		errCaller := errors.New("the caller's own write failed")
		err := db.InTx(ctx, func(tx *sql.Tx) error {
			if err := e.ms.In(tx).Paid(ctx, pay); err != nil {
				return err
			}
			return errCaller
		})
		if !errors.Is(err, errCaller) {
			t.Fatalf("the caller's transaction: %v", err)
		}
		m, err = e.ms.ByID(ctx, m.ID)
		fatal(t, err)
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 0 || m.Status != membership.StatusPending {
			t.Fatalf("after the caller rolled back: %s with %d receipts", m.Status, len(r))
		}
		fatal(t, db.InTx(ctx, func(tx *sql.Tx) error { return e.ms.In(tx).Paid(ctx, pay) }))
		m, err = e.ms.ByID(ctx, m.ID)
		fatal(t, err)
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 1 || m.Status != membership.StatusActive {
			t.Errorf("after the caller committed: %s with %d receipts", m.Status, len(r))
		}
	})
}

// Two instances run Advance on one store at once: each transition is recorded once.
func TestAdvanceTwoInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		var ids []int64
		for i := range 5 {
			_, _, m := e.joined(t, fmt.Sprintf("m%d@example.org", i))
			fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: m.ID, ExternalID: fmt.Sprint("in_", i), AmountMinor: 2400, Currency: "GBP"}))
			ids = append(ids, m.ID)
		}
		other := membership.New(db, membership.Options{})
		later := start.AddDate(1, 0, 2)
		var wg sync.WaitGroup
		counts := make([]int, 2)
		for i, s := range []*membership.Service{e.ms, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := s.Advance(ctx, later)
				if err != nil {
					t.Error(err)
				}
				counts[i] = n
			}()
		}
		wg.Wait()
		if counts[0]+counts[1] != 5 {
			t.Errorf("the instances changed %v memberships, want 5 in all", counts)
		}
		for _, id := range ids {
			h, _ := e.ms.History(ctx, id)
			if got := statuses(h); got != ">pending pending>active active>grace" {
				t.Errorf("membership %d: %s", id, got)
			}
		}
	})
}

// Numbers are unique when many memberships are made at once, and an imported number
// is skipped by the counter.
func TestNumbersUnique(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		// An imported member holds M-000003 already.
		_, err := e.ms.ImportCSV(ctx, 0, strings.NewReader("name,email,plan,paid_until,number\nOld,old@example.org,individual,2027-01-01,M-000003\n"), false)
		fatal(t, err)
		const n = 12
		var uids []int64
		for i := range n {
			uid, _ := e.user(t, fmt.Sprintf("n%d@example.org", i), "")
			uids = append(uids, uid)
		}
		numbers := make([]string, n)
		var wg sync.WaitGroup
		for i, uid := range uids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m, err := e.ms.GrantComplimentary(ctx, 0, uid, "individual", nil, "")
				if err != nil {
					t.Error(err)
					return
				}
				numbers[i] = m.Number
			}()
		}
		wg.Wait()
		seen := map[string]bool{"M-000003": true}
		for _, num := range numbers {
			if seen[num] || !regexp.MustCompile(`^M-\d{6}$`).MatchString(num) {
				t.Errorf("number %q repeated or malformed: %v", num, numbers)
			}
			seen[num] = true
		}
	})
}

// A household plan for two: the holder's membership grants its scopes to the second
// person, whether they had an account when invited or made one later; a third is
// refused; a removed member loses the scopes.
func TestHousehold(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db)
		e.plan(t, membership.Plan{Slug: "joint", Name: "Joint", PriceMinor: 3000, Period: membership.PeriodAnnual, HouseholdSize: 2, OnSale: true})
		e.plan(t, membership.Plan{Slug: "family", Name: "Family", PriceMinor: 4000, Period: membership.PeriodAnnual, HouseholdSize: 3, OnSale: true,
			Scopes: []string{"member", "member:family"}})
		holder, htok := e.user(t, "holder@example.org", "")
		bob, btok := e.user(t, "bob@example.org", "")

		code, body := e.do(t, "POST", "/api/membership/join", htok, `{"plan":"joint","household":[{"name":"Bob","email":"bob@example.org"},{"name":"Cy","email":"cy@example.org"}]}`)
		if code != 422 || body["errors"].(map[string]any)["household"] == nil {
			t.Errorf("joining with three people on a plan for two: %d %v", code, body)
		}
		code, body = e.do(t, "POST", "/api/membership/join", htok, `{"plan":"joint","household":[{"name":"Bob","email":"bob@example.org"}]}`)
		if code != 201 {
			t.Fatalf("join: %d %v", code, body)
		}
		m, err := e.ms.ForUser(ctx, holder)
		fatal(t, err)
		if len(m.Household) != 1 || m.Household[0].Status != "joined" || m.Household[0].Email != "bob@example.org" {
			t.Errorf("household %+v", m.Household)
		}
		if got := e.scope(t, btok); slices.Contains(got, "member") {
			t.Errorf("household member of a pending membership has %v", got)
		}
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: m.ID, ExternalID: "cs_1", AmountMinor: 3000, Currency: "GBP"}))
		if got := e.scope(t, btok); !slices.Equal(got, []string{"registered", "member"}) {
			t.Errorf("household member's scope = %v", got)
		}
		code, body = e.do(t, "POST", "/api/membership/household", htok, `{"name":"Cy","email":"cy@example.org"}`)
		if code != 422 || !strings.Contains(fmt.Sprint(body["errors"]), "at most 2 people") {
			t.Errorf("a third person: %d %v", code, body)
		}
		code, _ = e.do(t, "DELETE", fmt.Sprintf("/api/membership/household/%d", bob), htok, "")
		if got := e.scope(t, btok); code != 200 || slices.Contains(got, "member") {
			t.Errorf("removed (%d): scope %v", code, got)
		}

		// Invited before having an account: the scopes come with the account.
		_, err = e.ms.ChangePlan(ctx, 0, m.ID, "family", "")
		fatal(t, err)
		_, err = e.ms.AddHousehold(ctx, holder, m.ID, "Dee", "dee@example.org")
		fatal(t, err)
		dee, dtok := e.user(t, "dee@example.org", "")
		if got := e.scope(t, dtok); !slices.Equal(got, []string{"registered", "member", "member:family"}) {
			t.Errorf("invited, then registered: scope %v", got)
		}
		// The invitation is now the account's: deleting it (GDPR) leaves no name or
		// address in the household, which shows nobody in its place.
		fatal(t, e.auth.DeleteUser(ctx, dee))
		var left int
		fatal(t, db.QueryRowContext(ctx, `SELECT COUNT(*) FROM membership_household WHERE name <> '' OR email <> ''`).Scan(&left))
		m, err = e.ms.ByID(ctx, m.ID)
		fatal(t, err)
		if left != 0 || len(m.Household) != 0 {
			t.Errorf("after deleting the account: %d rows with a name or address; household %+v", left, m.Household)
		}
	})
}

// The scope rule for staff and a plan with its own scope; complimentary memberships
// with an end lapse at it.
func TestScopeRule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, membership.Plan{Slug: "overseas", Name: "Overseas", PriceMinor: 2800, Period: membership.PeriodAnnual, OnSale: true, Scopes: []string{"member", "member:overseas"}})
		_, etok := e.user(t, "ed@example.org", auth.RoleEditor)
		_, atok := e.user(t, "ad@example.org", auth.RoleAdmin)
		if got := e.scope(t, etok); !slices.Equal(got, []string{"registered", "member", "editor"}) {
			t.Errorf("editor %v", got)
		}
		if got := e.scope(t, atok); !slices.Equal(got, []string{"registered", "member", "editor", "admin"}) {
			t.Errorf("admin %v", got)
		}
		uid, tok := e.user(t, "os@example.org", "")
		_, err := e.ms.GrantComplimentary(ctx, 0, uid, "overseas", ptr(start.Add(days(10))), "honorary")
		fatal(t, err)
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered", "member", "member:overseas"}) {
			t.Errorf("overseas %v", got)
		}
		e.clock.Add(days(10))
		if got := e.scope(t, tok); !slices.Equal(got, []string{"registered"}) {
			t.Errorf("after the complimentary end %v", got)
		}
		if n, err := e.ms.Advance(ctx, e.clock.Now()); n != 1 || err != nil {
			t.Errorf("Advance %d %v", n, err)
		}
		m, _ := e.ms.ForUser(ctx, uid)
		if h, _ := e.ms.History(ctx, m.ID); statuses(h) != ">complimentary complimentary>lapsed" {
			t.Errorf("history %s", statuses(h))
		}
	})
}

// Admins record a manual payment through the API: bad fields answer 422 with field
// errors and change nothing; a good one makes the membership active; others get 403.
func TestManualPaymentAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		_, atok := e.user(t, "admin@example.org", auth.RoleAdmin)
		_, tok, m := e.joined(t, "pat@example.org")
		path := fmt.Sprintf("/api/admin/members/%d/payments", m.ID)
		if code, _ := e.do(t, "POST", path, tok, `{"amount_minor":2400}`); code != 403 {
			t.Errorf("a member recording a payment: %d", code)
		}
		code, body := e.do(t, "POST", path, atok, `{"amount_minor":24.5,"currency":"pounds","method":"stripe","paid_until":"soon"}`)
		errs, _ := body["errors"].(map[string]any)
		if code != 422 || errs["amount_minor"] == nil || errs["paid_until"] == nil {
			t.Errorf("bad payment: %d %v", code, body)
		}
		code, body = e.do(t, "POST", path, atok, `{"amount_minor":2400,"currency":"gbp1","method":"stripe"}`)
		errs, _ = body["errors"].(map[string]any)
		if code != 422 || errs["currency"] == nil || errs["method"] == nil {
			t.Errorf("bad currency and method: %d %v", code, body)
		}
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 0 {
			t.Errorf("a refused payment was recorded: %+v", r)
		}
		code, body = e.do(t, "POST", path, atok, `{"amount_minor":2400,"currency":"GBP","method":"manual","note":"cheque 100234"}`)
		if code != 201 || body["status"] != "active" {
			t.Fatalf("manual payment: %d %v", code, body)
		}
		if got := e.scope(t, tok); !slices.Contains(got, "member") {
			t.Errorf("after a manual payment: %v", got)
		}
		code, body = e.do(t, "GET", fmt.Sprintf("/api/admin/members/%d", m.ID), atok, "")
		hist, _ := body["history"].([]any)
		pays, _ := body["payments"].([]any)
		if code != 200 || len(hist) != 2 || len(pays) != 1 || hist[1].(map[string]any)["by"] != "admin" {
			t.Errorf("detail: %d %v", code, body)
		}
		code, body = e.do(t, "GET", "/api/admin/members?q=pat", atok, "")
		if code != 200 || body["total"] != float64(1) {
			t.Errorf("search: %d %v", code, body)
		}
		// Complimentary and change of plan through the API.
		e.plan(t, membership.Plan{Slug: "life", Name: "Life", PriceMinor: 40000, Period: membership.PeriodLifetime, OnSale: true})
		code, body = e.do(t, "POST", fmt.Sprintf("/api/admin/members/%d/plan", m.ID), atok, `{"plan":"nope"}`)
		if code != 422 {
			t.Errorf("unknown plan: %d %v", code, body)
		}
		code, body = e.do(t, "POST", fmt.Sprintf("/api/admin/members/%d/complimentary", m.ID), atok, `{"plan":"life","why":"honorary member"}`)
		if code != 200 || body["status"] != "complimentary" {
			t.Errorf("complimentary: %d %v", code, body)
		}
	})
}

// A CSV import checks every row first: a dry run counts, a bad row is named by line
// and column and nothing is imported; a good file adds and updates.
func TestImportCSV(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual, membership.Plan{Slug: "life", Name: "Life", PriceMinor: 40000, Period: membership.PeriodLifetime, OnSale: true})
		uid, _, _ := e.joined(t, "known@example.org")

		good := "name,email,plan,paid_until,number\n" +
			"Ann,ann@example.org,individual,2026-12-31,L-17\n" +
			"Known,known@example.org,individual,2027-01-31,\n" +
			"Lou,lou@example.org,life,,\n"
		rep, err := e.ms.ImportCSV(ctx, 0, strings.NewReader(good), true)
		fatal(t, err)
		if rep.WouldAdd != 2 || rep.WouldUpdate != 1 || len(rep.Errors) != 0 || rep.Imported {
			t.Errorf("dry run %+v", rep)
		}
		if res, _ := e.ms.Search(ctx, "", "", 1); res.Total != 1 {
			t.Errorf("a dry run imported: %d memberships", res.Total)
		}

		bad := "name,email,plan,paid_until,number\n" +
			"Ann,ann@example.org,individual,2026-12-31,L-17\n" +
			"Bea,not-an-address,individual,2026-12-31,\n" +
			"Cal,cal@example.org,gold,31/12/2026,\n" +
			"\"Dan,dan@example.org,individual\n"
		rep, err = e.ms.ImportCSV(ctx, 0, strings.NewReader(bad), false)
		fatal(t, err)
		type lc struct {
			line   int
			column string
		}
		var got []lc
		for _, x := range rep.Errors {
			got = append(got, lc{x.Line, x.Column})
		}
		want := []lc{{3, "email"}, {4, "plan"}, {4, "paid_until"}, {5, "33"}}
		if !slices.Equal(got, want) || rep.Imported {
			t.Errorf("errors %v, want %v (%+v)", got, want, rep.Errors)
		}
		if res, _ := e.ms.Search(ctx, "", "", 1); res.Total != 1 {
			t.Errorf("a file with bad rows imported: %d memberships", res.Total)
		}
		if _, err := e.auth.UserByEmail(ctx, "ann@example.org"); !errors.Is(err, auth.ErrNotFound) {
			t.Errorf("a file with bad rows made an account: %v", err)
		}

		rep, err = e.ms.ImportCSV(ctx, 0, strings.NewReader(good), false)
		fatal(t, err)
		if !rep.Imported {
			t.Fatalf("import %+v", rep)
		}
		ann, err := e.ms.ByNumber(ctx, "L-17")
		fatal(t, err)
		if ann.Email != "ann@example.org" || ann.Status != membership.StatusActive || ann.PaidUntil.Format(time.DateOnly) != "2026-12-31" {
			t.Errorf("ann %+v", ann)
		}
		known, _ := e.ms.ForUser(ctx, uid)
		if known.Status != membership.StatusActive || known.PaidUntil.Format(time.DateOnly) != "2027-01-31" {
			t.Errorf("known %+v", known)
		}
		var csv strings.Builder
		fatal(t, e.ms.ExportCSV(ctx, &csv))
		if !strings.Contains(csv.String(), "L-17,Ann,ann@example.org,individual,,active,manual") || strings.Count(csv.String(), "\n") != 4 {
			t.Errorf("export:\n%s", csv.String())
		}
		// The export reads back as an import that changes no one's number.
		rep, err = e.ms.ImportCSV(ctx, 0, strings.NewReader(csv.String()), true)
		fatal(t, err)
		if len(rep.Errors) != 0 || rep.WouldUpdate != 3 {
			t.Errorf("export as import: %+v", rep)
		}
	})
}

// Deleting an account (GDPR) leaves its membership, payments and history anonymous.
func TestAccountDeletionKeepsAnonymousRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		uid, _, m := e.joined(t, "gone@example.org")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: m.ID, ExternalID: "in_9", AmountMinor: 2400, Currency: "GBP"}))
		fatal(t, e.auth.DeleteUser(ctx, uid))
		m, err := e.ms.ByID(ctx, m.ID)
		fatal(t, err)
		if m.UserID != nil || m.Email != "" || m.Name != "" {
			t.Errorf("membership keeps the person: %+v", m)
		}
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 1 || r[0].AmountMinor != 2400 {
			t.Errorf("payments %+v", r)
		}
		if h, _ := e.ms.History(ctx, m.ID); len(h) != 2 {
			t.Errorf("history %+v", h)
		}
	})
}

// Plans are validated field by field through the admin API.
func TestPlanValidation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, atok := e.user(t, "admin@example.org", auth.RoleAdmin)
		code, body := e.do(t, "POST", "/api/admin/membership/plans", atok,
			`{"slug":"Bad Slug","name":"","price_minor":-1,"currency":"pound","period":"weekly","scopes":["admin"],"household_size":99}`)
		errs, _ := body["errors"].(map[string]any)
		for _, f := range []string{"slug", "name", "price_minor", "currency", "period", "scopes", "household_size"} {
			if errs[f] == nil {
				t.Errorf("no error for %s: %d %v", f, code, body)
			}
		}
		code, body = e.do(t, "POST", "/api/admin/membership/plans", atok,
			`{"slug":"fixed","name":"Fixed","price_minor":2000,"period":"fixed","renew_month":10,"renew_day":1,"on_sale":true,"concessions":[{"slug":"student","name":"Student","price_minor":1200}]}`)
		if code != 201 || body["currency"] != "GBP" || body["grace_days"] != float64(30) {
			t.Errorf("create: %d %v", code, body)
		}
		code, body = e.do(t, "GET", "/api/membership/plans", "", "")
		if code != 200 || len(body["plans"].([]any)) != 1 || body["card_payments"] != false {
			t.Errorf("plans: %d %v", code, body)
		}
		// A fixed-date plan paid now runs to the next 1 October.
		uid, _ := e.user(t, "fx@example.org", "")
		ctx := context.Background()
		m, err := e.ms.Join(ctx, uid, "fixed", "student")
		fatal(t, err)
		m, err = e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 1200})
		fatal(t, err)
		if m.PaidUntil.Format(time.DateOnly) != "2026-10-01" || m.Concession != "student" {
			t.Errorf("fixed plan paid until %v (%s)", m.PaidUntil, m.Concession)
		}
	})
}

// The migration renames the old role "member" to "registered" and keeps everything an
// account owns (SQLite rebuilds the users table, which must not cascade to sessions).
func TestMigrationRenamesMemberRole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fatal(t, db.MigrateTo(ctx, 11))
		for _, q := range []string{
			`INSERT INTO users (email, name, role, created_at, updated_at) VALUES ('old@example.org', 'Old', 'member', 1, 1)`,
			`INSERT INTO users (email, name, role, created_at, updated_at) VALUES ('ed@example.org', 'Ed', 'editor', 1, 1)`,
			`INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at) VALUES ('s1', 1, 'x', 1, 1, 1)`,
			`INSERT INTO bookmarks (user_id, url, title, created_at) VALUES (1, '/x', 'X', 1)`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		fatal(t, db.MigrateTo(ctx, 12))
		var roles, r2 string
		fatal(t, db.QueryRowContext(ctx, `SELECT (SELECT role FROM users WHERE id = 1), (SELECT role FROM users WHERE id = 2)`).Scan(&roles, &r2))
		if roles += "," + r2; roles != "registered,editor" {
			t.Errorf("roles %q", roles)
		}
		var n int
		fatal(t, db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM bookmarks)`).Scan(&n))
		if n != 2 {
			t.Errorf("sessions and bookmarks left: %d, want 2", n)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO users (email, role, created_at, updated_at) VALUES ('m@example.org', 'member', 1, 1)`); err == nil {
			t.Error("the role member is still accepted")
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO users (email, created_at, updated_at) VALUES ('d@example.org', 1, 1)`); err != nil {
			t.Error(err)
		}
		// Deleting an account still cascades to what it owns.
		if _, err := db.ExecContext(ctx, `DELETE FROM users WHERE id = 1`); err != nil {
			t.Fatal(err)
		}
		fatal(t, db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM bookmarks)`).Scan(&n))
		if n != 0 {
			t.Errorf("cascade after the rebuild: %d rows left", n)
		}
		// And back down.
		fatal(t, db.MigrateTo(ctx, 11))
		fatal(t, db.QueryRowContext(ctx, `SELECT role FROM users WHERE email = 'd@example.org'`).Scan(&roles))
		if roles != "member" {
			t.Errorf("down: role %q", roles)
		}
	})
}

// The same card payment reported by two instances at once is recorded once and
// extends the membership once; two joins at once make one membership.
func TestPaidTwiceAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		uid, _ := e.user(t, "twice@example.org", "")
		other := membership.New(db, membership.Options{})
		other.Now = e.clock.Now
		var wg sync.WaitGroup
		for _, s := range []*membership.Service{e.ms, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Join(ctx, uid, "individual", "")
				var me *httpx.Error
				if err != nil && !(errors.As(err, &me) && me.Code == httpx.ECONFLICT) {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if res, _ := e.ms.Search(ctx, "", "", 1); res.Total != 1 {
			t.Fatalf("two joins at once made %d memberships", res.Total)
		}
		m, err := e.ms.ForUser(ctx, uid)
		fatal(t, err)
		pay := membership.Payment{MembershipID: m.ID, ExternalID: "in_same", AmountMinor: 2400, Currency: "GBP"}
		for _, s := range []*membership.Service{e.ms, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := s.Paid(ctx, pay); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		m, _ = e.ms.ByID(ctx, m.ID)
		if r, _ := e.ms.Receipts(ctx, m.ID); len(r) != 1 || !m.PaidUntil.Equal(start.AddDate(1, 0, 0)) {
			t.Errorf("%d receipts, paid until %v", len(r), m.PaidUntil)
		}
	})
}

// A member's own view: GET /api/membership with receipts, the printable receipt, and
// the admin's CSV through the API (export; an import whose bad row answers 422 with its
// line and column and imports nothing; a dry run).
func TestMemberAndCSVAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		_, atok := e.user(t, "admin@example.org", auth.RoleAdmin)
		uid, tok := e.user(t, "rita@example.org", "")
		if code, _ := e.do(t, "GET", "/api/membership", "", ""); code != 401 {
			t.Errorf("a visitor's membership: %d", code)
		}
		code, body := e.do(t, "GET", "/api/membership", tok, "")
		if code != 200 || body["membership"] != nil || len(body["receipts"].([]any)) != 0 {
			t.Errorf("no membership yet: %d %v", code, body)
		}
		m, err := e.ms.Join(ctx, uid, "individual", "")
		fatal(t, err)
		_, err = e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400, Note: "cash"})
		fatal(t, err)
		code, body = e.do(t, "GET", "/api/membership", tok, "")
		receipts, _ := body["receipts"].([]any)
		if code != 200 || body["membership"].(map[string]any)["status"] != "active" || len(receipts) != 1 {
			t.Fatalf("membership: %d %v", code, body)
		}
		number := receipts[0].(map[string]any)["number"].(string)
		code, body = e.do(t, "GET", "/api/membership/receipts/"+number, tok, "")
		if html := body["_body"].(string); code != 200 || !strings.Contains(html, "Test Society") || !strings.Contains(html, "24.00 GBP") || !strings.Contains(html, m.Number) {
			t.Errorf("receipt: %d %s", code, html)
		}
		if code, _ := e.do(t, "GET", "/api/membership/receipts/"+number, atok, ""); code != 404 {
			t.Errorf("someone else's receipt: %d", code)
		}

		code, body = e.do(t, "GET", "/api/admin/members.csv", atok, "")
		if code != 200 || !strings.Contains(body["_body"].(string), m.Number+",rita,rita@example.org,individual,,active,manual") {
			t.Errorf("export: %d %v", code, body)
		}
		if code, _ := e.do(t, "GET", "/api/admin/members.csv", tok, ""); code != 403 {
			t.Errorf("export for a member: %d", code)
		}
		bad := "name,email,plan,paid_until\nNed,ned@example.org,individual,2027-01-01\nOla,ola@example.org,individual,someday\n"
		code, body = e.do(t, "POST", "/api/admin/members/import", atok, bad)
		errs, _ := body["errors"].([]any)
		if code != 422 || len(errs) != 1 || errs[0].(map[string]any)["line"] != float64(3) || errs[0].(map[string]any)["column"] != "paid_until" {
			t.Errorf("import with a bad row: %d %v", code, body)
		}
		good := "name,email,plan,paid_until\nNed,ned@example.org,individual,2027-01-01\n"
		code, body = e.do(t, "POST", "/api/admin/members/import?dry_run=1", atok, good)
		if code != 200 || body["would_add"] != float64(1) || body["imported"] != false {
			t.Errorf("dry run: %d %v", code, body)
		}
		if res, _ := e.ms.Search(ctx, "ned", "", 1); res.Total != 0 {
			t.Errorf("the bad file or the dry run imported Ned")
		}
		code, body = e.do(t, "POST", "/api/admin/members/import", atok, good)
		if res, _ := e.ms.Search(ctx, "ned", "", 1); code != 200 || res.Total != 1 {
			t.Errorf("import: %d %v", code, body)
		}
	})
}

// membershipRoom is the membership room as cmd/lineage's route table serves it.
func membershipRoom(ms *membership.Service, session func(http.Handler) http.Handler) httpx.Room {
	return httpx.Room{
		Name:    "membership",
		Session: session,
		Fallback: []string{"/api/membership", "/api/membership/",
			"/api/admin/members", "/api/admin/members/", "/api/admin/members.csv", "/api/admin/membership/"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/membership/plans", Handler: ms.Public(ms.GetPlans)},
			{Pattern: "GET /api/membership/plans/{slug}", Handler: ms.Public(ms.GetPlan)},
			{Pattern: "GET /api/membership", Handler: ms.SignedIn(ms.GetMine)},
			{Pattern: "POST /api/membership/join", Handler: ms.SignedIn(ms.PostJoin)},
			{Pattern: "POST /api/membership/cancel-renewal", Handler: ms.SignedIn(ms.PostCancelRenewal)},
			{Pattern: "POST /api/membership/renew", Handler: ms.SignedIn(ms.PostRenew)},
			{Pattern: "GET /api/membership/receipts/{number}", Handler: ms.SignedIn(ms.GetReceipt)},
			{Pattern: "POST /api/membership/household", Handler: ms.SignedIn(ms.PostHousehold)},
			{Pattern: "DELETE /api/membership/household/{user_id}", Handler: ms.SignedIn(ms.DeleteHousehold)},
			{Pattern: "GET /api/membership/gift-aid", Handler: ms.SignedIn(ms.GetGiftAid)},
			{Pattern: "POST /api/membership/gift-aid", Handler: ms.SignedIn(ms.PostGiftAid)},
			{Pattern: "POST /api/membership/gift-aid/cancel", Handler: ms.SignedIn(ms.PostGiftAidCancel)},
			{Pattern: "POST /api/membership/marketing-consent", Handler: ms.SignedIn(ms.PostMarketingConsent)},
			{Pattern: "GET /api/admin/members", Handler: ms.Admin(ms.AdminList)},
			{Pattern: "GET /api/admin/members.csv", Handler: ms.Admin(ms.AdminExport)},
			{Pattern: "POST /api/admin/members/import", Handler: ms.Admin(ms.AdminImport)},
			{Pattern: "GET /api/admin/members/{id}", Handler: ms.Admin(ms.AdminGet)},
			{Pattern: "POST /api/admin/members/{id}/payments", Handler: ms.Admin(ms.AdminPayment)},
			{Pattern: "POST /api/admin/members/{id}/complimentary", Handler: ms.Admin(ms.AdminComplimentary)},
			{Pattern: "POST /api/admin/members/{id}/plan", Handler: ms.Admin(ms.AdminPlan)},
			{Pattern: "GET /api/admin/membership/plans", Handler: ms.Admin(ms.AdminPlans)},
			{Pattern: "POST /api/admin/membership/plans", Handler: ms.Admin(ms.AdminSavePlan)},
			{Pattern: "PUT /api/admin/membership/plans/{slug}", Handler: ms.Admin(ms.AdminSavePlan)},
		},
	}
}
