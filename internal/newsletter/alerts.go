package newsletter

import (
	"cmp"
	"context"
	"crypto/hmac"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/store"
)

// Finder runs the saved searches of one kind (research records, tree people …) for
// alerts, with the same engine as the search page.
type Finder interface {
	// Name names the finder's mark in the settings table; it never changes.
	Name() string
	// Follows reports whether the finder runs the saved searches of this page.
	Follows(path string) bool
	// Check refuses a saved search it cannot follow (its error is shown to the member).
	Check(ctx context.Context, path string, params url.Values) error
	// Changed returns the items added or changed since mark ("" at the very start:
	// no items, only the mark of now) and the mark to pass next time.
	Changed(ctx context.Context, mark string) (items []string, next string, err error)
	// Audience is what of a viewer the search's results depend on: alerts whose
	// searches are the same and whose viewers' audiences are equal are run once.
	Audience(v Viewer) string
	// Find runs the search as v and returns its results that are among items, or
	// all its results (at most limit) when among is nil. A match shows only what v
	// may see.
	Find(ctx context.Context, path string, params url.Values, v Viewer, among map[string]bool, limit int) ([]Match, error)
}

// Match is an item a saved search found.
type Match struct {
	Item  string // kind:id, unique across finders
	Title string
	URL   string // absolute
}

// Frequencies of alerts.
var Frequencies = []string{"immediately", "daily", "weekly"}

var frequencyGap = map[string]time.Duration{"immediately": 0, "daily": 24 * time.Hour, "weekly": 7 * 24 * time.Hour}

// PrimeLimit is how many current results of a new alert's search are remembered as
// already known; a changed item beyond them that the search found before may be
// reported once.
const PrimeLimit = 5000

// Alert is a saved search that mails its new results.
type Alert struct {
	SavedSearchID int64      `json:"saved_search_id"`
	Frequency     string     `json:"frequency"`
	CreatedAt     time.Time  `json:"created_at"`
	LastSentAt    *time.Time `json:"last_sent_at"`
}

func (s *Service) finderFor(path string) Finder {
	for _, f := range s.opt.Finders {
		if f.Follows(path) {
			return f
		}
	}
	return nil
}

// Alerts lists a member's alerts.
func (s *Service) Alerts(ctx context.Context, uid int64) ([]Alert, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT saved_search_id, frequency, created_at, last_sent_at FROM newsletter_alerts WHERE user_id = ? ORDER BY id`), uid)
	return store.Collect(rows, err, func(row store.Row) (a Alert, err error) {
		var c, l int64
		if err := row.Scan(&a.SavedSearchID, &a.Frequency, &c, &l); err != nil {
			return a, err
		}
		a.CreatedAt, a.LastSentAt = store.Time(c), ts(l)
		return a, nil
	})
}

// SetAlert turns a member's saved search into an alert, or changes its frequency.
func (s *Service) SetAlert(ctx context.Context, uid, savedSearch int64, frequency string) (*Alert, error) {
	if !slices.Contains(Frequencies, frequency) {
		return nil, httpx.Invalid("frequency", "The frequency must be immediately, daily or weekly.")
	}
	var path, paramsJSON string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT path, params FROM saved_searches WHERE id = ? AND user_id = ?`), savedSearch, uid).Scan(&path, &paramsJSON)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	f := s.finderFor(path)
	if f == nil {
		return nil, httpx.Invalid("saved_search", "Alerts work for searches of the indexes and the family trees, and for library and archive catalogues.")
	}
	params, err := paramsValues(paramsJSON)
	if err != nil {
		return nil, err
	}
	if err := f.Check(ctx, path, params); err != nil {
		return nil, httpx.Invalid("saved_search", "%s", err.Error())
	}
	now := s.now().Unix()
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO newsletter_alerts (user_id, saved_search_id, frequency, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (saved_search_id) DO UPDATE SET frequency = excluded.frequency`), uid, savedSearch, frequency, now); err != nil {
		return nil, err
	}
	as, err := s.Alerts(ctx, uid)
	if err != nil {
		return nil, err
	}
	for i := range as {
		if as[i].SavedSearchID == savedSearch {
			return &as[i], nil
		}
	}
	return nil, errNotFound
}

// DeleteAlert turns an alert off; its unsent matches go with it.
func (s *Service) DeleteAlert(ctx context.Context, uid, savedSearch int64) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM newsletter_alerts WHERE user_id = ? AND saved_search_id = ?`), uid, savedSearch)
	return store.Changed(res, err, errNotFound)
}

// alertRow is an alert with its saved search, as the matcher reads it.
type alertRow struct {
	id, user int64
	path     string
	params   url.Values
	primed   bool
}

// paramsValues reads a saved search's params (members.Params JSON: a string or a list
// of strings per name).
func paramsValues(raw string) (url.Values, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, err
	}
	v := url.Values{}
	for k, x := range m {
		switch x := x.(type) {
		case string:
			v.Add(k, x)
		case []any:
			for _, y := range x {
				if s, ok := y.(string); ok {
					v.Add(k, s)
				}
			}
		}
	}
	return v, nil
}

func (s *Service) alertRows(ctx context.Context, f Finder) ([]alertRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT a.id, a.user_id, q.path, q.params,
		a.primed FROM newsletter_alerts a JOIN saved_searches q ON q.id = a.saved_search_id ORDER BY a.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []alertRow
	for rows.Next() {
		var a alertRow
		var params string
		var primed int
		if err := rows.Scan(&a.id, &a.user, &a.path, &params, &primed); err != nil {
			return nil, err
		}
		a.primed = primed == 1
		if !f.Follows(a.path) {
			continue
		}
		if a.params, err = paramsValues(params); err != nil {
			s.log.Warn("newsletter: alert with unreadable params", "alert", a.id, "err", err)
			continue
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// MatchReport says what a matching run did.
type MatchReport struct {
	Items   int // new and changed items
	Alerts  int // alerts run
	Runs    int // distinct searches run
	Matches int // new matches recorded
}

// MatchAlerts matches the items imported since the last run against every alert:
// each distinct search (per audience) runs once, and its results among the new items
// that the alert has not reported or known before become the alert's new matches.
// A new alert is first primed: its current results are remembered as known.
func (s *Service) MatchAlerts(ctx context.Context) (MatchReport, error) {
	var rep MatchReport
	for _, f := range s.opt.Finders {
		key := "newsletter.mark." + f.Name()
		var mark string
		err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT value FROM settings WHERE key = ?`), key).Scan(&mark)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return rep, err
		}
		alerts, err := s.alertRows(ctx, f)
		if err != nil {
			return rep, err
		}
		viewers := map[int64]Viewer{}
		viewerOf := func(uid int64) (Viewer, error) {
			if v, ok := viewers[uid]; ok {
				return v, nil
			}
			v, err := s.opt.Accounts.Account(ctx, uid)
			if err != nil {
				return v, err
			}
			viewers[uid] = v
			return v, nil
		}
		items, next, err := f.Changed(ctx, mark)
		if err != nil {
			return rep, err
		}
		rep.Items += len(items)
		among := make(map[string]bool, len(items))
		for _, it := range items {
			among[it] = true
		}
		// A new alert first remembers what its search finds, except the items
		// changed since the last run: those are news to it as to the others.
		for _, a := range alerts {
			if a.primed {
				continue
			}
			v, err := viewerOf(a.user)
			if err != nil {
				return rep, err
			}
			ms, err := f.Find(ctx, a.path, a.params, v, nil, PrimeLimit)
			if err != nil {
				s.log.Warn("newsletter: alert search failed", "alert", a.id, "err", err)
			}
			ms = slices.DeleteFunc(ms, func(m Match) bool { return among[m.Item] })
			if err := s.recordMatches(ctx, a.id, ms, true); err != nil {
				return rep, err
			}
			if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE newsletter_alerts SET primed = 1 WHERE id = ?`), a.id); err != nil {
				return rep, err
			}
		}
		if len(items) > 0 && len(alerts) > 0 {
			type group struct {
				path   string
				params url.Values
				viewer Viewer
				alerts []int64
			}
			groups := map[string]*group{}
			var order []string
			for _, a := range alerts {
				v, err := viewerOf(a.user)
				if err != nil {
					return rep, err
				}
				k := a.path + "\x00" + a.params.Encode() + "\x00" + f.Audience(v)
				g := groups[k]
				if g == nil {
					g = &group{path: a.path, params: a.params, viewer: v}
					groups[k] = g
					order = append(order, k)
				}
				g.alerts = append(g.alerts, a.id)
				rep.Alerts++
			}
			// What each alert knows of the changed items: a changed item it no longer
			// finds is forgotten, so that finding it again is news, as it is to the
			// search (the digest is the difference of its results).
			known, err := s.knownAmong(ctx, among)
			if err != nil {
				return rep, err
			}
			// The searches only read: they run on every core, and this goroutine
			// writes what they find.
			type found struct {
				g   *group
				ms  []Match
				err error
			}
			jobs, results := make(chan *group), make(chan found)
			workers := max(1, min(runtime.GOMAXPROCS(0), len(order)))
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			for range workers {
				go func() {
					for g := range jobs {
						ms, err := f.Find(runCtx, g.path, g.params, g.viewer, among, 0)
						select {
						case results <- found{g, ms, err}:
						case <-runCtx.Done():
							return
						}
					}
				}()
			}
			go func() {
				defer close(jobs)
				for _, k := range order {
					select {
					case jobs <- groups[k]:
					case <-runCtx.Done():
						return
					}
				}
			}()
			var pending []alertMatch // written some ten thousand at a time
			for range order {
				var r found
				select {
				case r = <-results:
				case <-ctx.Done():
					return rep, ctx.Err()
				}
				g, ms := r.g, r.ms
				rep.Runs++
				if err := r.err; err != nil {
					// A saved search that no longer parses finds nothing.
					s.log.Warn("newsletter: alert search failed", "alerts", g.alerts, "err", err)
					continue
				}
				if err := s.forgetLost(ctx, g.alerts, known, ms); err != nil {
					return rep, err
				}
				for _, id := range g.alerts {
					for _, m := range ms {
						pending = append(pending, alertMatch{id, m})
					}
				}
				if len(pending) >= 50000 {
					n, err := s.recordNew(ctx, pending)
					if err != nil {
						return rep, err
					}
					rep.Matches += n
					pending = pending[:0]
				}
			}
			n, err := s.recordNew(ctx, pending)
			if err != nil {
				return rep, err
			}
			rep.Matches += n
		}
		if next != mark {
			if _, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`), key, next); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// knownAmong returns, by alert, the items among these that the alert has reported or
// known. It reads by item (an index), so its cost follows the import, not the table.
func (s *Service) knownAmong(ctx context.Context, among map[string]bool) (map[int64][]string, error) {
	items := make([]any, 0, len(among))
	for it := range among {
		items = append(items, it)
	}
	out := map[int64][]string{}
	for chunk := range slices.Chunk(items, 500) {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT alert_id, item FROM newsletter_alert_matches WHERE item IN (`+store.Placeholders(len(chunk))+`)`), chunk...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var item string
			if err := rows.Scan(&id, &item); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = append(out[id], item)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// forgetLost deletes the alerts' rows of known items the search no longer finds.
func (s *Service) forgetLost(ctx context.Context, alerts []int64, known map[int64][]string, found []Match) error {
	var lost [][2]any
	var in map[string]bool
	for _, id := range alerts {
		for _, item := range known[id] {
			if in == nil {
				in = make(map[string]bool, len(found))
				for _, m := range found {
					in[m.Item] = true
				}
			}
			if !in[item] {
				lost = append(lost, [2]any{id, item})
			}
		}
	}
	if len(lost) == 0 {
		return nil
	}
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, l := range lost {
			if _, err := s.exec(ctx, tx, `DELETE FROM newsletter_alert_matches WHERE alert_id = ? AND item = ?`, l[0], l[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

// recordMatches stores matches of an alert; known ones (a new alert's current
// results) are never sent (sent_at -1).
func (s *Service) recordMatches(ctx context.Context, alert int64, ms []Match, known bool) error {
	sent := int64(0)
	if known {
		sent = -1
	}
	now := s.now().Unix()
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, m := range ms {
			if _, err := s.exec(ctx, tx, `INSERT INTO newsletter_alert_matches (alert_id, item, title, url, found_at, sent_at) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (item, alert_id) DO NOTHING`, alert, m.Item, m.Title, m.URL, now, sent); err != nil {
				return err
			}
		}
		return nil
	})
}

type alertMatch struct {
	alert int64
	Match
}

// recordNew stores the matches their alerts have not seen and returns how many, a
// hundred rows to a statement.
func (s *Service) recordNew(ctx context.Context, ms []alertMatch) (int, error) {
	n := 0
	if len(ms) == 0 {
		return 0, nil
	}
	// In the table's key order: the rows go to neighbouring pages of its B-tree.
	slices.SortFunc(ms, func(a, b alertMatch) int {
		if c := strings.Compare(a.Item, b.Item); c != 0 {
			return c
		}
		return cmp.Compare(a.alert, b.alert)
	})
	now := s.now().Unix()
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		n = 0
		for i := 0; i < len(ms); i += 100 {
			chunk := ms[i:min(i+100, len(ms))]
			var q strings.Builder
			q.WriteString(`INSERT INTO newsletter_alert_matches (alert_id, item, title, url, found_at) VALUES `)
			args := make([]any, 0, 5*len(chunk))
			for j, m := range chunk {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?)")
				args = append(args, m.alert, m.Item, m.Title, m.URL, now)
			}
			q.WriteString(` ON CONFLICT (item, alert_id) DO NOTHING`)
			res, err := tx.ExecContext(ctx, s.db.Rebind(q.String()), args...)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		return nil
	})
	return n, err
}

// digestItem is one unsent match with its saved search's name.
type digestItem struct {
	alert  int64
	search string
	title  string
	url    string
	item   string
}

// SendDigests mails each member whose alerts are due one digest of all their unsent
// matches, and returns how many digests it enqueued.
func (s *Service) SendDigests(ctx context.Context) (int, error) {
	now := s.now()
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT a.user_id FROM newsletter_alert_matches m JOIN newsletter_alerts a ON a.id = m.alert_id WHERE m.sent_at = 0 ORDER BY a.user_id`)
	users, err := store.Collect(rows, err, store.Scalar[int64])
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, uid := range users {
		ok, err := s.sendDigest(ctx, uid, now)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	if sent > 0 {
		s.opt.Outbox.Wake()
	}
	return sent, nil
}

func (s *Service) sendDigest(ctx context.Context, uid int64, now time.Time) (bool, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT a.id, a.frequency, a.last_sent_at, q.name, m.item, m.title, m.url
		FROM newsletter_alert_matches m JOIN newsletter_alerts a ON a.id = m.alert_id JOIN saved_searches q ON q.id = a.saved_search_id
		WHERE a.user_id = ? AND m.sent_at = 0 ORDER BY q.name, a.id, m.title, m.item`), uid)
	if err != nil {
		return false, err
	}
	var items []digestItem
	due := map[int64]bool{}
	for rows.Next() {
		var d digestItem
		var freq string
		var last int64
		if err := rows.Scan(&d.alert, &freq, &last, &d.search, &d.item, &d.title, &d.url); err != nil {
			rows.Close()
			return false, err
		}
		if last == 0 || now.Sub(time.Unix(last, 0)) >= frequencyGap[freq] {
			due[d.alert] = true
			items = append(items, d)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(items) == 0 {
		return false, err
	}
	v, err := s.opt.Accounts.Account(ctx, uid)
	if err != nil {
		return false, err
	}
	if v.Email == "" || !v.Verified {
		return false, nil // nothing goes to an address that is not proven
	}
	m, err := s.digestMail(ctx, v, items)
	if err != nil {
		return false, err
	}
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, d := range items {
			res, err := s.exec(ctx, tx, `UPDATE newsletter_alert_matches SET sent_at = ? WHERE alert_id = ? AND item = ? AND sent_at = 0`, now.Unix(), d.alert, d.item)
			// No row: another instance is sending this digest.
			if err := store.Changed(res, err, errTaken); err != nil {
				return err
			}
		}
		for id := range due {
			if _, err := s.exec(ctx, tx, `UPDATE newsletter_alerts SET last_sent_at = ? WHERE id = ?`, now.Unix(), id); err != nil {
				return err
			}
		}
		_, err := s.opt.Outbox.EnqueueTx(ctx, tx, m)
		return err
	})
	if errors.Is(err, errTaken) {
		return false, nil
	}
	return err == nil, err
}

// errTaken rolls back a digest whose matches another instance marked sent first.
var errTaken = errors.New("newsletter: taken by another instance")

func (s *Service) digestMail(ctx context.Context, v Viewer, items []digestItem) (mail.Message, error) {
	tok, err := s.alertsToken(ctx, v.ID)
	if err != nil {
		return mail.Message{}, err
	}
	n := len(items)
	subject := "New records for your saved searches"
	var h, t strings.Builder
	t.WriteString(fmt.Sprintf("%d new %s your saved searches.\n", n, plural(n, "result matches", "results match")))
	h.WriteString(`<p style="margin:0 0 16px">` + esc(fmt.Sprintf("%d new %s your saved searches.", n, plural(n, "result matches", "results match"))) + `</p>`)
	var last int64 = -1
	for _, d := range items {
		if d.alert != last {
			if last != -1 {
				h.WriteString(`</ul>`)
			}
			h.WriteString(`<h2 style="margin:24px 0 8px;font-size:20px">` + esc(d.search) + `</h2><ul style="margin:0 0 16px;padding-left:20px">`)
			t.WriteString("\n" + d.search + "\n")
			last = d.alert
		}
		h.WriteString(`<li style="margin:0 0 8px"><a href="` + esc(d.url) + `" style="` + linkStyle + `">` + esc(d.title) + `</a></li>`)
		t.WriteString("- " + d.title + "\n  " + d.url + "\n")
	}
	h.WriteString(`</ul>`)
	manage := s.abs("/saved-searches")
	footer := `You receive this because you turned on alerts for these saved searches. ` +
		`<a href="` + esc(manage) + `" style="` + linkStyle + `">Change or turn off alerts</a>`
	t.WriteString("\n--\nYou receive this because you turned on alerts for these saved searches.\nChange or turn off alerts: " + manage + "\n")
	l := &List{Slug: "alerts", Name: "Saved search alerts"}
	return mail.Message{
		To: v.Email, Subject: subject, Text: wrapLines(t.String()),
		HTML:    emailPage(s.opt.SocietyName, subject, h.String(), footer),
		Headers: append(s.listHeaders(l, s.oneClickURL(tok, "alerts")), mail.Header{Name: "Auto-Submitted", Value: "auto-generated"}),
	}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

const purposeAlerts = "alerts"

// alertsToken is the one-click token of a member's alert digests: "a<user id>.<sig>".
func (s *Service) alertsToken(ctx context.Context, uid int64) (string, error) {
	sig, err := s.sign(ctx, purposeAlerts, strconv.FormatInt(uid, 10))
	if err != nil {
		return "", err
	}
	return "a" + strconv.FormatInt(uid, 10) + "." + base64.RawURLEncoding.EncodeToString(sig[:18]), nil
}

// alertsUser returns the member an alerts token names, or 0.
func (s *Service) alertsUser(ctx context.Context, tok string) (int64, error) {
	if !strings.HasPrefix(tok, "a") {
		return 0, nil
	}
	id, sig, ok := ParsePreferencesToken(tok[1:])
	if !ok {
		return 0, nil
	}
	want, err := s.alertsToken(ctx, id)
	if err != nil {
		return 0, err
	}
	_, wantSig, _ := ParsePreferencesToken(want[1:])
	if !hmac.Equal(sig, wantSig) {
		return 0, nil
	}
	return id, nil
}

// OneClick is the RFC 8058 unsubscribe: a preferences token leaves the list (or all
// lists), an alerts token turns off all the member's alerts. It reports false for a
// token that is not valid.
func (s *Service) OneClick(ctx context.Context, token, list string) (bool, error) {
	if uid, err := s.alertsUser(ctx, token); err != nil {
		return false, err
	} else if uid != 0 {
		_, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM newsletter_alerts WHERE user_id = ?`), uid)
		return err == nil, err
	}
	if list == "alerts" {
		list = ""
	}
	_, err := s.Unsubscribe(ctx, token, list, "one-click")
	var he *httpx.Error
	if errors.As(err, &he) && he.Code == httpx.EINVALID {
		return false, nil
	}
	return err == nil, err
}

// sortedScope is a viewer's scope in a stable order (a Finder's Audience).
func SortedScope(v Viewer) string {
	sc := slices.Clone(v.Scope)
	sort.Strings(sc)
	return strings.Join(sc, ",")
}
