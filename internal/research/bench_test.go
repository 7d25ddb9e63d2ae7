package research_test

import (
	"bytes"
	"context"
	"lineage/internal/research/demo"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// BenchmarkImportSQLite and BenchmarkImportPostgres measure importing generated
// baptisms (records/s is reported; `make bench-search` measures the whole pipeline
// at scale).
func BenchmarkImportSQLite(b *testing.B) { benchImport(b, storetest.SQLite) }

func BenchmarkImportPostgres(b *testing.B) { benchImport(b, storetest.Postgres) }

func benchImport(b *testing.B, open func(testing.TB) *store.DB) {
	c := demo.Collections()[0]
	var buf bytes.Buffer
	if err := demo.WriteCSV(&buf, c, 100_000, 1); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := research.New(open(b), research.Options{Log: quietLog()})
		b.StartTimer()
		rep, err := s.ImportRecords(context.Background(), bytes.NewReader(buf.Bytes()), nil, research.ImportOptions{Collection: c.Slug, Bulk: research.BulkOn}, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Added)/rep.Elapsed.Seconds(), "records/s")
	}
}
