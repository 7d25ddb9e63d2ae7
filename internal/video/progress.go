package video

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress shows an upload's advance to the operator. The command picks a bar for a
// terminal and plain lines for logs and pipes; tests read either.
type Progress interface {
	// Start begins (or, after a resume, continues) sending total bytes from offset.
	Start(label string, total, offset int64)
	// Update reports the bytes sent so far. It may go back after a failed request,
	// when the server confirms less than was sent.
	Update(offset int64)
	// Notef shows a message: a retry, a wait for the network, a resume.
	Notef(format string, args ...any)
	// Finish ends the display once the server holds every byte.
	Finish()
}

// NewProgress returns a progress display writing to w: a bar redrawn in place when
// terminal is true, otherwise a line every tenth of the file (or every 30 seconds).
// now is the clock; nil means time.Now.
func NewProgress(w io.Writer, terminal bool, now func() time.Time) Progress {
	if now == nil {
		now = time.Now
	}
	m := meter{now: now}
	if terminal {
		return &barProgress{w: w, meter: m}
	}
	return &lineProgress{w: w, meter: m}
}

// meter measures rate and time left over a sliding window of recent samples.
type meter struct {
	now     func() time.Time
	label   string
	total   int64
	offset  int64
	samples []sample
	begun   sample // when and where this run began sending, for the final average
}

type sample struct {
	at     time.Time
	offset int64
}

const rateWindow = 10 * time.Second

func (m *meter) start(label string, total, offset int64) {
	m.label, m.total, m.offset = label, total, offset
	m.begun = sample{m.now(), offset}
	m.samples = []sample{m.begun}
}

func (m *meter) update(offset int64) {
	t := m.now()
	if offset < m.offset {
		m.samples = m.samples[:0] // bytes sent but not kept: measure afresh
	}
	m.offset = offset
	m.samples = append(m.samples, sample{t, offset})
	// Keep one sample older than the window as the base of the rate.
	cut := 0
	for cut+1 < len(m.samples) && t.Sub(m.samples[cut+1].at) >= rateWindow {
		cut++
	}
	m.samples = m.samples[cut:]
}

// rate is bytes per second, or 0 when there is not yet enough to tell.
func (m *meter) rate() float64 {
	if len(m.samples) < 2 {
		return 0
	}
	first, last := m.samples[0], m.samples[len(m.samples)-1]
	dt := last.at.Sub(first.at).Seconds()
	if dt < 0.5 || last.offset <= first.offset {
		return 0
	}
	return float64(last.offset-first.offset) / dt
}

func (m *meter) percent() int {
	if m.total <= 0 {
		return 100
	}
	return int(m.offset * 100 / m.total)
}

// figures is "42.0 MiB / 100.0 MiB  3.2 MiB/s  18s left", and at the end
// "100.0 MiB / 100.0 MiB  done in 31s, 3.2 MiB/s on average".
func (m *meter) figures() string {
	s := formatBytes(m.offset) + " / " + formatBytes(m.total)
	if m.offset >= m.total {
		took := m.now().Sub(m.begun.at)
		if took < 500*time.Millisecond || m.offset <= m.begun.offset {
			return s + "  done"
		}
		avg := float64(m.offset-m.begun.offset) / took.Seconds()
		return s + "  done in " + formatDuration(took) + ", " + formatBytes(int64(avg)) + "/s on average"
	}
	r := m.rate()
	if r <= 0 {
		return s + "  -- /s  -- left"
	}
	left := time.Duration(float64(m.total-m.offset) / r * float64(time.Second))
	return s + "  " + formatBytes(int64(r)) + "/s  " + formatDuration(left) + " left"
}

// barProgress redraws one line with a carriage return, at most ten times a second.
type barProgress struct {
	w       io.Writer
	meter   meter
	drawn   time.Time
	drawnAt int64 // the offset last drawn
	shown   bool  // a bar is on the current line
}

const barWidth = 24

func (p *barProgress) Start(label string, total, offset int64) {
	p.meter.start(label, total, offset)
	p.draw()
}

func (p *barProgress) Update(offset int64) {
	p.meter.update(offset)
	if p.meter.now().Sub(p.drawn) >= 100*time.Millisecond || (offset == p.meter.total && p.drawnAt != offset) {
		p.draw()
	}
}

func (p *barProgress) draw() {
	m := &p.meter
	filled := barWidth
	if m.total > 0 {
		filled = int(m.offset * barWidth / m.total)
	}
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s [%s] %3d%%  %s", m.label, bar, m.percent(), m.figures())
	p.drawn, p.drawnAt, p.shown = m.now(), m.offset, true
}

func (p *barProgress) Notef(format string, args ...any) {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintf(p.w, format+"\n", args...)
	if p.shown {
		p.draw()
	}
}

func (p *barProgress) Finish() {
	if p.shown {
		p.draw()
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

// lineProgress writes a full line at each tenth of the file, or after 30 quiet seconds.
type lineProgress struct {
	w       io.Writer
	meter   meter
	printed time.Time
	tenth   int
}

func (p *lineProgress) Start(label string, total, offset int64) {
	p.meter.start(label, total, offset)
	p.tenth = p.meter.percent() / 10
	if offset > 0 {
		fmt.Fprintf(p.w, "%s: sending %s from %s (%d%%)\n", label, formatBytes(total), formatBytes(offset), p.meter.percent())
	} else {
		fmt.Fprintf(p.w, "%s: sending %s\n", label, formatBytes(total))
	}
	p.printed = p.meter.now()
}

func (p *lineProgress) Update(offset int64) {
	p.meter.update(offset)
	tenth := p.meter.percent() / 10
	if tenth > p.tenth || p.meter.now().Sub(p.printed) >= 30*time.Second {
		p.tenth = tenth
		p.line()
	}
}

func (p *lineProgress) line() {
	fmt.Fprintf(p.w, "%s: %3d%%  %s\n", p.meter.label, p.meter.percent(), p.meter.figures())
	p.printed = p.meter.now()
}

func (p *lineProgress) Notef(format string, args ...any) { fmt.Fprintf(p.w, format+"\n", args...) }

func (p *lineProgress) Finish() {
	if p.tenth < 10 {
		p.line()
	}
}

// quietProgress is used when no Progress is given.
type quietProgress struct{}

func (quietProgress) Start(string, int64, int64) {}
func (quietProgress) Update(int64)               {}
func (quietProgress) Notef(string, ...any)       {}
func (quietProgress) Finish()                    {}

// formatBytes is a size in binary units: 512 B, 1.5 KiB, 42.0 MiB, 1.20 GiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		if f < unit || u == "TiB" {
			if u == "GiB" || u == "TiB" {
				return fmt.Sprintf("%.2f %s", f, u)
			}
			return fmt.Sprintf("%.1f %s", f, u)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// formatDuration is a short human duration: 45s, 3m12s, 2h05m.
func formatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	default:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}
