package gedcom

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	bench100k     []byte
	bench100kOnce sync.Once
)

func people100k() []byte {
	bench100kOnce.Do(func() { bench100k = genPeople(100_000) })
	return bench100k
}

// BenchmarkRead100k reads a generated file of 100 000 people (about 48 MB): MB/s and
// allocations per file.
func BenchmarkRead100k(b *testing.B) {
	benchRead(b, people100k(), func(r *Reader) {
		if n := countRecords(b, r); n != 150_021 || r.WarningCount() != 0 {
			b.Fatalf("%d records, %d warnings", n, r.WarningCount())
		}
	})
}

// BenchmarkReadWrite100k reads the same file and writes it back as GEDCOM 7.0.
func BenchmarkReadWrite100k(b *testing.B) {
	benchRead(b, people100k(), func(r *Reader) {
		w, err := NewWriter(io.Discard, r.Header(), nil)
		if err != nil {
			b.Fatal(err)
		}
		for rec, err := range r.Records() {
			if err != nil {
				b.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkReadANSEL reads the torture test's ANSEL file (diacritics on every line of its
// notes).
func BenchmarkReadANSEL(b *testing.B) {
	benchRead(b, readFile(b, "torture55/TGC55CLF.ged"), func(r *Reader) {
		for _, err := range r.Records() {
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchRead reads data once an iteration, through fn on a new Reader, and reports
// MB/s and allocations.
func benchRead(b *testing.B, data []byte, fn func(r *Reader)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		fn(r)
	}
}

// memSampler wraps a reader and, every 64 reads, collects garbage and samples the live
// heap: what the Reader holds, not what the collector has yet to free.
type memSampler struct {
	r    io.Reader
	n    int
	peak uint64
}

func (m *memSampler) Read(p []byte) (int, error) {
	m.n++
	if m.n%64 == 0 {
		m.sample()
	}
	return m.r.Read(p)
}

func (m *memSampler) sample() { m.peak = max(m.peak, heapNow()) }

func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// readSampled reads everything from src and returns the peak heap growth over the start
// and the number of records.
func readSampled(t *testing.T, src io.Reader, opts *Options) (peak uint64, records int, r *Reader) {
	t.Helper()
	base := heapNow()
	m := &memSampler{r: src}
	r, err := NewReader(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	records = countRecords(t, r)
	m.sample()
	if m.peak < base {
		return 0, records, r
	}
	return m.peak - base, records, r
}

// Memory does not grow with the file: a 300 000-person file (160 MB, generated as it is
// read) is read with the live heap growing by well under a megabyte.
func TestMemoryBoundedByRecord(t *testing.T) {
	peak, n, r := readSampled(t, newPeopleGen(300_000), nil)
	t.Logf("%d records, %d bytes read, peak live heap growth %.1f MB", n, r.Offset(), float64(peak)/1e6)
	if n != 450_021 {
		t.Errorf("%d records", n)
	}
	if peak > 8<<20 {
		t.Errorf("peak live heap growth %d bytes", peak)
	}
}

// endless yields a header and then the same chunk over and over, n bytes in all.
type endless struct {
	head  string
	chunk []byte
	pos   int
	n     int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(len(p), e.n)]
	k := 0
	for k < len(p) {
		if e.head != "" {
			c := copy(p[k:], e.head)
			e.head = e.head[c:]
			k += c
			continue
		}
		c := copy(p[k:], e.chunk[e.pos:])
		e.pos = (e.pos + c) % len(e.chunk)
		k += c
	}
	e.n -= k
	return k, nil
}

// Hostile shapes: one line of 100 MB, one record of 100 MB, 100 MB of garbage lines.
// Each is read in bounded memory, with warnings.
func TestMemoryBoundedHostile(t *testing.T) {
	const size = 100 << 20
	cases := []struct {
		name  string
		src   io.Reader
		opts  *Options
		limit uint64
	}{
		{"one long line", &endless{head: head551 + "0 @N1@ NOTE ", chunk: []byte(strings.Repeat("x", 4096)), n: size}, nil, 16 << 20},
		{"one huge record", &endless{head: head551 + "0 @N1@ NOTE x\n", chunk: []byte(strings.Repeat("1 CONT some text\n2 SOUR @S1@\n", 100)), n: size},
			&Options{MaxRecordBytes: 4 << 20}, 16 << 20},
		{"garbage", &endless{head: head551, chunk: []byte(strings.Repeat("garbage garbage\n", 100)), n: size}, nil, 16 << 20},
		{"deep nesting", &endless{head: head551 + "0 @I1@ INDI\n", chunk: []byte(deepChunk()), n: size},
			&Options{MaxRecordBytes: 4 << 20}, 16 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			peak, n, r := readSampled(t, c.src, c.opts)
			t.Logf("%d records, %d warnings, peak live heap growth %.1f MB", n, r.WarningCount(), float64(peak)/1e6)
			if peak > c.limit {
				t.Errorf("peak live heap growth %.1f MB", float64(peak)/1e6)
			}
			if r.WarningCount() == 0 {
				t.Error("no warning")
			}
		})
	}
}

func deepChunk() string {
	var b strings.Builder
	for i := 1; i <= 99; i++ {
		b.WriteString(strconv.Itoa(i) + " _X y\n")
	}
	return b.String()
}
