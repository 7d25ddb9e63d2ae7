package staff_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/research"
	"lineage/internal/research/researchtest"
	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// parish is a register in another layout than the canonical one: semicolons, its own
// column names, one row per person, and one bad row (line 5: no names).
const parish = "Ref;Event;Date;Parish;Relationship;Last name;Forename(s);Gender;Notes\n" +
	"P1;baptism;3 Mar 1851;Leeds;principal;Ackroyd;Eli;M;\n" +
	"P1;baptism;;;father;Ackroyd;Joseph;M;\n" +
	"P2;burial;1852;Leeds;principal;Sugden;Hannah;F;aged 70\n" +
	"P3;burial;1853;Leeds;principal;;;F;\n"

type uploadAnswer struct {
	Upload staff.Upload `json:"upload"`
}

type jobAnswer struct {
	Job staff.Job `json:"job"`
}

// searchTotal is how many records a search for the surname finds.
func (e *env) searchTotal(surname string) int64 {
	e.t.Helper()
	q, errs := research.ParseQuery(url.Values{"surname": {surname}})
	if errs != nil {
		e.t.Fatal(errs)
	}
	res, err := e.rs.Search(context.Background(), q, []string{"member"})
	if err != nil {
		e.t.Fatal(err)
	}
	return res.Total
}

// TestRecordsJourney: a volunteer uploads a CSV in its own layout, sees its columns
// mapped to the canonical ones, fixes the mapping, checks it by a dry run (warnings
// by line, a sample), imports it with progress as server-sent events through the
// import engine, and finds a record in search; the mapping saved on the way is
// proposed for the next file of that layout; the import is in the audit log.
func TestRecordsJourney(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		vol, me := e.signedIn("Vera", "editor")

		ua := vol.uploadCSV("upload", "parish.csv", []byte(parish))
		up := ua.Upload
		if up.Rows != 4 || up.Delimiter != ";" || len(up.Columns) != 9 || up.Filename != "parish.csv" {
			t.Fatalf("upload: %+v", up)
		}
		if got := strings.Join(up.Columns[5].Samples, ","); got != "Ackroyd,Sugden" {
			t.Errorf("samples of Last name: %q", got)
		}
		p := up.Proposed
		if p == nil || p.FromSaved != nil {
			t.Fatalf("proposal: %+v", p)
		}
		for field, col := range map[string]string{"record_id": "Ref", "record_type": "Event", "date": "Date", "place": "Parish",
			"role": "Relationship", "surname": "Last name", "given_names": "Forename(s)", "sex": "Gender", "transcript": "Notes"} {
			if p.Matched[field] != col {
				t.Errorf("%s proposed as %q, want %q", field, p.Matched[field], col)
			}
		}
		if len(p.Missing) != 0 || p.Mapping.Delimiter != ";" {
			t.Errorf("missing %v, delimiter %q", p.Missing, p.Mapping.Delimiter)
		}

		// The volunteer's fix: Notes is not a transcript; the source is the same for all.
		m := p.Mapping
		delete(m.Fields, "transcript")
		leeds := "Leeds parish registers"
		m.Fields["source"] = research.FieldSpec{Value: &leeds}
		var dr struct {
			DryRun staff.DryRun `json:"dry_run"`
		}
		st, body := vol.do("POST", "/api/studio/records/uploads/"+up.ID+"/dry-run", map[string]any{"mapping": m, "collection": "leeds"})
		want(t, "dry run", st, body, http.StatusOK, &dr)
		d := dr.DryRun
		if d.Records != 3 || d.Good != 2 || d.Skipped != 1 || d.WarningCount != 1 || d.Warnings[0].Line != 5 || d.CollectionExists ||
			d.New == nil || *d.New != 2 || *d.Existing != 0 {
			t.Fatalf("dry run: %+v", d)
		}
		if len(d.Sample) != 2 || d.Sample[0].RecordID != "P1" || len(d.Sample[0].Persons) != 2 || d.Sample[0].Source != leeds ||
			d.Sample[0].Persons[1].GivenNames != "Joseph" {
			t.Errorf("sample: %+v", d.Sample)
		}
		if e.searchTotal("Ackroyd") != 0 {
			t.Fatal("the dry run wrote records")
		}

		// A mapping naming a column the file lacks is a 422 on the mapping field.
		bad := research.Mapping{Delimiter: ";", Fields: map[string]research.FieldSpec{"record_id": {Column: "Reff"}, "surname": {Column: "Last name"}}}
		st, body = vol.do("POST", "/api/studio/records/uploads/"+up.ID+"/dry-run", map[string]any{"mapping": bad})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"mapping":["Field record_id: the header has no column \"Reff\""]`) {
			t.Errorf("bad mapping: %d %s", st, body)
		}
		st, body = vol.do("POST", "/api/studio/records/uploads/"+up.ID+"/import", map[string]any{"mapping": m, "collection": "Leeds!"})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"collection"`) {
			t.Errorf("bad collection: %d %s", st, body)
		}

		if n := e.pagesChanged.Load(); n != 0 {
			t.Fatalf("pages changed %d times before the import", n)
		}
		var ja jobAnswer
		st, body = vol.do("POST", "/api/studio/records/uploads/"+up.ID+"/import", map[string]any{"mapping": m, "collection": "leeds",
			"title": "Leeds registers", "save_mapping_as": "Leeds parish"})
		want(t, "import", st, body, http.StatusAccepted, &ja)
		if ja.Job.Kind != staff.KindRecords || ja.Job.Collection != "leeds" || ja.Job.StartedBy == nil || ja.Job.StartedBy.ID != me.ID {
			t.Errorf("job: %+v", ja.Job)
		}
		evs := vol.events(ja.Job.ID)
		if len(evs) < 2 || evs[0].name != "job" {
			t.Fatalf("events: %+v", evs)
		}
		last := evs[len(evs)-1]
		if last.name != "done" || last.job.State != staff.StateDone {
			t.Fatalf("last event %s: %+v", last.name, last.job)
		}
		if e.pagesChanged.Load() != 1 {
			t.Errorf("the import told the page caches %d times, want once", e.pagesChanged.Load())
		}
		prev := -1
		for _, ev := range evs {
			n, err := strconv.Atoi(ev.id)
			if err != nil || n < prev {
				t.Errorf("event ids not in order: %+v", evs)
			}
			prev = n
		}
		var rep struct {
			Added, Skipped int
			Collection     string
		}
		if err := json.Unmarshal(last.job.Report, &rep); err != nil || rep.Added != 2 || rep.Skipped != 1 || rep.Collection != "leeds" {
			t.Errorf("report %s: %v", last.job.Report, err)
		}
		if e.searchTotal("Ackroyd") != 1 || e.searchTotal("Sugden") != 1 {
			t.Error("the imported records are not found by search")
		}
		coll, err := e.rs.CollectionBySlug(t.Context(), "leeds")
		if err != nil || coll.Title != "Leeds registers" {
			t.Errorf("collection: %+v %v", coll, err)
		}
		if es := e.auditEntries(staff.ActionRecordsImport); len(es) != 2 || !strings.Contains(string(es[0].After), `"added":2`) {
			t.Errorf("audit: %+v", es)
		}
		if es := e.auditEntries(staff.ActionMappingSave); len(es) != 1 || es[0].Subject != "mapping:Leeds parish" {
			t.Errorf("mapping audit: %+v", es)
		}

		// The next file of that layout gets the saved mapping.
		st, body = vol.upload("/api/studio/records/uploads", nil, []formFile{{"file", "parish2.csv", []byte(strings.NewReplacer("P1;", "Q1;", "P2;", "Q2;", "P3;", "Q3;").Replace(parish))}})
		want(t, "second upload", st, body, http.StatusCreated, &ua)
		if ua.Upload.Proposed.FromSaved == nil || *ua.Upload.Proposed.FromSaved != "Leeds parish" || ua.Upload.Proposed.Mapping.Fields["source"].Value == nil {
			t.Errorf("second proposal: %+v", ua.Upload.Proposed)
		}
		// Another account's upload is not found.
		other, _ := e.signedIn("Otto", "editor")
		if st, _ := other.do("GET", "/api/studio/records/uploads/"+up.ID, nil); st != http.StatusNotFound {
			t.Errorf("another account's upload: %d", st)
		}
	})
}

// TestRecordsUploadBadInput: each bad file is refused with a message on the file
// field, and nothing is kept.
func TestRecordsUploadBadInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		vol, _ := e.signedIn("Vera", "editor")
		for name, c := range map[string]struct {
			data   string
			status int
			msg    string
		}{
			"empty":          {"", 422, "The file is empty."},
			"blank first":    {"\nrecord_id\n", 422, "first line is blank"},
			"not UTF-8":      {"Sur\xffname,Given\n", 422, "not UTF-8"},
			"twice":          {"Surname,surname\nA,B\n", 422, "Two columns"},
			"unclosed quote": {"\"Surname,Given\nA,B\n", 422, "cannot be read as column names"},
		} {
			st, body := vol.upload("/api/studio/records/uploads", nil, []formFile{{"file", "x.csv", []byte(c.data)}})
			if st != c.status || !strings.Contains(string(body), c.msg) || !strings.Contains(string(body), `"file"`) {
				t.Errorf("%s: %d %s", name, st, body)
			}
		}
		if st, body := vol.upload("/api/studio/records/uploads", map[string]string{"other": "x"}, nil); st != 422 || !strings.Contains(string(body), "The file field is required.") {
			t.Errorf("no file: %d %s", st, body)
		}
		if st, _ := vol.do("POST", "/api/studio/records/uploads", map[string]string{"file": "x"}); st != http.StatusBadRequest {
			t.Errorf("JSON body: %d", st)
		}
		e.noUploadsKept(vol)
	})
}

// TestRecordsImportStoppedLeavesNothing: an import cancelled after it has written
// records, and one whose server stopped (taken back by another server), leave the
// collection exactly as it was: added records gone, changed ones as before, search
// index and statistics included; a collection the import made is deleted.
func TestRecordsImportStoppedLeavesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		vol, _ := e.signedIn("Vera", "editor")
		ctx := t.Context()
		if _, err := e.rs.ImportRecords(ctx, strings.NewReader("record_id,record_type,date,place,role,surname,given_names\n"+
			"P1,baptism,1850,York,principal,Ackroyd,Old\n"), nil, research.ImportOptions{Collection: "leeds"}, 0); err != nil {
			t.Fatal(err)
		}
		before := researchtest.Fingerprint(t, db)
		ua := vol.uploadCSV("upload", "parish.csv", []byte(parish))
		m := ua.Upload.Proposed.Mapping

		// Cancelled between its writes: the job waits after its batch until the
		// cancel reaches it.
		reached := make(chan struct{}, 1)
		e.st.SetBatchDone(func(ctx context.Context) {
			select {
			case reached <- struct{}{}:
			default:
			}
			<-ctx.Done()
		})
		var ja jobAnswer
		st, body := vol.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/import", map[string]any{"mapping": m, "collection": "leeds"})
		want(t, "import", st, body, http.StatusAccepted, &ja)
		<-reached
		if e.searchTotal("Sugden") != 1 {
			t.Fatal("the job had not written its records when it was stopped")
		}
		// The stream delivers while the job runs: its first event comes before the
		// cancel that lets the job end is even sent.
		evs := vol.eventsEach(ja.Job.ID, func(ev event) {
			if ev.name != "job" {
				return
			}
			if ev.job.State != staff.StateRunning {
				t.Errorf("first event: %+v", ev.job)
			}
			st, body := vol.do("POST", fmt.Sprintf("/api/studio/jobs/%d/cancel", ja.Job.ID), nil)
			want(t, "cancel", st, body, http.StatusAccepted, nil)
		})
		last := evs[len(evs)-1]
		if last.name != "canceled" || last.job.Error == nil || !strings.Contains(*last.job.Error, "Nothing from this file was kept") {
			t.Fatalf("last event %s: %+v", last.name, last.job)
		}
		if after := researchtest.Fingerprint(t, db); after != before {
			t.Errorf("the cancelled import left changes:\n--- before\n%s\n--- after\n%s", before, after)
		}
		if st, _ := vol.do("POST", fmt.Sprintf("/api/studio/jobs/%d/cancel", ja.Job.ID), nil); st != http.StatusConflict {
			t.Errorf("cancelling a finished job: %d", st)
		}

		// The server dies between its writes (its job never ends); another server
		// takes the job back once its heartbeat is old.
		e.st.SetBatchDone(func(ctx context.Context) {
			select {
			case reached <- struct{}{}:
			default:
			}
			<-ctx.Done()
		})
		st, body = vol.do("POST", "/api/studio/records/uploads/"+ua.Upload.ID+"/import", map[string]any{"mapping": m, "collection": "new-one"})
		want(t, "import 2", st, body, http.StatusAccepted, &ja)
		<-reached
		if e.searchTotal("Sugden") != 1 {
			t.Fatal("the second job had not written its records")
		}
		other := staff.New(db, staff.Options{Accounts: e.acc, Audit: e.log, Research: e.rs, Images: e.im, Trees: e.tr, Blobs: e.blobs, StagingDir: t.TempDir(), Log: quiet})
		n, err := other.RecoverJobs(ctx, e.st.Now().Add(staff.StaleAfter+time.Minute))
		if err != nil || n != 1 {
			t.Fatalf("recovered %d, %v", n, err)
		}
		j, err := other.JobByID(ctx, ja.Job.ID)
		if err != nil || j.State != staff.StateFailed || j.Error == nil || !strings.Contains(*j.Error, "The server stopped") {
			t.Fatalf("job after recovery: %+v %v", j, err)
		}
		if after := researchtest.Fingerprint(t, db); after != before {
			t.Errorf("the abandoned import left changes:\n--- before\n%s\n--- after\n%s", before, after)
		}
		if _, err := e.rs.CollectionBySlug(ctx, "new-one"); err == nil {
			t.Error("the collection the abandoned import made is still there")
		}
		if n, err := other.RecoverJobs(ctx, e.st.Now().Add(staff.StaleAfter+time.Minute)); err != nil || n != 0 {
			t.Errorf("recovered again: %d %v", n, err)
		}
	})
}

// TestJobsWaitTheirTurn: a server runs one records job at a time; the next waits
// queued, and one cancelled while it waits ends without running and without taking
// the turn of the one behind it.
func TestJobsWaitTheirTurn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		vol, _ := e.signedIn("Vera", "editor")
		ua := vol.uploadCSV("upload", "parish.csv", []byte(parish))
		m := ua.Upload.Proposed.Mapping
		release := make(chan struct{})
		reached := make(chan string, 3)
		e.st.SetBatchDone(func(ctx context.Context) {
			reached <- "batch"
			<-release
		})
		start := func(coll string) int64 {
			t.Helper()
			up := vol.uploadCSV("upload", coll+".csv", []byte(parish))
			var ja jobAnswer
			st, body := vol.do("POST", "/api/studio/records/uploads/"+up.Upload.ID+"/import", map[string]any{"mapping": m, "collection": coll})
			want(t, "import "+coll, st, body, http.StatusAccepted, &ja)
			return ja.Job.ID
		}
		first := start("first")
		<-reached // the first is running, stopped after its batch
		second, third := start("second"), start("third")
		state := func(id int64) string {
			j, err := e.st.JobByID(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			return j.State
		}
		if state(second) != staff.StateQueued || state(third) != staff.StateQueued {
			t.Fatalf("the others run beside the first: %s %s", state(second), state(third))
		}
		st, body := vol.do("POST", fmt.Sprintf("/api/studio/jobs/%d/cancel", second), nil)
		want(t, "cancel the second", st, body, http.StatusAccepted, nil)
		if evs := vol.events(second); evs[len(evs)-1].name != "canceled" {
			t.Fatalf("second: %+v", evs[len(evs)-1].job)
		}
		if state(third) != staff.StateQueued {
			t.Errorf("the third started while the first runs: %s", state(third))
		}
		close(release)
		for _, id := range []int64{first, third} {
			if evs := vol.events(id); evs[len(evs)-1].name != "done" {
				t.Errorf("job %d: %+v", id, evs[len(evs)-1].job)
			}
		}
		if _, err := e.rs.CollectionBySlug(t.Context(), "second"); err == nil {
			t.Error("the cancelled job made its collection")
		}
	})
}

// TestUploadsAreNotKeptForEver: an account keeps its newest MaxUploadsPerUser uploads,
// and none older than UploadTTL.
func TestUploadsAreNotKeptForEver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		vol, _ := e.signedIn("Vera", "editor")
		var first string
		for i := 0; i <= staff.MaxUploadsPerUser; i++ {
			ua := vol.uploadCSV("upload", fmt.Sprintf("f%d.csv", i), []byte(parish))
			if i == 0 {
				first = ua.Upload.ID
			}
		}
		list := vol.uploads("list")
		if len(list) != staff.MaxUploadsPerUser || list[len(list)-1].Filename != "f1.csv" {
			t.Fatalf("%d uploads kept, the oldest %s", len(list), list[len(list)-1].Filename)
		}
		if st, _ := vol.do("GET", "/api/studio/records/uploads/"+first, nil); st != http.StatusNotFound {
			t.Errorf("the oldest upload is still there: %d", st)
		}
		now := e.st.Now()
		e.st.Now = func() time.Time { return now.Add(staff.UploadTTL + time.Hour) }
		if err := e.st.PruneExpired(t.Context()); err != nil {
			t.Fatal(err)
		}
		if list := vol.uploads("list after a week"); len(list) != 0 {
			t.Errorf("%d uploads kept after a week", len(list))
		}
		// A file left by an account since deleted goes too.
		var ua uploadAnswer
		e.st.Now = time.Now
		st, body := vol.upload("/api/studio/records/uploads", nil, []formFile{{"file", "orphan.csv", []byte(parish)}})
		want(t, "upload", st, body, http.StatusCreated, &ua)
		if _, err := db.ExecContext(t.Context(), db.Rebind(`DELETE FROM staff_uploads WHERE id = ?`), ua.Upload.ID); err != nil {
			t.Fatal(err)
		}
		e.st.Now = func() time.Time { return now.Add(2 * time.Hour) }
		if err := e.st.PruneExpired(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n := e.stagedCSVs(); n != 0 {
			t.Errorf("%d files left in the staging folder", n)
		}
	})
}

// TestRecoverJobsOnce: two servers finding the same abandoned job at once: one takes
// it back, the other leaves it.
func TestRecoverJobsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		// The environment's own server looks for abandoned jobs as it starts; stopped
		// first, so that it cannot be the one to find this job.
		e.stop()
		e.st.Wait()
		old := e.st.Now().Add(-time.Hour).Unix()
		var id int64
		if err := db.QueryRowContext(t.Context(), db.Rebind(`INSERT INTO staff_jobs (kind, state, collection, created_at, updated_at, heartbeat_at)
			VALUES ('records', 'running', 'x', ?, ?, ?) RETURNING id`), old, old, old).Scan(&id); err != nil {
			t.Fatal(err)
		}
		a := staff.New(db, staff.Options{Accounts: e.acc, Research: e.rs, Log: quiet})
		b := staff.New(db, staff.Options{Accounts: e.acc, Research: e.rs, Log: quiet})
		got := make(chan int, 2)
		for _, s := range []*staff.Service{a, b} {
			go func() {
				n, err := s.RecoverJobs(t.Context(), time.Now())
				if err != nil {
					t.Error(err)
				}
				got <- n
			}()
		}
		if n := <-got + <-got; n != 1 {
			t.Errorf("taken back %d times", n)
		}
		j, err := a.JobByID(t.Context(), id)
		if err != nil || j.State != staff.StateFailed {
			t.Errorf("job: %+v %v", j, err)
		}
	})
}
