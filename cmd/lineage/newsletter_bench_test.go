package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/research"
	researchdemo "lineage/internal/research/demo"
	"lineage/internal/store"
)

func benchEnvInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkAlertMatching: NEWSBENCH_RECORDS (100 000) records imported — new ones and
// changed ones, into the collections NEWSBENCH_BASE (20 000) records are already in —
// matched against NEWSBENCH_ALERTS (10 000) alerts of 1 000 members on SQLite, with
// the real finders. Interleaved with a reference: the alerts' distinct searches run
// directly with the research engine, every page. `make bench-newsletter` runs it once
// (-benchtime 1x) and prints a Markdown table.
func BenchmarkAlertMatching(b *testing.B) {
	ctx := context.Background()
	base, imported, nAlerts := benchEnvInt("NEWSBENCH_BASE", 20000), benchEnvInt("NEWSBENCH_RECORDS", 100000), benchEnvInt("NEWSBENCH_ALERTS", 10000)
	rounds := benchEnvInt("NEWSBENCH_ROUNDS", 2)
	db, err := store.Open(ctx, store.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rs := research.New(db, research.Options{})
	if err := rs.Init(ctx); err != nil {
		b.Fatal(err)
	}
	if err := researchdemo.Load(ctx, rs, base, 1, nil); err != nil {
		b.Fatal(err)
	}
	accounts := auth.New(db, auth.Options{})
	newMembership(db, accounts)
	svc := newNewsletter(db, config.Config{PublicURL: "https://lineage.test"}, newsletterSettings{Rate: 600, Bounces: 3}, accounts, nil, rs, nil, nil)

	// Alerts on surnames as people have them (drawn from the index, so common ones
	// often), some with forenames or a year.
	rows, err := db.QueryContext(ctx, db.Rebind(`SELECT s.folded FROM search_keys k JOIN surnames s ON s.id = k.surname_id ORDER BY random() LIMIT ?`), nAlerts)
	if err != nil {
		b.Fatal(err)
	}
	var surnames []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		surnames = append(surnames, s)
	}
	rows.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	given := []string{"John", "Mary", "William", "Elizabeth", "Thomas", "Ann", "James", "Sarah"}
	var searches []url.Values
	err = db.InTx(ctx, func(tx *sql.Tx) error {
		var uid int64
		for i := range nAlerts {
			if i%10 == 0 {
				if err := tx.QueryRowContext(ctx, db.Rebind(`INSERT INTO users (email, name, email_verified_at, created_at, updated_at) VALUES (?, '', 1, 1, 1) RETURNING id`),
					"member"+strconv.Itoa(i/10)+"@example.org").Scan(&uid); err != nil {
					return err
				}
			}
			p := url.Values{"surname": {surnames[i%len(surnames)]}}
			switch x := rng.IntN(10); {
			case x < 2:
				p.Set("given", given[rng.IntN(len(given))])
			case x < 4:
				p.Set("year", strconv.Itoa(1750+rng.IntN(150)))
				p.Set("year_pm", "5")
			}
			searches = append(searches, p)
			var sid int64
			if err := tx.QueryRowContext(ctx, db.Rebind(`INSERT INTO saved_searches (user_id, name, path, params, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 1) RETURNING id`),
				uid, "alert "+strconv.Itoa(i), researchSearchPath, paramsJSONOf(p)).Scan(&sid); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO newsletter_alerts (user_id, saved_search_id, frequency, created_at, primed) VALUES (?, ?, 'daily', 1, 1)`), uid, sid); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.MatchAlerts(ctx); err != nil { // the mark of today
		b.Fatal(err)
	}
	if err := researchdemo.Load(ctx, rs, imported, 2, nil); err != nil {
		b.Fatal(err)
	}
	var mark string
	db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = 'newsletter.mark.records'`).Scan(&mark)
	var changed int
	db.QueryRowContext(ctx, db.Rebind(`SELECT COUNT(*) FROM records WHERE import_run > ?`), mark).Scan(&changed)

	distinct := map[string]url.Values{}
	for _, p := range searches {
		distinct[p.Encode()] = p
	}
	reference := func() (time.Duration, int) {
		start := time.Now()
		found := 0
		scope := []string{"registered"}
		for _, p := range distinct {
			q, errs := research.ParseQuery(searchValues(p))
			if errs != nil {
				b.Fatal(errs)
			}
			q.Limit = 100
			for {
				res, err := rs.Search(ctx, q, scope)
				if err != nil {
					b.Fatal(err)
				}
				found += len(res.Results)
				if res.Next == nil || len(res.Results) == 0 {
					break
				}
				q.After = *res.Next
			}
		}
		return time.Since(start), found
	}
	fmt.Printf("\n## Alert matching: %d imported records (new and changed) against %d alerts (SQLite)\n\n", changed, nAlerts)
	fmt.Printf("%d records before the import; %d distinct searches among the alerts, 1 000 members.\n\n", base, len(distinct))
	fmt.Println("| round | run | seconds | records/s | results or matches | load average |")
	fmt.Println("|---|---|---|---|---|---|")
	var refTotal, matchTotal time.Duration
	b.ResetTimer()
	for r := 1; r <= rounds; r++ {
		d, found := reference()
		refTotal += d
		fmt.Printf("| %d | reference: the distinct searches, every page | %.1f | — | %d results | %s |\n", r, d.Seconds(), found, loadavgText())
		if _, err := db.ExecContext(ctx, `DELETE FROM newsletter_alert_matches`); err != nil {
			b.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE settings SET value = ? WHERE key = 'newsletter.mark.records'`), mark); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		rep, err := svc.MatchAlerts(ctx)
		if err != nil {
			b.Fatal(err)
		}
		d = time.Since(start)
		matchTotal += d
		fmt.Printf("| %d | alert matching (%d searches run) | %.1f | %.0f | %d matches | %s |\n", r, rep.Runs, d.Seconds(), float64(rep.Items)/d.Seconds(), rep.Matches, loadavgText())
	}
	fmt.Printf("\nMatching time / reference time: **%.2f**; matching took %.1f s a round on average.\n\n", matchTotal.Seconds()/refTotal.Seconds(), matchTotal.Seconds()/float64(rounds))
	b.ReportMetric(matchTotal.Seconds()/float64(rounds), "match-s")
}

func loadavgText() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
