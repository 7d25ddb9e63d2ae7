package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// instance is a real HTTP server standing in for `lineage serve`: it names itself in
// every answer, echoes request bodies, and its /readyz answers what the test sets.
type instance struct {
	*httptest.Server
	name  string
	ready atomic.Bool
	hits  atomic.Int64
}

func newInstance(t *testing.T, name string) *instance {
	in := &instance{name: name}
	in.ready.Store(true)
	in.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/readyz" {
			if !in.ready.Load() {
				http.Error(w, "draining", http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, "ok")
			return
		}
		in.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		io.WriteString(w, in.name+" "+r.Host+" "+r.Header.Get("X-Forwarded-For")+" "+string(body))
	}))
	t.Cleanup(in.Close)
	return in
}

func newTestBalancer(t *testing.T, ins ...*instance) (*balancer, *httptest.Server) {
	var urls []string
	for _, in := range ins {
		urls = append(urls, in.URL)
	}
	lb, err := newBalancer(urls, 2*time.Second, 1<<20, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	lb.checkAll(context.Background())
	front := httptest.NewServer(lb)
	t.Cleanup(front.Close)
	return lb, front
}

func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header.Get("X-Lb-Backend")
}

func TestRoundRobin(t *testing.T) {
	a, b := newInstance(t, "a"), newInstance(t, "b")
	_, front := newTestBalancer(t, a, b)
	seen := map[string]int{}
	for range 10 {
		code, body, by := get(t, front.URL+"/page")
		if code != 200 {
			t.Fatalf("status %d: %s", code, body)
		}
		name := strings.Fields(body)[0]
		seen[name]++
		if want := strings.TrimPrefix(map[string]string{"a": a.URL, "b": b.URL}[name], "http://"); by != want {
			t.Errorf("X-Lb-Backend %q for an answer of %s (%s)", by, name, want)
		}
		if !strings.Contains(body, strings.TrimPrefix(front.URL, "http://")) {
			t.Errorf("the visitor's Host did not reach the instance: %q", body)
		}
	}
	if seen["a"] != 5 || seen["b"] != 5 {
		t.Errorf("answers by instance = %v, want 5 each", seen)
	}
}

func TestUnreadyInstanceIsTakenOutAndPutBack(t *testing.T) {
	a, b := newInstance(t, "a"), newInstance(t, "b")
	lb, front := newTestBalancer(t, a, b)

	a.ready.Store(false)
	lb.checkAll(context.Background())
	st := lb.states()
	if st[0].Healthy || !strings.Contains(st[0].Reason, "503 draining") || !st[1].Healthy {
		t.Fatalf("after a failed probe: %+v", st)
	}
	before := a.hits.Load()
	for range 6 {
		if code, body, _ := get(t, front.URL+"/x"); code != 200 || !strings.HasPrefix(body, "b ") {
			t.Fatalf("with a out: %d %q", code, body)
		}
	}
	if a.hits.Load() != before {
		t.Errorf("an instance that is out got %d requests", a.hits.Load()-before)
	}

	a.ready.Store(true)
	lb.checkAll(context.Background())
	seen := map[string]bool{}
	for range 4 {
		_, body, _ := get(t, front.URL+"/x")
		seen[strings.Fields(body)[0]] = true
	}
	if !seen["a"] || !seen["b"] {
		t.Errorf("after a recovered, answers came from %v", seen)
	}
	if st := lb.states(); st[0].Changes != 3 {
		t.Errorf("changes of a = %d, want 3 (in at the first probe, out, back)", st[0].Changes)
	}

	// The status page says the same.
	code, body, _ := get(t, front.URL+"/_lb/backends")
	if code != 200 || strings.Count(body, `"healthy":true`) != 2 {
		t.Errorf("/_lb/backends: %d %s", code, body)
	}
}

// An instance that died between two probes: the request (with its body) goes to the
// other, and the dead one is out without waiting for the next probe.
func TestDeadInstanceBetweenProbes(t *testing.T) {
	a, b := newInstance(t, "a"), newInstance(t, "b")
	lb, front := newTestBalancer(t, a, b)
	a.Close()
	for i := range 4 {
		req, _ := http.NewRequest("POST", front.URL+"/sign-up", strings.NewReader("body-"+string(rune('0'+i))))
		req.Header.Set("X-Forwarded-For", "192.0.2.7")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != "b "+strings.TrimPrefix(front.URL, "http://")+" 192.0.2.7, 127.0.0.1 body-"+string(rune('0'+i)) {
			t.Fatalf("request %d: %d %q", i, res.StatusCode, body)
		}
	}
	if st := lb.states(); st[0].Healthy || !strings.Contains(st[0].Reason, "connection refused") {
		t.Errorf("dead instance still in: %+v", st[0])
	}
}

func TestNoInstanceReady(t *testing.T) {
	a := newInstance(t, "a")
	a.ready.Store(false)
	_, front := newTestBalancer(t, a)
	if code, body, _ := get(t, front.URL+"/"); code != 503 || !strings.Contains(body, "No instance is ready") {
		t.Errorf("%d %q", code, body)
	}
}

func TestBackendFlag(t *testing.T) {
	for _, bad := range [][]string{nil, {"127.0.0.1:80"}, {"ftp://x"}, {"http://"}} {
		if _, err := newBalancer(bad, time.Second, 0, t.Logf); err == nil {
			t.Errorf("newBalancer(%q) accepted", bad)
		}
	}
}
