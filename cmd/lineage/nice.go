package main

import (
	"fmt"
	"os"
	"strconv"
)

// importNice is the CPU priority (nice value) the import commands run at unless
// LINEAGE_IMPORT_NICE says otherwise: a batch job gives way to a server on the same
// machine, so visitors signing in or reading pages during a long import wait for it
// as little as the machine allows (docs/deployment.md, "Long imports").
const importNice = 10

// lowerPriority gives the process the nice value LINEAGE_IMPORT_NICE (default
// importNice; 0 leaves it as it is). It only ever lowers the priority: a process may
// raise its nice value without privileges, not lower it.
func lowerPriority() error {
	n := importNice
	if v := os.Getenv("LINEAGE_IMPORT_NICE"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 0 || n > 19 {
			return fmt.Errorf("LINEAGE_IMPORT_NICE must be a whole number from 0 to 19 (got %q)", v)
		}
	}
	if n == 0 {
		return nil
	}
	return setNice(n)
}
