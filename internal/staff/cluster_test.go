package staff_test

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/research"
	"lineage/internal/research/researchtest"
	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// twoServers are two servers with their own staging folders on one database and one
// bucket, each reaching the bucket through a client of its own, as two machines behind
// a load balancer would.
func twoServers(t *testing.T, db *store.DB) (a, b *env) {
	t.Helper()
	bucket, peer := blobtest.Store(t, "site/")
	name, _, _ := strings.Cut(strings.TrimPrefix(bucket.String(), "s3://"), "/")
	bucketB, err := blob.NewS3(peer.Config(name, "site/"))
	if err != nil {
		t.Fatal(err)
	}
	return newEnvOn(t, db, bucket), newEnvOn(t, db, bucketB)
}

// TestRecordsAcrossServers: a records file uploaded through one server is listed, dry
// run and imported through the other, its progress followed through the first; scans
// sent to one are cut from the bucket; the files live in the bucket, none in either
// server's staging folder, and deleting an upload deletes its file from the bucket.
func TestRecordsAcrossServers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, b := twoServers(t, db)
		volA, _ := a.signedIn("Vera", "editor")
		volB := volA.on(b)

		ua := volA.uploadCSV("upload through A", "parish.csv", []byte(parish))
		if keys := b.storedKeys("staff/records/"); len(keys) != 1 || !strings.Contains(keys[0], ua.Upload.ID) {
			t.Fatalf("the bucket holds %q", keys)
		}
		if list := volB.uploads("list through B"); len(list) != 1 || list[0].ID != ua.Upload.ID {
			t.Fatalf("B lists %+v", list)
		}
		m := ua.Upload.Proposed.Mapping
		var dr struct {
			DryRun staff.DryRun `json:"dry_run"`
		}
		st, body := volB.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/dry-run", map[string]any{"mapping": m, "collection": "leeds"})
		want(t, "dry run through B", st, body, http.StatusOK, &dr)
		if dr.DryRun.Records != 3 || dr.DryRun.Good != 2 || dr.DryRun.Skipped != 1 || len(dr.DryRun.Sample) != 2 {
			t.Fatalf("dry run through B: %+v", dr.DryRun)
		}
		var ja jobAnswer
		st, body = volB.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/import", map[string]any{"mapping": m, "collection": "leeds"})
		want(t, "import through B", st, body, http.StatusAccepted, &ja)
		evs := volA.events(ja.Job.ID)
		if last := evs[len(evs)-1]; last.name != "done" {
			t.Fatalf("import through B, followed through A: %s %+v %v", last.name, last.job, *last.job.Error)
		}
		if a.searchTotal("Sugden") != 1 || a.searchTotal("Ackroyd") != 1 {
			t.Errorf("after the import: Sugden %d, Ackroyd %d", a.searchTotal("Sugden"), a.searchTotal("Ackroyd"))
		}
		if keys := a.storedKeys("staff/jobs/"); len(keys) != 0 {
			t.Errorf("the finished job left %q", keys)
		}

		// Scans sent to B are cut there from the bucket, which keeps nothing of them after.
		if _, err := a.rs.ImportRecords(t.Context(), strings.NewReader("record_id,record_type,date,place,role,surname,given_names\n"+
			"S1,baptism,1850,York,principal,Scanned,Sam\n"), nil, research.ImportOptions{Collection: "york"}, 0); err != nil {
			t.Fatal(err)
		}
		st, body = volB.upload("/api/studio/scans/uploads", map[string]string{"collection": "york", "record": "S1"},
			[]formFile{{"files", "page-1.png", pngOf(t, 120, 80, color.RGBA{200, 0, 0, 255})}})
		want(t, "scans through B", st, body, http.StatusAccepted, &ja)
		if evs := volA.events(ja.Job.ID); evs[len(evs)-1].name != "done" {
			t.Fatalf("scans job: %+v", evs[len(evs)-1].job)
		}
		var pages int
		if err := db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM iiif_images`).Scan(&pages); err != nil || pages != 1 {
			t.Errorf("pages stored: %d %v", pages, err)
		}
		if keys := a.storedKeys("staff/scans/"); len(keys) != 0 {
			t.Errorf("the finished scans job left %q", keys)
		}

		for _, e := range []*env{a, b} {
			if files := e.scratchFiles(); len(files) != 0 {
				t.Errorf("a staging folder holds %q", files)
			}
		}
		if st, body := volB.do("DELETE", "/api/studio/records/uploads/"+ua.Upload.ID, nil); st != http.StatusNoContent {
			t.Fatalf("delete through B: %d %s", st, body)
		}
		if n := a.stagedCSVs(); n != 0 {
			t.Errorf("%d records files left in the bucket", n)
		}
	})
}

// TestServerDiesMidImport: a server dies in the middle of a records import (its jobs'
// context ends between two of its writes, and it writes nothing more); the other
// server takes the job back from the take-back files in the bucket, leaving the
// collection exactly as it was, the records the import changed included. A scans
// upload whose server died before cutting it is removed from the bucket the same way.
func TestServerDiesMidImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, b := twoServers(t, db)
		var once sync.Once
		dead := make(chan struct{})
		release := func() { once.Do(func() { close(dead) }) }
		t.Cleanup(release) // before a's own cleanup waits for its jobs
		volA, _ := a.signedIn("Vera", "editor")
		volB := volA.on(b)
		ctx := t.Context()
		if _, err := a.rs.ImportRecords(ctx, strings.NewReader("record_id,record_type,date,place,role,surname,given_names\n"+
			"P1,baptism,1850,York,principal,Ackroyd,Old\n"), nil, research.ImportOptions{Collection: "leeds"}, 0); err != nil {
			t.Fatal(err)
		}
		before := researchtest.Fingerprint(t, db)

		ua := volB.uploadCSV("upload through B", "parish.csv", []byte(parish))
		reached := make(chan struct{}, 1)
		a.st.SetBatchDone(func(ctx context.Context) {
			select {
			case reached <- struct{}{}:
			default:
			}
			<-dead
		})
		var ja jobAnswer
		st, body := volA.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/import", map[string]any{"mapping": ua.Upload.Proposed.Mapping, "collection": "leeds"})
		want(t, "import through A", st, body, http.StatusAccepted, &ja)
		<-reached
		if a.searchTotal("Sugden") != 1 || a.searchTotal("Old") != 0 {
			t.Fatal("the job had not written its records (an addition and a change) when its server died")
		}
		if keys := b.storedKeys(fmt.Sprintf("staff/jobs/%d/", ja.Job.ID)); len(keys) != 2 {
			t.Fatalf("the job's take-back files in the bucket: %q", keys)
		}
		a.stop()

		n, err := b.st.RecoverJobs(ctx, b.st.Now().Add(staff.StaleAfter+time.Minute))
		if err != nil || n != 1 {
			t.Fatalf("B took back %d jobs, %v", n, err)
		}
		j, err := b.st.JobByID(ctx, ja.Job.ID)
		if err != nil || j.State != staff.StateFailed || j.Error == nil || !strings.Contains(*j.Error, "The server stopped") {
			t.Fatalf("job after B took it back: %+v %v", j, err)
		}
		if after := researchtest.Fingerprint(t, db); after != before {
			t.Errorf("the import of the dead server left changes:\n--- before\n%s\n--- after\n%s", before, after)
		}
		if keys := b.storedKeys("staff/jobs/"); len(keys) != 0 {
			t.Errorf("take-back files left after the take-back: %q", keys)
		}

		// The dead server's job, released, writes nothing more.
		release()
		a.st.Wait()
		if after := researchtest.Fingerprint(t, db); after != before {
			t.Errorf("the dead server's job changed the collection after it was taken back:\n--- before\n%s\n--- after\n%s", before, after)
		}

		// Scans received by A after its jobs stopped wait, queued, in the bucket; B
		// takes the job back and removes them.
		if _, err := a.rs.ImportRecords(ctx, strings.NewReader("record_id,record_type,date,place,role,surname,given_names\n"+
			"S1,baptism,1850,York,principal,Scanned,Sam\n"), nil, research.ImportOptions{Collection: "york"}, 0); err != nil {
			t.Fatal(err)
		}
		st, body = volA.upload("/api/studio/scans/uploads", map[string]string{"collection": "york", "record": "S1"},
			[]formFile{{"files", "page-1.png", pngOf(t, 120, 80, color.RGBA{0, 0, 200, 255})}})
		want(t, "scans through A", st, body, http.StatusAccepted, &ja)
		if keys := b.storedKeys("staff/scans/"); len(keys) != 2 {
			t.Fatalf("the scans upload in the bucket: %q", keys)
		}
		if n, err := b.st.RecoverJobs(ctx, b.st.Now().Add(staff.StaleAfter+time.Minute)); err != nil || n != 1 {
			t.Fatalf("B took back %d scans jobs, %v", n, err)
		}
		if keys := b.storedKeys("staff/scans/"); len(keys) != 0 {
			t.Errorf("the abandoned scans upload is still in the bucket: %q", keys)
		}
	})
}

// TestPruneStoredFiles: the 30 s check removes from the bucket the take-back files of
// jobs that ended and scans uploads no job is working on (a request that never
// finished), once an hour old; those of running jobs stay.
func TestPruneStoredFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, _ := twoServers(t, db)
		ctx := t.Context()
		now := a.st.Now().Unix()
		job := func(kind, state, upload string) int64 {
			var id int64
			if err := db.QueryRowContext(ctx, db.Rebind(`INSERT INTO staff_jobs (kind, state, upload_id, collection, created_at, updated_at, heartbeat_at)
				VALUES (?, ?, ?, 'x', ?, ?, ?) RETURNING id`), kind, state, upload, now, now, now).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		ended, running := job(staff.KindRecords, staff.StateFailed, ""), job(staff.KindRecords, staff.StateRunning, "")
		job(staff.KindScans, staff.StateRunning, "s_000000000000000000000001")
		put := func(key string) {
			if _, err := a.blobs.Put(ctx, key, strings.NewReader("x"), blob.PutOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		keep := []string{fmt.Sprintf("staff/jobs/%d/fresh.json", running), "staff/scans/s_000000000000000000000001/a.png"}
		drop := []string{fmt.Sprintf("staff/jobs/%d/fresh.json", ended), fmt.Sprintf("staff/jobs/%d/before.csv", ended),
			"staff/jobs/12345/fresh.json", "staff/scans/s_000000000000000000000002/a.png", "staff/records/u_000000000000000000000003.csv"}
		for _, k := range append(append([]string{}, keep...), drop...) {
			put(k)
		}
		if err := a.st.PruneExpired(ctx); err != nil {
			t.Fatal(err)
		}
		if got := len(a.storedKeys("staff/")); got != len(keep)+len(drop) {
			t.Fatalf("files under an hour old were removed: %d left", got)
		}
		a.st.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
		if err := a.st.PruneExpired(ctx); err != nil {
			t.Fatal(err)
		}
		got := a.storedKeys("staff/")
		if strings.Join(sorted(got), " ") != strings.Join(sorted(keep), " ") {
			t.Errorf("left %q, want %q", got, keep)
		}
	})
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}

// TestStartStoresLocalUploads: records uploads an earlier version kept in the staging
// folder are moved into the blob store when the server starts, where their rows look
// for them; what a previous process left in the scratch folder is removed.
func TestStartStoresLocalUploads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		stage := t.TempDir()
		id := "u_0123456789abcdef01234567"
		for path, data := range map[string]string{
			filepath.Join(stage, "records", id+".csv"): parish,
			filepath.Join(stage, "tmp", "scan-1"):      "left by a stopped process",
		} {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s := staff.New(db, staff.Options{Accounts: e.acc, Research: e.rs, Blobs: e.blobs, StagingDir: stage, Log: quiet})
		ctx, stop := context.WithCancel(t.Context())
		s.Start(ctx)
		stop()
		s.Wait()
		rc, _, err := e.blobs.Get(t.Context(), "staff/records/"+id+".csv", blob.Range{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if string(got) != parish {
			t.Errorf("stored %q", got)
		}
		for _, p := range []string{filepath.Join(stage, "records", id+".csv"), filepath.Join(stage, "tmp", "scan-1")} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%s is still there: %v", p, err)
			}
		}
	})
}
