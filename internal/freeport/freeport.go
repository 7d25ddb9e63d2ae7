// Package freeport finds a TCP port on 127.0.0.1 that nothing listens on, for a child
// process that must be told its port before it starts: the SSR renderer's workers, the
// test PostgreSQL cluster, the instances of tools/cluster and tools/soak.
//
// The port is free when Pick returns; another process may take it before the child
// binds it. That is the price of choosing a child's port from outside it.
package freeport

import "net"

// Pick returns a port on 127.0.0.1 that was free a moment ago.
func Pick() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
