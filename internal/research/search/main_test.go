package search_test

import (
	"testing"

	"lineage/internal/research/researchtest"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// The room's shared test helpers (researchtest), under the names the tests use.
var (
	memberScope = researchtest.MemberScope
	quietLog    = researchtest.QuietLog
	newService  = researchtest.NewService
	importFile  = researchtest.ImportFile
	fixture     = researchtest.Fixture
	mustQuery   = researchtest.MustQuery
	search      = researchtest.Search
	keys        = researchtest.Keys
	allPagesAs  = researchtest.AllPagesAs
	broadRooms  = researchtest.Broad
)
