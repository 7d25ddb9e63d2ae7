package videotest

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// Fault injectors wrap the tus handler (Server.SetTusWrapper). Each counts the requests
// it has acted on, so a test can say "the first two PATCHes" and then let the real tusd
// answer.

// Chain applies wrappers so that the first one sees a request first.
func Chain(wraps ...func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		for i := len(wraps) - 1; i >= 0; i-- {
			h = wraps[i](h)
		}
		return h
	}
}

// counter hands out the first n matches of a method.
type counter struct {
	method string
	left   atomic.Int64
}

func newCounter(method string, n int) *counter {
	c := &counter{method: method}
	c.left.Store(int64(n))
	return c
}

func (c *counter) take(r *http.Request) bool {
	if c.method != "" && r.Method != c.method {
		return false
	}
	return c.left.Add(-1) >= 0
}

// firstN hands the first n requests with method (any method if empty) to fault, with
// tusd as next; every other request goes to tusd untouched.
func firstN(method string, n int, fault func(w http.ResponseWriter, r *http.Request, next http.Handler)) func(http.Handler) http.Handler {
	c := newCounter(method, n)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !c.take(r) {
				next.ServeHTTP(w, r)
				return
			}
			fault(w, r, next)
		})
	}
}

// Fail answers the first n requests with method (any method if empty) with status, as
// tusd answers its errors, without touching the upload.
func Fail(method string, status, n int) func(http.Handler) http.Handler {
	return firstN(method, n, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Tus-Resumable", "1.0.0")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		io.WriteString(w, "ERR_INJECTED: injected "+strconv.Itoa(status)+"\n")
	})
}

// CutPatchAfter lets tusd receive the first after bytes of each of the first n PATCHes
// and then drops the connection without an answer, as a failing office line does. tusd
// keeps what it received, as the tus protocol asks.
func CutPatchAfter(after int64, n int) func(http.Handler) http.Handler {
	return firstN(http.MethodPatch, n, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		r.Body = &cutBody{r: r.Body, left: after}
		next.ServeHTTP(&swallow{h: http.Header{}}, r)
		hangUp(w)
	})
}

// DropPatchAnswer lets tusd handle each of the first n PATCHes completely, calls
// stored, and then drops the connection instead of sending tusd's answer: the server
// holds the bytes, the client never hears so.
func DropPatchAnswer(n int, stored func()) func(http.Handler) http.Handler {
	return firstN(http.MethodPatch, n, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		next.ServeHTTP(&swallow{h: http.Header{}}, r)
		if stored != nil {
			stored()
		}
		hangUp(w)
	})
}

// hangUp closes the client's connection without an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
		}
	}
}

// cutBody ends in an error after left bytes.
type cutBody struct {
	r    io.ReadCloser
	left int64
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cutBody) Close() error { return b.r.Close() }

// swallow is a ResponseWriter whose answer never reaches the client.
type swallow struct{ h http.Header }

func (s *swallow) Header() http.Header         { return s.h }
func (s *swallow) Write(p []byte) (int, error) { return len(p), nil }
func (s *swallow) WriteHeader(int)             {}

// HoldPatchAfter passes the first PATCH's bytes to tusd until after of them have gone
// through, then closes reached and holds the request until release is closed: the
// moment a test kills the uploading process. After the release the body fails, as the
// dead client's connection would, so tusd keeps exactly the bytes before the hold
// (otherwise bytes already in the socket buffers could still arrive).
func HoldPatchAfter(after int64, reached chan<- struct{}, release <-chan struct{}) func(http.Handler) http.Handler {
	return firstN(http.MethodPatch, 1, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		r.Body = &holdBody{cutBody: cutBody{r: r.Body, left: after}, reached: reached, release: release}
		next.ServeHTTP(w, r)
	})
}

// holdBody is a cutBody that, at the cut, waits for release before it fails.
type holdBody struct {
	cutBody
	once    sync.Once
	reached chan<- struct{}
	release <-chan struct{}
}

func (b *holdBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.once.Do(func() { close(b.reached) })
		<-b.release
	}
	return b.cutBody.Read(p)
}

// RewriteHeader lets tusd answer the first n requests with method, then changes header
// name in the answer with edit (which gets the old value; returning "" removes it).
// Tests use it to make the server report offsets and lengths it should not.
func RewriteHeader(method string, n int, name string, edit func(old string) string) func(http.Handler) http.Handler {
	return firstN(method, n, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		next.ServeHTTP(&rewriter{ResponseWriter: w, name: name, edit: edit}, r)
	})
}

type rewriter struct {
	http.ResponseWriter
	name  string
	edit  func(string) string
	wrote bool
}

func (rw *rewriter) WriteHeader(status int) {
	if !rw.wrote {
		rw.wrote = true
		if v := rw.edit(rw.Header().Get(rw.name)); v != "" {
			rw.Header().Set(rw.name, v)
		} else {
			rw.Header().Del(rw.name)
		}
	}
	rw.ResponseWriter.WriteHeader(status)
}

func (rw *rewriter) Write(p []byte) (int, error) {
	if !rw.wrote {
		rw.WriteHeader(http.StatusOK)
	}
	return rw.ResponseWriter.Write(p)
}

func (rw *rewriter) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// Observe calls see with every tus request before tusd handles it, e.g. to cancel the
// uploading client's context at a chosen moment.
func Observe(see func(r *http.Request)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			see(r)
			next.ServeHTTP(w, r)
		})
	}
}
