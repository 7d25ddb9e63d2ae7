package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"lineage/tools/internal/loadavg"
)

// sessionBound is what the sign-in benchmark holds session creation to during an import.
const sessionBound = 100 * time.Millisecond

// runPhased is the sign-in benchmark (-reference): the traffic alone, then the imports
// one after the other, then alone again, and a report comparing the phases.
func (s *soak) runPhased(data string, csvFiles []string, wantRecords int64, gedFile string, wantPeople int64, logPath string) (string, bool, error) {
	c := s.cfg
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	load0 := loadavg.Read(3)
	s.t0 = time.Now()
	loadDone := make(chan struct{})
	go func() { defer close(loadDone); s.sampleLoad(ctx) }()
	probeDone := make(chan struct{})
	go func() {
		defer close(probeDone)
		if c.store == "sqlite" {
			if err := s.probeLock(ctx, filepath.Join(data, "lineage.db")); err != nil {
				s.note("%v", err)
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range c.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.worker(ctx, c.classOf(i), int64(i))
		}()
	}
	s.rest("reference before")

	importStart := s.since()
	csvImport := func(file, collection string, want int64) {
		s.runImport(importResult{what: fmt.Sprintf("CSV: `lineage import records --bulk %s` (%s)", c.bulk, filepath.Base(file)), want: want, collection: collection},
			"import", "records", "--data", data, "--collection", collection, "--title", collection, "--bulk", c.bulk, "--quiet", file)
	}
	csvImport(csvFiles[0], "soak-records", wantRecords)
	if c.people > 0 {
		s.runImport(importResult{what: "GEDCOM: `lineage import gedcom`", want: wantPeople, tree: "soak-tree"},
			"import", "gedcom", "--data", data, "--tree", "soak-tree", "--quiet", gedFile)
		s.deleteTree("soak-tree", wantPeople)
	}
	// Short of the import time asked for, more of the generated collections follow.
	for i, file := range csvFiles[1:] {
		if s.since()-importStart >= c.minImport {
			break
		}
		want, err := countRecords(file)
		if err != nil {
			return "", false, err
		}
		csvImport(file, fmt.Sprintf("soak-records-%d", i+2), want)
	}
	s.rest("reference after")
	stop()
	wg.Wait()
	<-loadDone
	<-probeDone
	report, met := s.phasedReport(load0, loadavg.Read(3), importStart, logPath)
	return report, met, nil
}

// rest is a reference phase: the traffic alone for cfg.reference.
func (s *soak) rest(name string) {
	ph := phase{name: name, start: s.since()}
	time.Sleep(s.cfg.reference)
	ph.end = s.since()
	s.mu.Lock()
	s.phases = append(s.phases, ph)
	s.mu.Unlock()
}

// runImport runs one import with the CLI as a phase of its own, and counts what it
// left through the API.
func (s *soak) runImport(r importResult, args ...string) {
	s.runCLI(&r, args...)
	s.checkImport(&r)
	s.mu.Lock()
	s.phases = append(s.phases, phase{name: r.what, start: r.start, end: r.end, importing: true})
	s.imported = append(s.imported, r)
	s.mu.Unlock()
}

// deleteTree deletes the imported tree through the API, as staff do, as a phase of
// its own; people is what it held.
func (s *soak) deleteTree(slug string, people int64) {
	r := importResult{what: fmt.Sprintf("tree delete: `DELETE /api/trees/%s` (%d people)", slug, people), gone: slug}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	do := func(c *http.Client, method, path, _ string, body io.Reader, hdr http.Header) *http.Response {
		req, _ := http.NewRequest(method, s.base+path, body)
		for k, v := range hdr {
			req.Header[k] = v
		}
		res, err := c.Do(req)
		if err != nil {
			r.err = err
			return nil
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	c, hdr, si := s.signedIn(tr, do, adminEmail)
	r.start = s.since()
	if !si.ok {
		if r.err == nil {
			r.err = fmt.Errorf("staff sign-in failed at %s", si.failed)
		}
	} else {
		c.Timeout = time.Hour
		if res := do(c, "DELETE", "/api/trees/"+slug, "", nil, hdr); res != nil && res.StatusCode != 204 {
			r.err = fmt.Errorf("DELETE answered %s", res.Status)
		}
	}
	r.end = s.since()
	s.checkImport(&r)
	s.mu.Lock()
	s.phases = append(s.phases, phase{name: r.what, start: r.start, end: r.end, importing: true})
	s.imported = append(s.imported, r)
	s.mu.Unlock()
}

// sampleLoad reads the 1-minute load average every 5 s until ctx ends.
func (s *soak) sampleLoad(ctx context.Context) {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		if f, err := strconv.ParseFloat(strings.Fields(loadavg.Read(1) + " ?")[0], 64); err == nil {
			s.mu.Lock()
			s.loads = append(s.loads, loadSample{at: s.since(), load1: f})
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// signInStats are the sign-ins of a phase.
type signInStats struct {
	n, failed, over int // over: sessions created in more than sessionBound
	session, whole  []time.Duration
	probe           []time.Duration // the write-lock probe's waits (SQLite)
	loadMin         float64         // -1: no reading
	loadMax         float64
	loadSum         float64
	loadN           int
}

// statsOf gathers the sign-ins that overlap [from, to] (import phases: any moment of
// an import counts) or lie inside it (reference phases: untouched by an import).
func (s *soak) statsOf(from, to time.Duration, overlap bool) signInStats {
	var st signInStats
	for _, si := range s.signIns {
		in := si.start >= from && si.end <= to
		if overlap {
			in = si.start <= to && si.end >= from
		}
		if !in {
			continue
		}
		st.n++
		if !si.ok {
			st.failed++
			continue
		}
		st.session = append(st.session, si.session)
		st.whole = append(st.whole, si.end-si.start)
		if si.session > sessionBound {
			st.over++
		}
	}
	for _, pr := range s.probes {
		if pr.at >= from && pr.at <= to {
			st.probe = append(st.probe, pr.wait)
		}
	}
	st.loadMin = -1
	for _, l := range s.loads {
		if l.at < from || l.at > to {
			continue
		}
		if st.loadMin < 0 || l.load1 < st.loadMin {
			st.loadMin = l.load1
		}
		st.loadMax = max(st.loadMax, l.load1)
		st.loadSum += l.load1
		st.loadN++
	}
	return st
}

func (st signInStats) merge(o signInStats) signInStats {
	out := signInStats{n: st.n + o.n, failed: st.failed + o.failed, over: st.over + o.over,
		session: append(slices.Clone(st.session), o.session...), whole: append(slices.Clone(st.whole), o.whole...),
		probe:   append(slices.Clone(st.probe), o.probe...),
		loadMin: min(st.loadMin, o.loadMin), loadMax: max(st.loadMax, o.loadMax), loadSum: st.loadSum + o.loadSum, loadN: st.loadN + o.loadN}
	if st.loadMin < 0 {
		out.loadMin = o.loadMin
	} else if o.loadMin < 0 {
		out.loadMin = st.loadMin
	}
	return out
}

func maxMs(lat []time.Duration) float64 {
	if len(lat) == 0 {
		return 0
	}
	return float64(slices.Max(lat).Microseconds()) / 1000
}

func (st signInStats) row(name string, from, to time.Duration) string {
	load := "—"
	if st.loadN > 0 {
		load = fmt.Sprintf("%.1f–%.1f (mean %.1f)", st.loadMin, st.loadMax, st.loadSum/float64(st.loadN))
	}
	span := fmt.Sprintf("%.0f–%.0f", from.Seconds(), to.Seconds())
	if from < 0 {
		span = "—"
	}
	probe := "—"
	if len(st.probe) > 0 {
		over := 0
		for _, w := range st.probe {
			if w > sessionBound {
				over++
			}
		}
		probe = fmt.Sprintf("%.1f / %.1f / %.1f (%d of %d over %d ms)", percentile(st.probe, 0.50), percentile(st.probe, 0.99), maxMs(st.probe), over, len(st.probe), sessionBound.Milliseconds())
	}
	return fmt.Sprintf("| %s | %s | %s | %d | %d | %.1f / %.1f / %.1f | %d | %.1f / %.1f / %.1f | %s |\n", name, span, load, st.n, st.failed,
		percentile(st.session, 0.50), percentile(st.session, 0.99), maxMs(st.session), st.over,
		percentile(st.whole, 0.50), percentile(st.whole, 0.99), maxMs(st.whole), probe)
}

// phasedReport writes the sign-in benchmark's report and says whether the bound held.
func (s *soak) phasedReport(load0, loadEnd string, importStart time.Duration, logPath string) (string, bool) {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	c := s.cfg
	importEnd := importStart
	for _, ph := range s.phases {
		if ph.importing {
			importEnd = max(importEnd, ph.end)
		}
	}
	pause := "no pause"
	if c.think > 0 {
		pause = fmt.Sprintf("a pause of 0–%s", 2*c.think)
	}
	p("Run from %s to %s UTC. Store: **%s**. %d connections of back-to-back sign-ins (%s between two); load average before: %s, at the end: %s. Import phase: %.1f min (%.0f–%.0f s).\n\n",
		s.t0.UTC().Format("15:04"), time.Now().UTC().Format("15:04"), c.store, c.conns, pause, load0, loadEnd, (importEnd - importStart).Minutes(), importStart.Seconds(), importEnd.Seconds())
	if c.store == "sqlite" {
		p("The last column is a probe in the load tool's own process that takes SQLite's write lock every 20 ms (`BEGIN IMMEDIATE`, tried again every 0.5 ms as the store's busy handler does, then `ROLLBACK`, writing nothing): its wait is the wait for the lock alone, where a new session's time also holds the request's own work and the wait for a core.\n\n")
	}
	p("| phase | s from start | load (1 min) min–max | sign-ins | failed | new session p50 / p99 / max ms | sessions > %d ms | whole sign-in p50 / p99 / max ms | write-lock probe p50 / p99 / max ms |\n|---|---|---|---|---|---|---|---|---|\n", sessionBound.Milliseconds())
	var ref, imp signInStats
	ref.loadMin, imp.loadMin = -1, -1
	for _, ph := range s.phases {
		st := s.statsOf(ph.start, ph.end, ph.importing)
		p("%s", st.row(ph.name, ph.start, ph.end))
		if !ph.importing {
			ref = ref.merge(st)
		}
	}
	imp = s.statsOf(importStart, importEnd, true)
	p("%s", ref.row("**both reference phases**", -1, 0))
	p("%s", imp.row("**the whole import phase**", importStart, importEnd))
	ratio := func(a, b float64) string {
		if b == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	p("\nImport phase over both reference phases: new session p50 %s, p99 %s, max %s; whole sign-in p50 %s, p99 %s, max %s.\n",
		ratio(percentile(imp.session, 0.50), percentile(ref.session, 0.50)), ratio(percentile(imp.session, 0.99), percentile(ref.session, 0.99)), ratio(maxMs(imp.session), maxMs(ref.session)),
		ratio(percentile(imp.whole, 0.50), percentile(ref.whole, 0.50)), ratio(percentile(imp.whole, 0.99), percentile(ref.whole, 0.99)), ratio(maxMs(imp.whole), maxMs(ref.whole)))

	// The slowest sessions, to set beside the server's log and the imports' stages.
	slow := slices.Clone(s.signIns)
	sort.Slice(slow, func(i, j int) bool { return slow[i].session > slow[j].session })
	p("\nThe slowest new sessions (s from start, phase, ms")
	if len(s.probes) > 0 {
		p("; the write-lock probe's longest wait begun meanwhile")
	}
	p("):")
	for i, si := range slow[:min(8, len(slow))] {
		sep := ","
		if i == 0 {
			sep = ""
		}
		p("%s %.1f s (%s) %.1f", sep, si.start.Seconds(), s.phaseAt(si.start), float64(si.session.Microseconds())/1000)
		if len(s.probes) > 0 {
			var w time.Duration
			for _, pr := range s.probes {
				if pr.at >= si.start-20*time.Millisecond && pr.at <= si.start+si.session {
					w = max(w, pr.wait)
				}
			}
			p(" (probe %.1f)", float64(w.Microseconds())/1000)
		}
	}
	p(".\n")

	p("\nThe imports, run with the CLI (the delete through the API) into the serving store:\n\n| import | from s | to s | minutes | result | expected | loaded |\n|---|---|---|---|---|---|---|\n")
	lost := false
	csvMinutes := 0.0
	for i, r := range s.imported {
		res, l := r.outcome()
		lost = lost || l
		want, got := strconv.FormatInt(r.want, 10), strconv.FormatInt(r.got, 10)
		if r.gone != "" {
			want = "404 after"
			got = "404"
			if r.got != 0 {
				got = "still there"
			}
		}
		if i == 0 {
			csvMinutes = (r.end - r.start).Minutes()
		}
		p("| %s | %.1f | %.1f | %.1f | %s | %s | %s |\n", r.what, r.start.Seconds(), r.end.Seconds(), (r.end - r.start).Minutes(), res, want, got)
	}
	failures := map[string]int{}
	failedSignIns := 0
	for _, si := range s.signIns {
		if !si.ok {
			failedSignIns++
		}
	}
	for _, sm := range s.samples {
		if sm.err != "" {
			failures[sm.what+": "+sm.err]++
		} else if sm.status >= 400 {
			failures[sm.what+": "+strconv.Itoa(sm.status)]++
		}
	}
	if len(failures) > 0 {
		p("\nError answers:\n\n")
		keys := make([]string, 0, len(failures))
		for k := range failures {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p("- %d × %s\n", failures[k], k)
		}
	}
	b.WriteString(s.notesAndErrors(logPath))
	var missed []string
	if imp.n < 100 {
		missed = append(missed, fmt.Sprintf("%d sign-ins during the imports (100 asked for)", imp.n))
	}
	if failedSignIns > 0 || len(failures) > 0 {
		missed = append(missed, fmt.Sprintf("%d sign-ins failed", failedSignIns))
	}
	if lost {
		missed = append(missed, "an import did not load everything")
	}
	if importEnd-importStart < c.minImport {
		missed = append(missed, fmt.Sprintf("the import phase lasted %.1f min (%.0f asked for)", (importEnd-importStart).Minutes(), c.minImport.Minutes()))
	}
	if imp.over > 0 {
		missed = append(missed, fmt.Sprintf("%d of %d new sessions during the imports took over %d ms (the longest %.1f ms)", imp.over, len(imp.session), sessionBound.Milliseconds(), maxMs(imp.session)))
	}
	p("\nThe first CSV import alone lasted %.1f min.\n", csvMinutes)
	if len(missed) == 0 {
		p("\n**Bound met**: %d sign-ins during %.1f min of imports, none failed, every new session created within %d ms (the longest %.1f ms), every record and person loaded.\n",
			imp.n, (importEnd - importStart).Minutes(), sessionBound.Milliseconds(), maxMs(imp.session))
	} else {
		p("\n**Bound missed**: %s.\n", strings.Join(missed, "; "))
	}
	return b.String(), len(missed) == 0
}

// phaseAt names the phase running at t.
func (s *soak) phaseAt(t time.Duration) string {
	for _, ph := range s.phases {
		if t >= ph.start && t <= ph.end {
			name := ph.name
			if i := strings.Index(name, ":"); i > 0 {
				name = name[:i]
			}
			return name
		}
	}
	return "between phases"
}
