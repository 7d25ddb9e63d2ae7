// Command lb is the small load balancer of the cluster harness (tools/cluster) and
// `make bench-cluster`: it spreads requests round-robin over several `lineage serve`
// instances and takes an instance out while its /readyz does not answer 200, as nginx
// or HAProxy with an active health check would in production (docs/deployment.md has
// that recipe). Not part of the product.
//
// Every -interval it asks each backend's /readyz (waiting at most -timeout: an instance
// slow to say it is ready is not taken out for that alone on a loaded machine); a
// backend is taken out on the first failed probe and put back on the first good one.
// A request is never sent to a backend that is out. When the connection to a backend
// cannot be made (the instance died between two probes) nothing has been sent, so the
// request goes to the next backend and the dead one is taken out at once; a request a
// backend was already answering when it died is answered 502, as nginx would, and not
// sent again (it may not be safe to repeat). Bodies over -retry-body bytes are not kept
// for that second try.
//
// GET /_lb/backends answers the backends and their state as JSON; every proxied answer
// carries X-Lb-Backend naming the instance that made it, so a test can tell who
// answered. The first line on standard output is "lb: listening on http://HOST:PORT".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type backend struct {
	url *url.URL

	mu      sync.Mutex
	healthy bool
	reason  string // why it is out (the last failed probe)
	changes int    // times it was taken out or put back
}

func (b *backend) set(healthy bool, reason string) (changed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.healthy == healthy && (healthy || b.reason == reason) {
		return false
	}
	changed = b.healthy != healthy
	if changed {
		b.changes++
	}
	b.healthy, b.reason = healthy, reason
	return changed
}

func (b *backend) isHealthy() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.healthy
}

// balancer is the proxy: http.Handler for the site, plus the probes.
type balancer struct {
	backends  []*backend
	next      atomic.Uint64
	transport http.RoundTripper
	probe     *http.Client
	retryBody int64
	logf      func(format string, args ...any)
	proxy     *httputil.ReverseProxy
}

func newBalancer(targets []string, probeTimeout time.Duration, retryBody int64, logf func(string, ...any)) (*balancer, error) {
	if len(targets) == 0 {
		return nil, errors.New("give at least one -backend")
	}
	lb := &balancer{retryBody: retryBody, logf: logf}
	for _, t := range targets {
		u, err := url.Parse(t)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("backend %q: want an http:// or https:// URL", t)
		}
		lb.backends = append(lb.backends, &backend{url: u, reason: "not probed yet"})
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	tr.DialContext = (&net.Dialer{Timeout: 2 * time.Second}).DialContext
	lb.transport = tr
	lb.probe = &http.Client{Timeout: probeTimeout, Transport: tr.Clone()}
	lb.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			// The addresses proxies before this one gave, then the caller's, as
			// nginx's $proxy_add_x_forwarded_for (Lineage reads the last address
			// that is not loopback).
			pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
			pr.SetXForwarded()
			// The host the visitor asked for, as nginx's `proxy_set_header Host $host`.
			pr.Out.Host = pr.In.Host
		},
		Transport: roundTripper(lb.roundTrip),
		ModifyResponse: func(res *http.Response) error {
			res.Header.Set("X-Lb-Backend", res.Request.URL.Host)
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, errNoBackend) {
				http.Error(w, "No instance is ready to answer; try again in a moment.", http.StatusServiceUnavailable)
				return
			}
			lb.logf("lb: %s %s: %v", r.Method, r.URL.Path, err)
			http.Error(w, "The instance answering this request stopped.", http.StatusBadGateway)
		},
	}
	return lb, nil
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

var errNoBackend = errors.New("no backend is ready")

// pick returns the healthy backends in the order to try them, starting round-robin.
func (lb *balancer) pick() []*backend {
	n := len(lb.backends)
	start := int(lb.next.Add(1)-1) % n
	var out []*backend
	for i := range n {
		if b := lb.backends[(start+i)%n]; b.isHealthy() {
			out = append(out, b)
		}
	}
	return out
}

// roundTrip sends the request to the next healthy backend; when a backend cannot be
// reached at all it is taken out and the next one is tried.
func (lb *balancer) roundTrip(out *http.Request) (*http.Response, error) {
	var body []byte
	replayable := out.Body == nil || out.Body == http.NoBody
	if !replayable && out.ContentLength >= 0 && out.ContentLength <= lb.retryBody {
		b, err := io.ReadAll(io.LimitReader(out.Body, lb.retryBody+1))
		out.Body.Close()
		if err != nil {
			return nil, err
		}
		body, replayable = b, true
	}
	candidates := lb.pick()
	if len(candidates) == 0 {
		return nil, errNoBackend
	}
	var lastErr error
	for i, b := range candidates {
		r := out.Clone(out.Context())
		r.URL.Scheme, r.URL.Host = b.url.Scheme, b.url.Host
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		res, err := lb.transport.RoundTrip(r)
		if err == nil {
			return res, nil
		}
		lastErr = err
		if !isDialError(err) {
			return nil, err
		}
		if b.set(false, "connection refused: "+err.Error()) {
			lb.logf("lb: %s out: %v", b.url.Host, err)
		}
		if !replayable || i == len(candidates)-1 {
			break
		}
	}
	return nil, lastErr
}

// isDialError reports whether err happened before anything of the request was sent.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func (lb *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_lb/backends" {
		lb.serveStatus(w)
		return
	}
	lb.proxy.ServeHTTP(w, r)
}

type backendState struct {
	URL     string `json:"url"`
	Healthy bool   `json:"healthy"`
	Reason  string `json:"reason,omitempty"`
	Changes int    `json:"changes"`
}

func (lb *balancer) states() []backendState {
	var out []backendState
	for _, b := range lb.backends {
		b.mu.Lock()
		s := backendState{URL: b.url.String(), Healthy: b.healthy, Changes: b.changes}
		if !b.healthy {
			s.Reason = b.reason
		}
		b.mu.Unlock()
		out = append(out, s)
	}
	return out
}

func (lb *balancer) serveStatus(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{"backends": lb.states()})
}

// checkAll probes every backend once, in parallel.
func (lb *balancer) checkAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, b := range lb.backends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, reason := lb.check(ctx, b)
			if b.set(ok, reason) {
				if ok {
					lb.logf("lb: %s back", b.url.Host)
				} else {
					lb.logf("lb: %s out: %s", b.url.Host, reason)
				}
			}
		}()
	}
	wg.Wait()
}

func (lb *balancer) check(ctx context.Context, b *backend) (bool, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url.JoinPath("/readyz").String(), nil)
	if err != nil {
		return false, err.Error()
	}
	res, err := lb.probe.Do(req)
	if err != nil {
		return false, err.Error()
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	if res.StatusCode != http.StatusOK {
		return false, fmt.Sprintf("/readyz %d %s", res.StatusCode, strings.TrimSpace(string(text)))
	}
	return true, ""
}

func (lb *balancer) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		lb.checkAll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var backends listFlag
	addr := flag.String("addr", "127.0.0.1:0", "where to listen")
	flag.Var(&backends, "backend", "an instance's URL, e.g. http://127.0.0.1:8081 (repeat for each)")
	interval := flag.Duration("interval", time.Second, "how often each backend's /readyz is asked")
	timeout := flag.Duration("timeout", 2*time.Second, "how long a /readyz answer is waited for before the probe counts as failed")
	retryBody := flag.Int64("retry-body", 1<<20, "largest request body kept to try the next backend when one cannot be reached")
	flag.Parse()
	logger := log.New(os.Stderr, "", log.LstdFlags|log.Lmicroseconds)
	lb, err := newBalancer(backends, *timeout, *retryBody, logger.Printf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lb:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lb:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lb.checkAll(ctx)
	go lb.run(ctx, *interval)
	fmt.Printf("lb: listening on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: lb, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "lb:", err)
		os.Exit(1)
	}
}
