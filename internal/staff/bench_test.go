package staff_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"lineage/internal/research"
	"lineage/internal/staff"
	"lineage/internal/store/storetest"
)

// benchCSV is a register of n one-person records in the canonical layout.
func benchCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("record_id,record_type,date,place,role,surname,given_names,sex,age\n")
	surnames := []string{"Ackroyd", "Sugden", "Smith", "Jones", "Hirst", "Priestley", "Firth", "Walker"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "R%d,baptism,%d Mar %d,Leeds,principal,%s,John %d,M,\n", i, 1+i%28, 1800+i%100, surnames[i%len(surnames)], i%97)
	}
	return b.Bytes()
}

const benchRecords = 20_000

// BenchmarkRecordsImport compares, on SQLite, a staff import job (upload, the pre-pass
// that keeps what undo needs, the engine's import, progress in the store) with the
// engine's import of the same file alone, each into a new collection. Run them
// interleaved: go test -run XXX -bench RecordsImport -count 5 ./internal/staff.
func BenchmarkRecordsImport(b *testing.B) {
	data := benchCSV(benchRecords)
	b.Run("engine", func(b *testing.B) {
		db := storetest.SQLite(b)
		rs := research.New(db, research.Options{Log: quiet})
		if err := rs.Init(b.Context()); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			rep, err := rs.ImportRecords(b.Context(), bytes.NewReader(data), nil, research.ImportOptions{Collection: fmt.Sprintf("c%d", i), Bulk: research.BulkOff}, int64(len(data)))
			if err != nil || rep.Added != benchRecords {
				b.Fatalf("%+v %v", rep, err)
			}
		}
		b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
	})
	b.Run("staff-job", func(b *testing.B) {
		e := newEnv(b, storetest.SQLite(b))
		vol, _ := e.signedIn("Vera", "editor")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			ua := vol.uploadCSV("upload", "r.csv", data)
			var ja jobAnswer
			st, body := vol.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/import", map[string]any{"mapping": ua.Upload.Proposed.Mapping, "collection": fmt.Sprintf("c%d", i)})
			want(b, "import", st, body, http.StatusAccepted, &ja)
			evs := vol.events(ja.Job.ID)
			if last := evs[len(evs)-1]; last.name != "done" || last.job.State != staff.StateDone {
				b.Fatalf("job: %+v", last.job)
			}
		}
		b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
	})
}
