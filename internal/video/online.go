package video

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
	"time"
)

// DialReachable is the default test of "the network is reachable", the condition under
// which failed requests are retried. It dials the host of rawURL: a connection, or a
// refusal (the host answered, it is only not listening), means the network works; a
// timeout, an unreachable network or a failed name lookup means we are offline.
func DialReachable(ctx context.Context, rawURL string) bool {
	hostport := hostPort(rawURL)
	if hostport == "" {
		return true // nothing to test; let the request itself fail
	}
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", hostport)
	if err == nil {
		conn.Close()
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// hostPort is host:port of an http(s) URL, with the scheme's default port.
func hostPort(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
