package ingest_test

import (
	"testing"

	"lineage/internal/research/researchtest"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// The room's shared test helpers (researchtest), under the names the tests use.
var (
	memberScope  = researchtest.MemberScope
	newService   = researchtest.NewService
	importFile   = researchtest.ImportFile
	importString = researchtest.ImportString
	fixture      = researchtest.Fixture
	search       = researchtest.Search
	keys         = researchtest.Keys
	testdata     = researchtest.Testdata
)
