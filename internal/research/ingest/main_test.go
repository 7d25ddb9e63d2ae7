package ingest_test

import (
	"testing"

	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }
