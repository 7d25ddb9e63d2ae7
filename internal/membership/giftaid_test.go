package membership_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"lineage/internal/membership"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func giftAidBody(t *testing.T, fields map[string]any) string {
	t.Helper()
	in := map[string]any{"declared": true, "title": "Mrs", "first_name": "Ada", "last_name": "Lovelace",
		"house": "12", "postcode": "s19 2bd", "address": "12 Ockham Lane\nSheffield"}
	for k, v := range fields {
		in[k] = v
	}
	b, err := json.Marshal(in)
	fatal(t, err)
	return string(b)
}

// The declaration through the API: the wording shown is the wording kept, with the
// date, name and home address; bad fields answer 422 naming the field and write
// nothing; cancelling from the account ends it.
func TestGiftAidDeclarationAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user(t, "ada@example.org", "")
		code, got := e.do(t, "GET", "/api/membership/gift-aid", tok, "")
		wording, _ := got["wording"].(string)
		if code != 200 || got["declaration"] != nil || !strings.Contains(wording, "to Test Society. I am a UK taxpayer") {
			t.Fatalf("GET before declaring: %d %v", code, got)
		}
		for _, c := range []struct {
			field string
			value any
		}{
			{"declared", false},
			{"title", "Professor"},
			{"title", "M1"},
			{"first_name", ""},
			{"first_name", "Ada2"},
			{"first_name", strings.Repeat("a", 36)},
			{"last_name", "=HYPERLINK(1)"},
			{"last_name", "Love\nlace"},
			{"house", ""},
			{"house", "-1"},
			{"postcode", "12345"},
			{"postcode", ""},
			{"address", ""},
			{"address", strings.Repeat("x", 501)},
			{"wording", "I agree to something else."},
		} {
			code, got := e.do(t, "POST", "/api/membership/gift-aid", tok, giftAidBody(t, map[string]any{c.field: c.value}))
			errs, _ := got["errors"].(map[string]any)
			if code != 422 || errs[c.field] == nil {
				t.Errorf("%s = %q: %d %v, want 422 naming the field", c.field, c.value, code, got)
			}
		}
		if _, got := e.do(t, "GET", "/api/membership/gift-aid", tok, ""); got["declaration"] != nil {
			t.Fatalf("a refused declaration was kept: %v", got)
		}

		e.clock.Set(start.Add(days(2)))
		code, got = e.do(t, "POST", "/api/membership/gift-aid", tok, giftAidBody(t, map[string]any{"wording": wording, "last_name": "Smith-Jones"}))
		d, _ := got["declaration"].(map[string]any)
		if code != 201 || d["wording"] != wording || d["postcode"] != "S19 2BD" || d["last_name"] != "Smith-Jones" ||
			d["declared_at"] != "2026-03-03T12:00:00Z" || d["covers_from"] != "2022-03-03T12:00:00Z" || d["address"] != "12 Ockham Lane\nSheffield" {
			t.Fatalf("declare: %d %v", code, got)
		}

		e.clock.Set(start.Add(days(3)))
		code, got = e.do(t, "POST", "/api/membership/gift-aid/cancel", tok, "")
		d, _ = got["declaration"].(map[string]any)
		if code != 200 || d["cancelled_at"] != "2026-03-04T12:00:00Z" {
			t.Fatalf("cancel: %d %v", code, got)
		}
		if code, got := e.do(t, "POST", "/api/membership/gift-aid/cancel", tok, ""); code != 404 {
			t.Errorf("cancel again: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership/gift-aid", tok, ""); got["declaration"] != nil {
			t.Errorf("after cancelling: %v", got)
		}
		if code, _ := e.do(t, "POST", "/api/membership/gift-aid/cancel", "", ""); code != 401 {
			t.Errorf("cancel signed out: %d", code)
		}
	})
}

// Joining with a declaration keeps it; a bad declaration in the join form is a 422
// naming gift_aid.<field>, and no membership is made.
func TestJoinWithGiftAid(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, annual)
		_, tok := e.user(t, "ada@example.org", "")
		code, got := e.do(t, "POST", "/api/membership/join", tok, `{"plan":"individual","gift_aid":`+giftAidBody(t, map[string]any{"postcode": "nowhere"})+`}`)
		if errs, _ := got["errors"].(map[string]any); code != 422 || errs["gift_aid.postcode"] == nil {
			t.Fatalf("join with a bad postcode: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership", tok, ""); got["membership"] != nil {
			t.Fatalf("a refused join made a membership: %v", got)
		}
		code, got = e.do(t, "POST", "/api/membership/join", tok, `{"plan":"individual","gift_aid":`+giftAidBody(t, nil)+`}`)
		if code != 201 {
			t.Fatalf("join: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership/gift-aid", tok, ""); got["declaration"] == nil {
			t.Errorf("the join form's declaration was not kept")
		}
		_, tok2 := e.user(t, "bob@example.org", "")
		if code, got := e.do(t, "POST", "/api/membership/join", tok2, `{"plan":"individual","gift_aid":{"declared":false}}`); code != 201 {
			t.Errorf("join without declaring: %d %v", code, got)
		}
		if _, got := e.do(t, "GET", "/api/membership/gift-aid", tok2, ""); got["declaration"] != nil {
			t.Errorf("an undeclared join kept a declaration: %v", got)
		}
	})
}

// The claim has the eligible payments only: paid, not refunded, in GBP, within the
// dates, by a donor whose declaration was in force on the payment's date (one made
// later reaches back 4 years; a cancelled one covers payments before its cancellation).
func TestGiftAidClaim(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		member := func(email string) (int64, *membership.Membership) {
			uid, _, m := e.joined(t, email)
			return uid, m
		}
		declare := func(uid int64, first, last, postcode string) {
			_, err := e.ms.DeclareGiftAid(ctx, uid, membership.GiftAidInput{Declared: true, Title: "Dr", FirstName: first, LastName: last,
				House: "Rose Cottage", Postcode: postcode, Address: "Church Lane"})
			fatal(t, err)
		}
		manual := func(m *membership.Membership, amount int64, currency string) {
			_, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: amount, Currency: currency})
			fatal(t, err)
		}
		ada, adaM := member("ada@example.org") // declared before paying by card
		bob, bobM := member("bob@example.org") // declared, paid, refunded in full
		_, catM := member("cat@example.org")   // no declaration
		dan, danM := member("dan@example.org") // paid, then cancelled, then paid again
		eve, eveM := member("eve@example.org") // paid, partly refunded; declared afterwards
		fay, fayM := member("fay@example.org") // declared; paid in euros
		declare(ada, "Ada", "Smith-Jones", "sw1a1aa")
		declare(bob, "Bob", "Brown", "S19 2BD")
		declare(dan, "D", "Ng", "M1 1AE")
		declare(fay, "Fay", "Fox", "EH1 1YZ")

		e.clock.Set(start.Add(days(1)))
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: adaM.ID, ExternalID: "in_ada", AmountMinor: 2400, Currency: "GBP"}))
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: bobM.ID, ExternalID: "in_bob", AmountMinor: 2400, Currency: "GBP"}))
		fatal(t, e.ms.Refunded(ctx, membership.Refund{ExternalID: "in_bob", RefundedMinor: 2400}))
		manual(catM, 2400, "GBP")
		manual(danM, 1850, "GBP")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: eveM.ID, ExternalID: "in_eve", AmountMinor: 2400, Currency: "GBP"}))
		fatal(t, e.ms.Refunded(ctx, membership.Refund{ExternalID: "in_eve", RefundedMinor: 400}))
		manual(fayM, 2400, "EUR")

		e.clock.Set(start.Add(days(10)))
		_, err := e.ms.CancelGiftAid(ctx, dan)
		fatal(t, err)
		declare(eve, "Eve", "O'Hara", "s1 2hh")
		e.clock.Set(start.Add(days(20)))
		manual(danM, 1850, "GBP") // after the cancellation
		e.clock.Set(start.Add(days(40)))
		manual(adaM, 500, "GBP") // outside the claim's dates

		from, to, err := membership.ParseClaimRange("2026-03-01", "2026-03-31")
		fatal(t, err)
		rep, err := e.ms.GiftAidClaim(ctx, from, to)
		fatal(t, err)
		var buf bytes.Buffer
		fatal(t, membership.WriteClaimCSV(&buf, rep.Rows))
		want := "Title,First name or initial,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount\n" +
			"Dr,Ada,Smith Jones,Rose Cottage,SW1A 1AA,,,02/03/26,24.00\n" +
			"Dr,D,Ng,Rose Cottage,M1 1AE,,,02/03/26,18.50\n" +
			"Dr,Eve,O'Hara,Rose Cottage,S1 2HH,,,02/03/26,20.00\n"
		if buf.String() != want {
			t.Errorf("claim file:\n%s\nwant:\n%s", buf.String(), want)
		}
		if rep.TotalMinor != 6250 || rep.Refunded != 1 || rep.NoDeclaration != 2 || rep.NotGBP != 1 {
			t.Errorf("report: total %d, refunded %d, no declaration %d, not GBP %d; want 6250, 1, 2 (cat; dan's second), 1",
				rep.TotalMinor, rep.Refunded, rep.NoDeclaration, rep.NotGBP)
		}
	})
}

func TestClaimRowCells(t *testing.T) {
	summer := time.Date(2026, 3, 31, 23, 30, 0, 0, time.UTC) // 00:30 on 1 April in London (BST)
	winter := time.Date(2026, 1, 15, 23, 30, 0, 0, time.UTC)
	base := membership.ClaimRow{Title: "Mr", FirstName: "John", LastName: "Smith", House: "10", Postcode: "S19 2BD", Date: winter, AmountMinor: 20000}
	for _, c := range []struct {
		name string
		edit func(r *membership.ClaimRow)
		want []string
	}{
		{"plain", func(r *membership.ClaimRow) {}, []string{"Mr", "John", "Smith", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"title of 4", func(r *membership.ClaimRow) { r.Title = "Revd" }, []string{"Revd", "John", "Smith", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"title too long is left out", func(r *membership.ClaimRow) { r.Title = "Professor" }, []string{"", "John", "Smith", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"double-barrel", func(r *membership.ClaimRow) { r.LastName = "Smith-Jones" }, []string{"Mr", "John", "Smith Jones", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"initial", func(r *membership.ClaimRow) { r.FirstName = "J" }, []string{"Mr", "J", "Smith", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"names cut at 35", func(r *membership.ClaimRow) {
			r.FirstName, r.LastName = strings.Repeat("é", 40), strings.Repeat("b", 36)
		}, []string{"Mr", strings.Repeat("é", 35), strings.Repeat("b", 35), "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"postcode in capitals with its space", func(r *membership.ClaimRow) { r.Postcode = " sw1a1aa " }, []string{"Mr", "John", "Smith", "10", "SW1A 1AA", "", "", "15/01/26", "200.00"}},
		{"postcode spaced oddly", func(r *membership.ClaimRow) { r.Postcode = "m 1 1ae" }, []string{"Mr", "John", "Smith", "10", "M1 1AE", "", "", "15/01/26", "200.00"}},
		{"pence", func(r *membership.ClaimRow) { r.AmountMinor = 5 }, []string{"Mr", "John", "Smith", "10", "S19 2BD", "", "", "15/01/26", "0.05"}},
		{"UK date in summer time", func(r *membership.ClaimRow) { r.Date = summer }, []string{"Mr", "John", "Smith", "10", "S19 2BD", "", "", "01/04/26", "200.00"}},
		{"no formula, no line break", func(r *membership.ClaimRow) { r.House = "=1+1\nflat" }, []string{"Mr", "John", "Smith", "1+1 flat", "S19 2BD", "", "", "15/01/26", "200.00"}},
		{"blank title stays blank", func(r *membership.ClaimRow) { r.Title = "" }, []string{"", "John", "Smith", "10", "S19 2BD", "", "", "15/01/26", "200.00"}},
	} {
		r := base
		c.edit(&r)
		if got := r.Cells(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestNormalizePostcode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"s19 2bd", "S19 2BD", true},
		{"SW1A1AA", "SW1A 1AA", true},
		{"ec1a 1bb", "EC1A 1BB", true},
		{"W1A 0AX", "W1A 0AX", true},
		{"12345", "12345", false},
		{"S19", "S19", false},
		{"", "", false},
		{"S19 2BD X", "S19 2BD X", false},
	} {
		got, ok := membership.NormalizePostcode(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("NormalizePostcode(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseClaimRange(t *testing.T) {
	london, _ := time.LoadLocation("Europe/London")
	for _, c := range []struct {
		from, to   string
		start, end time.Time
		err        string
	}{
		{"2026-04-06", "2027-04-05", time.Date(2026, 4, 6, 0, 0, 0, 0, london), time.Date(2027, 4, 6, 0, 0, 0, 0, london), ""},
		{"2026-01-01", "2026-01-01", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), ""},
		{" 2026-03-29 ", "2026-03-29", time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 29, 23, 0, 0, 0, time.UTC), ""}, // the clocks go forward
		{"", "2026-01-01", time.Time{}, time.Time{}, "--from is required"},
		{"2026-01-01", "", time.Time{}, time.Time{}, "--to is required"},
		{"01/04/2026", "2026-05-01", time.Time{}, time.Time{}, "not a date"},
		{"2026-02-30", "2026-03-01", time.Time{}, time.Time{}, "not a date"},
		{"1999-12-31", "2026-03-01", time.Time{}, time.Time{}, "not a date"},
		{"2026-05-01", "2026-04-30", time.Time{}, time.Time{}, "before --from"},
		{"2026-05-01\n", "2026-05-02\x00", time.Time{}, time.Time{}, `"2026-05-02\x00" is not a date`},
	} {
		start, end, err := membership.ParseClaimRange(c.from, c.to)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseClaimRange(%q, %q): %v, want an error with %q", c.from, c.to, err, c.err)
		case c.err == "" && (err != nil || !start.Equal(c.start) || !end.Equal(c.end)):
			t.Errorf("ParseClaimRange(%q, %q) = %v, %v, %v; want %v, %v", c.from, c.to, start, end, err, c.start, c.end)
		}
	}
}

func FuzzParseClaimRange(f *testing.F) {
	f.Add("2026-04-06", "2027-04-05")
	f.Add("2026-02-30", "x")
	f.Add("2026-10-25", "2026-10-25")
	f.Fuzz(func(t *testing.T, from, to string) {
		start, end, err := membership.ParseClaimRange(from, to)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error on more than one line: %q", err)
			}
			return
		}
		if !start.Before(end) || end.Sub(start) < 23*time.Hour {
			t.Fatalf("(%q, %q) → [%v, %v)", from, to, start, end)
		}
		if start.Location() != time.UTC || end.Location() != time.UTC {
			t.Fatalf("not UTC: %v %v", start, end)
		}
	})
}

// "Download my data" includes the donor's declarations, cancelled ones too.
func TestGiftAidInMyData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		e.auth.AddExporter(membership.GiftAidExporter{Service: e.ms})
		_, tok := e.user(t, "ada@example.org", "")
		if code, got := e.do(t, "POST", "/api/membership/gift-aid", tok, giftAidBody(t, nil)); code != 201 {
			t.Fatalf("declare: %d %v", code, got)
		}
		if code, got := e.do(t, "POST", "/api/membership/gift-aid/cancel", tok, ""); code != 200 {
			t.Fatalf("cancel: %d %v", code, got)
		}
		code, got := e.do(t, "GET", "/api/user/data", tok, "")
		list, _ := got["gift_aid_declarations"].([]any)
		if code != 200 || len(list) != 1 {
			t.Fatalf("my data: %d %v", code, got)
		}
		if d := list[0].(map[string]any); d["postcode"] != "S19 2BD" || d["cancelled_at"] == nil || !strings.HasPrefix(d["wording"].(string), "I want to Gift Aid") {
			t.Errorf("declaration in my data: %v", d)
		}
	})
}

// A receipt carries the Gift Aid statement when the payment is one a claim would
// include, and not otherwise.
func TestReceiptGiftAidStatement(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		receipt := func(email string, declare bool) string {
			_, tok, m := e.joined(t, email)
			if declare {
				if code, got := e.do(t, "POST", "/api/membership/gift-aid", tok, giftAidBody(t, nil)); code != 201 {
					t.Fatalf("declare: %d %v", code, got)
				}
			}
			_, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400})
			fatal(t, err)
			rs, err := e.ms.Receipts(ctx, m.ID)
			fatal(t, err)
			code, got := e.do(t, "GET", "/api/membership/receipts/"+rs[0].Number, tok, "")
			if code != 200 {
				t.Fatalf("receipt: %d %v", code, got)
			}
			return got["_body"].(string)
		}
		if body := receipt("ada@example.org", true); !strings.Contains(body, "<td>Gift Aid</td><td>Declared on 1 March 2026: Test Society may claim Gift Aid on this payment.</td>") {
			t.Errorf("a declared donor's receipt:\n%s", body)
		}
		if body := receipt("bob@example.org", false); strings.Contains(body, "Gift Aid") {
			t.Errorf("an undeclared payer's receipt:\n%s", body)
		}
	})
}
