package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestWindowAnswer(t *testing.T) {
	tests := []struct {
		name string
		in   sample
		want string
	}{
		{"cache hit", sample{status: 200, cache: "hit"}, "cache"},
		{"stale", sample{status: 200, cache: "stale"}, "cache"},
		{"rendered", sample{status: 200, cache: "miss"}, "rendered"},
		{"starting page", sample{status: 503, retryAfter: true}, "retry"},
		{"503 bare", sample{status: 503}, "503 without Retry-After"},
		{"502", sample{status: 502, retryAfter: true}, "502"},
		{"404 from the cache", sample{status: 404, cache: "hit"}, "404"},
		{"transport", sample{err: "timeout"}, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := windowAnswer(tt.in); got != tt.want {
				t.Errorf("windowAnswer = %q, want %q", got, tt.want)
			}
		})
	}
}

// Inside an SSR child's window only the page cache, a rendered page and the starting
// page pass; inside the content API's window everything is excused; other classes and
// requests outside every window are not counted.
func TestWindowTable(t *testing.T) {
	s := &soak{windows: []window{
		{name: "killed", start: 10 * time.Second, end: 20 * time.Second, ssr: true},
		{name: "content", start: 30 * time.Second, end: 40 * time.Second},
	}}
	page := func(at int, status int, cache string, retry bool, err string) sample {
		d := time.Duration(at) * time.Second
		return sample{class: pageClass, start: d, end: d + 100*time.Millisecond, status: status, cache: cache, retryAfter: retry, err: err}
	}
	s.samples = []sample{
		page(11, 200, "hit", false, ""),
		page(12, 200, "stale", false, ""),
		page(13, 200, "miss", false, ""),
		page(14, 503, "miss", true, ""),
		page(15, 503, "miss", false, ""),
		page(16, 0, "", false, "connection refused"),
		page(31, 503, "miss", false, ""),
		page(5, 500, "", false, ""),
		{class: "search", start: 12 * time.Second, end: 13 * time.Second, status: 500},
	}
	var b strings.Builder
	failures := s.windowTable(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) })
	if failures != 2 {
		t.Errorf("failures = %d, want 2 (a 503 without Retry-After and a refused connection)\n%s", failures, b.String())
	}
	for _, row := range []string{
		"| killed | 6 | 2 (1 / 1) | 1 | 1 | 503 without Retry-After × 1, connection refused × 1 | **2** |",
		"| content | 1 | 0 (0 / 0) | 0 | 0 | 503 without Retry-After × 1 | **excused** |",
	} {
		if !strings.Contains(b.String(), row) {
			t.Errorf("table lacks %q:\n%s", row, b.String())
		}
	}
}

// An import's row takes every sign-in that overlaps it; a reference row only those
// wholly inside, so that no sign-in touched by an import counts as a reference.
func TestStatsOf(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	s := &soak{signIns: []signInSample{
		{start: ms(100), end: ms(900), session: ms(5), ok: true},     // reference only
		{start: ms(900), end: ms(1100), session: ms(150), ok: true},  // straddles the start of the import
		{start: ms(1500), end: ms(1700), session: ms(20), ok: true},  // import only
		{start: ms(1900), end: ms(2100), session: ms(30), ok: false}, // straddles its end, failed
		{start: ms(2200), end: ms(2400), session: ms(7), ok: true},   // reference only
	}}
	ref := s.statsOf(0, ms(1000), false).merge(s.statsOf(ms(2000), ms(3000), false))
	if ref.n != 2 || ref.over != 0 || ref.failed != 0 {
		t.Errorf("reference: %d sign-ins, %d over the bound, %d failed; want 2, 0, 0", ref.n, ref.over, ref.failed)
	}
	imp := s.statsOf(ms(1000), ms(2000), true)
	if imp.n != 3 || imp.over != 1 || imp.failed != 1 || len(imp.session) != 2 {
		t.Errorf("import: %d sign-ins, %d over the bound, %d failed, %d timed; want 3, 1, 1, 2", imp.n, imp.over, imp.failed, len(imp.session))
	}
}

func TestClassOf(t *testing.T) {
	all := config{active: classes}
	got := map[string]int{}
	for i := range 64 {
		got[all.classOf(i)]++
	}
	if got["pages"] != 24 || got["search"] != 16 || got["tiles"] != 16 || got["sign-in"] != 8 {
		t.Errorf("64 connections of every class: %v", got)
	}
	only := config{active: classes[3:]}
	for i := range 3 {
		if c := only.classOf(i); c != "sign-in" {
			t.Errorf("connection %d of -classes sign-in is %s", i, c)
		}
	}
}
