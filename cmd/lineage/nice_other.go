//go:build !linux

package main

// setNice does nothing where threads' priorities are not set one by one as on Linux.
func setNice(int) error { return nil }
