package freeport

import (
	"net"
	"strconv"
	"testing"
)

// The port Pick names is released again, so the caller's child can listen on it.
func TestPickIsFreeToListenOn(t *testing.T) {
	port, err := Pick()
	if err != nil {
		t.Fatal(err)
	}
	if port <= 0 || port > 65535 {
		t.Fatalf("Pick() = %d, want a TCP port", port)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("listening on the picked port %d: %v", port, err)
	}
	l.Close()
}
