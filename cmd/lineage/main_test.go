package main

import (
	"testing"

	"lineage/internal/store/storetest"
)

// TestMain stops the throwaway PostgreSQL cluster that storetest.Each starts.
func TestMain(m *testing.M) { storetest.Main(m) }
