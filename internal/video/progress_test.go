package video

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time          { return c.t }
func (c *stepClock) advance(d time.Duration) { c.t = c.t.Add(d) }

const mib = 1 << 20

func TestBarProgress(t *testing.T) {
	var out bytes.Buffer
	clock := &stepClock{t: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	p := NewProgress(&out, true, clock.now)
	p.Start("lecture.mp4", 100*mib, 0)
	for i := 1; i <= 4; i++ {
		clock.advance(time.Second)
		p.Update(int64(i) * 10 * mib) // 10 MiB a second
	}
	last := lastRedraw(out.String())
	for _, want := range []string{"lecture.mp4 [", "40%", "40.0 MiB / 100.0 MiB", "10.0 MiB/s", "6s left", "=========>"} {
		if !strings.Contains(last, want) {
			t.Errorf("bar %q lacks %q", last, want)
		}
	}
	if !strings.HasPrefix(last, "\x1b[K") {
		t.Errorf("bar %q does not clear the line before redrawing", last)
	}

	// A note clears the bar, prints on its own line and redraws the bar below it.
	out.Reset()
	p.Notef("retrying in %s", time.Second)
	if got := out.String(); !strings.HasPrefix(got, "\r\x1b[Kretrying in 1s\n\r\x1b[Klecture.mp4 [") {
		t.Errorf("note output %q", got)
	}

	// Redraws are throttled to ten a second, except for the last byte.
	out.Reset()
	clock.advance(10 * time.Millisecond)
	p.Update(41 * mib)
	if out.Len() != 0 {
		t.Errorf("redrawn after 10 ms: %q", out.String())
	}
	clock.advance(time.Second)
	p.Update(100 * mib)
	p.Finish()
	if got := out.String(); !strings.Contains(got, "100%  100.0 MiB / 100.0 MiB  done in 5s, 20.0 MiB/s on average") || !strings.HasSuffix(got, "\n") {
		t.Errorf("finish %q", got)
	}
}

func TestBarProgressGoesBack(t *testing.T) {
	// After a cut the server confirms less than was sent: the rate starts afresh
	// instead of showing a negative or inflated speed.
	var out bytes.Buffer
	clock := &stepClock{t: time.Unix(0, 0)}
	p := NewProgress(&out, true, clock.now)
	p.Start("x", 10*mib, 0)
	clock.advance(time.Second)
	p.Update(5 * mib)
	clock.advance(time.Second)
	p.Update(2 * mib)
	if last := lastRedraw(out.String()); !strings.Contains(last, "2.0 MiB / 10.0 MiB  -- /s  -- left") {
		t.Errorf("after going back: %q", last)
	}
}

func TestLineProgress(t *testing.T) {
	var out bytes.Buffer
	clock := &stepClock{t: time.Unix(0, 0)}
	p := NewProgress(&out, false, clock.now)
	p.Start("talk.mp4", 100*mib, 20*mib)
	for off := int64(21); off <= 100; off++ {
		clock.advance(100 * time.Millisecond)
		p.Update(off * mib)
	}
	p.Finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "talk.mp4: sending 100.0 MiB from 20.0 MiB (20%)" {
		t.Errorf("first line %q", lines[0])
	}
	// One line at each tenth from 30 % to 100 %, no carriage returns.
	if len(lines) != 9 || strings.Contains(out.String(), "\r") {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	if lines[1] != "talk.mp4:  30%  30.0 MiB / 100.0 MiB  10.0 MiB/s  7s left" {
		t.Errorf("line %q", lines[1])
	}
	if last := lines[len(lines)-1]; last != "talk.mp4: 100%  100.0 MiB / 100.0 MiB  done in 8s, 10.0 MiB/s on average" {
		t.Errorf("last line %q", last)
	}

	// A quiet half minute gets a line even without a new tenth.
	out.Reset()
	p.Start("slow.mp4", 100*mib, 0)
	clock.advance(31 * time.Second)
	p.Update(1 * mib)
	if !strings.Contains(out.String(), "slow.mp4:   1%") {
		t.Errorf("no line after 30 s:\n%s", out.String())
	}
}

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 42 * mib: "42.0 MiB", 1288490189: "1.20 GiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{45 * time.Second: "45s", 192 * time.Second: "3m12s", 125 * time.Minute: "2h05m"} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func lastRedraw(s string) string {
	parts := strings.Split(s, "\r")
	return parts[len(parts)-1]
}
