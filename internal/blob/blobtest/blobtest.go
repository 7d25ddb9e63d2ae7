// Package blobtest is an S3-compatible server in the test's process: gofakes3 with an
// in-memory backend, served over HTTP on a free port of 127.0.0.1, so that the real S3
// client (and other processes, e.g. `lineage serve` started by a test) talk to it as
// they would to MinIO or AWS.
//
// Like a private bucket, it refuses anonymous requests (no Authorization header and no
// X-Amz-Signature in the query: 403 AccessDenied); it does not check signatures. It
// counts requests that would make objects public (an x-amz-acl header, ?acl or ?policy),
// which Lineage never sends.
package blobtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"lineage/internal/blob"
)

// Credentials the peer accepts (any would do; these are what Env gives).
const (
	AccessKey = "lineage-test"
	SecretKey = "lineage-test-secret"
	Region    = "us-east-1"
)

// Peer is a running S3 server.
type Peer struct {
	URL     string // http://127.0.0.1:port
	backend *s3mem.Backend
	srv     *http.Server
	ln      net.Listener

	requests     atomic.Int64
	anonymous    atomic.Int64
	publicGrants atomic.Int64
}

// New starts a peer; Close stops it. Start is the same for a test.
func New() (*Peer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Peer{URL: "http://" + ln.Addr().String(), backend: s3mem.New(), ln: ln}
	fake := gofakes3.New(p.backend, gofakes3.WithoutVersioning())
	p.srv = &http.Server{Handler: p.guard(fake.Server())}
	go p.srv.Serve(ln)
	return p, nil
}

// Start starts a peer for tb and stops it when tb ends.
func Start(tb testing.TB) *Peer {
	tb.Helper()
	p, err := New()
	if err != nil {
		tb.Fatalf("blobtest: %v", err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// Close stops the server.
func (p *Peer) Close() error { return p.srv.Close() }

func (p *Peer) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		q := r.URL.Query()
		if r.Header.Get("X-Amz-Acl") != "" || q.Has("acl") || q.Has("policy") {
			p.publicGrants.Add(1)
		}
		if r.Header.Get("Authorization") == "" && q.Get("X-Amz-Signature") == "" {
			p.anonymous.Add(1)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Requests is how many requests the peer has received.
func (p *Peer) Requests() int64 { return p.requests.Load() }

// PublicGrants is how many requests tried to make something public.
func (p *Peer) PublicGrants() int64 { return p.publicGrants.Load() }

// Anonymous is how many requests came without credentials (and were refused).
func (p *Peer) Anonymous() int64 { return p.anonymous.Load() }

// CreateBucket makes a bucket.
func (p *Peer) CreateBucket(name string) error { return p.backend.CreateBucket(name) }

// Env is the environment that points Lineage at the peer's bucket:
// LINEAGE_STORAGE_URL=s3://bucket/prefix and the AWS_* variables.
func (p *Peer) Env(bucket, prefix string) map[string]string {
	return map[string]string{
		"LINEAGE_STORAGE_URL":   "s3://" + bucket + "/" + strings.Trim(prefix, "/"),
		"AWS_ENDPOINT_URL":      p.URL,
		"AWS_REGION":            Region,
		"AWS_ACCESS_KEY_ID":     AccessKey,
		"AWS_SECRET_ACCESS_KEY": SecretKey,
	}
}

// Config is the S3 configuration of a bucket of the peer.
func (p *Peer) Config(bucket, prefix string) blob.S3Config {
	return blob.S3Config{Bucket: bucket, Prefix: prefix, Endpoint: p.URL, Region: Region,
		AccessKey: AccessKey, SecretKey: SecretKey, PathStyle: true}
}

var buckets atomic.Int64

// Store makes a fresh bucket on a peer started for tb (one peer per call) and returns
// a store on it under prefix.
func Store(tb testing.TB, prefix string) (*blob.S3, *Peer) {
	tb.Helper()
	p := Start(tb)
	bucket := fmt.Sprintf("lineage-test-%d", buckets.Add(1))
	if err := p.CreateBucket(bucket); err != nil {
		tb.Fatalf("blobtest: create bucket: %v", err)
	}
	s, err := blob.NewS3(p.Config(bucket, prefix))
	if err != nil {
		tb.Fatalf("blobtest: %v", err)
	}
	if err := s.Check(context.Background()); err != nil {
		tb.Fatalf("blobtest: %v", err)
	}
	return s, p
}
