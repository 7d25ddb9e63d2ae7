package video

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lineage/internal/video/videotest"
)

func TestUpload(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		h := newHarness(t, 5*testChunk+1234)
		res, err := h.up.Upload(context.Background(), h.file, "Parish registers, part 1", "A lecture")
		if err != nil {
			t.Fatal(err)
		}
		videos := h.fake.Videos()
		if len(videos) != 1 {
			t.Fatalf("%d videos created, want 1", len(videos))
		}
		v := videos[0]
		if res.URI != v.URI || res.Link != "https://vimeo.com/"+strings.TrimPrefix(v.URI, "/videos/") || res.Resumed {
			t.Errorf("result %+v for video %s", res, v.URI)
		}
		if v.Name != "Parish registers, part 1" || v.Description != "A lecture" {
			t.Errorf("video created as %q / %q", v.Name, v.Description)
		}
		h.checkStored(v.URI, h.data)
		if n := h.fake.Count(http.MethodPatch, "/files/"); n != 6 {
			t.Errorf("%d PATCHes for 6 chunks", n)
		}
		if len(h.slept()) != 0 {
			t.Errorf("slept %v on a clean upload", h.slept())
		}
		if files := h.stateFiles(); len(files) != 0 {
			t.Errorf("state left after success: %v", files)
		}
		checkWire(t, h.fake.Requests(), int64(len(h.data)))
	})

	t.Run("NameDefaultsToFileName", func(t *testing.T) {
		h := newHarness(t, 1000)
		if _, err := h.up.Upload(context.Background(), h.file, "", ""); err != nil {
			t.Fatal(err)
		}
		if v := h.fake.Videos()[0]; v.Name != "lecture-2026-03.mp4" {
			t.Errorf("name %q", v.Name)
		}
	})

	t.Run("EmptyFile", func(t *testing.T) {
		h := newHarness(t, 0)
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, nil)
		if n := h.fake.Count(http.MethodPatch, "/files/"); n != 0 {
			t.Errorf("%d PATCHes for an empty file", n)
		}
	})
}

// checkWire checks the protocol details every upload must get right (protocols.md §3).
func checkWire(t *testing.T, reqs []videotest.Request, size int64) {
	t.Helper()
	var sawCreate bool
	next := int64(0)
	for _, r := range reqs {
		if got := r.Header.Get("Accept"); got != "application/vnd.vimeo.*+json;version=3.4" {
			t.Errorf("%s %s: Accept %q", r.Method, r.Path, got)
		}
		if strings.HasPrefix(r.Path, "/files/") {
			if r.Header.Get("Tus-Resumable") != "1.0.0" {
				t.Errorf("%s %s without Tus-Resumable: 1.0.0", r.Method, r.Path)
			}
			if r.Header.Get("Authorization") != "" {
				t.Errorf("%s %s: the API token went to the upload link", r.Method, r.Path)
			}
			if r.Method == http.MethodPost {
				t.Errorf("tus POST: the upload must use the link the API created")
			}
			if r.Method == http.MethodPatch {
				if r.Header.Get("Content-Type") != "application/offset+octet-stream" {
					t.Errorf("PATCH Content-Type %q", r.Header.Get("Content-Type"))
				}
				off, _ := strconv.ParseInt(r.Header.Get("Upload-Offset"), 10, 64)
				if off != next {
					t.Errorf("PATCH at offset %d, want %d", off, next)
				}
				n, _ := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64)
				next = off + n
			}
			continue
		}
		if r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/me/videos") {
			sawCreate = true
			if r.Path != "/me/videos?fields=uri,name,upload" {
				t.Errorf("create path %q", r.Path)
			}
			if r.Header.Get("Authorization") != "Bearer "+videotest.AccessToken || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("create headers %v", r.Header)
			}
			var body struct {
				Upload map[string]any `json:"upload"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil || body.Upload["approach"] != "tus" || body.Upload["size"] != float64(size) {
				t.Errorf("create body %s", r.Body)
			}
		}
	}
	if !sawCreate {
		t.Error("no POST /me/videos")
	}
	if next != size {
		t.Errorf("PATCHes covered %d bytes of %d", next, size)
	}
}

func TestReplace(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		h := newHarness(t, 3*testChunk+7)
		uri := h.fake.AddVideo("Old recording")
		res, err := h.up.Replace(context.Background(), uri, h.file)
		if err != nil {
			t.Fatal(err)
		}
		if res.URI != uri || res.Link != "https://vimeo.com/"+strings.TrimPrefix(uri, "/videos/") {
			t.Errorf("result %+v", res)
		}
		videos := h.fake.Videos()
		if len(videos) != 1 || len(videos[0].FileNames) != 1 || videos[0].FileNames[0] != "lecture-2026-03.mp4" {
			t.Fatalf("videos after replace: %+v", videos)
		}
		h.checkStored(uri, h.data)
		var sawVersion bool
		for _, r := range h.fake.Requests() {
			if r.Method == http.MethodPost && strings.HasPrefix(r.Path, uri+"/versions") {
				sawVersion = true
				if r.Path != uri+"/versions?fields=upload" {
					t.Errorf("versions path %q", r.Path)
				}
				var body struct {
					FileName string         `json:"file_name"`
					Upload   map[string]any `json:"upload"`
				}
				if err := json.Unmarshal(r.Body, &body); err != nil || body.FileName != "lecture-2026-03.mp4" ||
					body.Upload["approach"] != "tus" || body.Upload["size"] != float64(len(h.data)) {
					t.Errorf("versions body %s", r.Body)
				}
			}
			if r.Header.Get("Accept") != Accept {
				t.Errorf("%s %s: Accept %q", r.Method, r.Path, r.Header.Get("Accept"))
			}
		}
		if !sawVersion {
			t.Error("no POST /videos/{id}/versions")
		}
	})

	t.Run("AcceptsPageLinkAndBareID", func(t *testing.T) {
		h := newHarness(t, 100)
		uri := h.fake.AddVideo("x")
		id := strings.TrimPrefix(uri, "/videos/")
		for _, arg := range []string{id, "https://vimeo.com/" + id} {
			res, err := h.up.Replace(context.Background(), arg, h.file)
			if err != nil || res.URI != uri {
				t.Errorf("replace %q: %+v, %v", arg, res, err)
			}
		}
	})

	t.Run("ErrUnknownVideo", func(t *testing.T) {
		h := newHarness(t, 100)
		_, err := h.up.Replace(context.Background(), "/videos/999", h.file)
		if !errors.Is(err, ErrInitiate) || !strings.HasPrefix(err.Error(), "Unable to initiate an upload.") || !strings.Contains(err.Error(), "404") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestConnectionCut drops the connection in the middle of a PATCH, after tusd has
// stored part of it: the next attempt must HEAD and go on from tusd's offset.
func TestConnectionCut(t *testing.T) {
	t.Run("OnceThenResumed", func(t *testing.T) {
		h := newHarness(t, 4*testChunk)
		h.fake.SetTusWrapper(videotest.CutPatchAfter(testChunk+100, 1))
		h.up.ChunkSize = 2 * testChunk
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, h.data)
		if got := h.slept(); !equalDurations(got, ms(0)) {
			t.Errorf("slept %v, want [0s]", got)
		}
		// The PATCH after the cut starts where tusd stopped storing.
		var offsets []string
		for _, r := range h.fake.Requests() {
			if r.Method == http.MethodPatch {
				offsets = append(offsets, r.Header.Get("Upload-Offset"))
			}
		}
		want := []string{"0", strconv.Itoa(testChunk + 100), strconv.Itoa(3*testChunk + 100)}
		if strings.Join(offsets, ",") != strings.Join(want, ",") {
			t.Errorf("PATCH offsets %v, want %v", offsets, want)
		}
		if !strings.Contains(h.out.String(), "retry 1 of 4 in 0s") {
			t.Errorf("no retry note in:\n%s", h.out)
		}
	})

	t.Run("RepeatedCutsWithProgressKeepGoing", func(t *testing.T) {
		// Six cuts in a row would exhaust four retries, but each one moved the upload
		// on, so the schedule starts afresh every time.
		h := newHarness(t, 8*testChunk)
		h.fake.SetTusWrapper(videotest.CutPatchAfter(testChunk/2, 6))
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, h.data)
		if got := h.slept(); !equalDurations(got, ms(0, 0, 0, 0, 0, 0)) {
			t.Errorf("slept %v", got)
		}
	})
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name   string
		method string
		status int
		times  int
		sleeps []time.Duration
		errIs  error  // nil: the upload succeeds
		errHas string // part of the error text
	}{
		{name: "423OnHeadTwice", method: http.MethodHead, status: 423, times: 2, sleeps: ms(0, 1000)},
		{name: "423OnPatchFourTimes", method: http.MethodPatch, status: 423, times: 4, sleeps: ms(0, 1000, 3000, 5000)},
		{name: "423GivesUp", method: http.MethodPatch, status: 423, times: 5, sleeps: ms(0, 1000, 3000, 5000), errIs: ErrLocked, errHas: "gave up after 5 attempts"},
		{name: "409OnPatch", method: http.MethodPatch, status: 409, times: 1, sleeps: ms(0)},
		{name: "500OnPatchFourTimes", method: http.MethodPatch, status: 500, times: 4, sleeps: ms(0, 1000, 3000, 5000)},
		{name: "500GivesUp", method: http.MethodPatch, status: 500, times: 5, sleeps: ms(0, 1000, 3000, 5000), errHas: "gave up after 5 attempts: PATCH upload link: 500 Internal Server Error"},
		{name: "503OnHead", method: http.MethodHead, status: 503, times: 1, sleeps: ms(0)},
		{name: "400IsNotRetried", method: http.MethodPatch, status: 400, times: 1, errHas: "PATCH upload link: 400 Bad Request"},
		{name: "404OnHeadIsGone", method: http.MethodHead, status: 404, times: 1, errIs: ErrUploadGone, errHas: "lineage video replace"},
		{name: "410OnPatchIsGone", method: http.MethodPatch, status: 410, times: 1, errIs: ErrUploadGone},
		{name: "412NamesVersion", method: http.MethodHead, status: 412, times: 1, errHas: "412 Precondition Failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 3*testChunk)
			h.fake.SetTusWrapper(videotest.Fail(tt.method, tt.status, tt.times))
			res, err := h.up.Upload(context.Background(), h.file, "", "")
			if got := h.slept(); !equalDurations(got, tt.sleeps) {
				t.Errorf("slept %v, want %v", got, tt.sleeps)
			}
			if tt.errIs == nil && tt.errHas == "" {
				if err != nil {
					t.Fatal(err)
				}
				h.checkStored(res.URI, h.data)
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("err = %v, want %v", err, tt.errIs)
			}
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("err = %q, want it to contain %q", err, tt.errHas)
			}
		})
	}
}

// TestGiveUpThenRunAgain: after the retries are spent the state stays, and the same
// command later finishes the same video.
func TestGiveUpThenRunAgain(t *testing.T) {
	h := newHarness(t, 4*testChunk)
	h.fake.SetTusWrapper(videotest.Chain(
		videotest.CutPatchAfter(testChunk, 1),
		videotest.Fail(http.MethodHead, 503, 100),
	))
	_, err := h.up.Upload(context.Background(), h.file, "", "")
	if err == nil || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("err = %v", err)
	}
	if len(h.stateFiles()) != 1 {
		t.Fatalf("state files %v", h.stateFiles())
	}
	h.fake.SetTusWrapper(nil)
	res, err := h.up.Upload(context.Background(), h.file, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Resumed || h.fake.Count(http.MethodPost, "/me/videos") != 1 {
		t.Errorf("resumed=%v, %d videos created", res.Resumed, h.fake.Count(http.MethodPost, "/me/videos"))
	}
	h.checkStored(res.URI, h.data)
}

// TestUnexpectedOffset covers offsets the client and the server disagree about.
func TestUnexpectedOffset(t *testing.T) {
	t.Run("HeadReportsLessThanStored", func(t *testing.T) {
		// After a cut, one HEAD claims nothing is stored. The PATCH at 0 meets tusd's
		// real 409, and the next attempt's HEAD tells the truth.
		h := newHarness(t, 4*testChunk)
		var lied atomic.Bool
		h.fake.SetTusWrapper(videotest.Chain(
			videotest.CutPatchAfter(testChunk, 1),
			videotest.RewriteHeader(http.MethodHead, 100, "Upload-Offset", func(old string) string {
				if old != "0" && lied.CompareAndSwap(false, true) {
					return "0"
				}
				return old
			}),
		))
		h.up.ChunkSize = 4 * testChunk
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, h.data)
		if got := h.slept(); !equalDurations(got, ms(0, 1000)) {
			t.Errorf("slept %v, want [0s 1s]", got)
		}
		if !strings.Contains(h.out.String(), "409 Conflict") {
			t.Errorf("no 409 in the notes:\n%s", h.out)
		}
	})

	tests := []struct {
		name   string
		method string
		header string
		edit   func(string) string
		errIs  error
		errHas string
	}{
		{"PatchOffsetBeyondSent", http.MethodPatch, "Upload-Offset", func(o string) string { return o + "0" }, ErrBadOffset, "expected"},
		{"PatchOffsetBackwards", http.MethodPatch, "Upload-Offset", secondTime(func(string) string { return "0" }), ErrBadOffset, "reports offset 0"},
		{"PatchOffsetMissing", http.MethodPatch, "Upload-Offset", func(string) string { return "" }, ErrBadOffset, "no Upload-Offset header"},
		{"PatchOffsetNotANumber", http.MethodPatch, "Upload-Offset", func(string) string { return "12abc" }, ErrBadOffset, `"12abc"`},
		{"HeadOffsetMissing", http.MethodHead, "Upload-Offset", func(string) string { return "" }, ErrBadOffset, "answered HEAD with no Upload-Offset header"},
		{"HeadOffsetNegative", http.MethodHead, "Upload-Offset", func(string) string { return "-1" }, ErrBadOffset, `"-1"`},
		{"HeadOffsetBeyondLength", http.MethodHead, "Upload-Offset", func(string) string { return "99999999" }, ErrBadOffset, "beyond the upload's length"},
		{"HeadLengthMissing", http.MethodHead, "Upload-Length", func(string) string { return "" }, ErrBadLength, "no Upload-Length header"},
		{"HeadLengthInvalid", http.MethodHead, "Upload-Length", func(string) string { return "0x10" }, ErrBadLength, `"0x10"`},
		{"HeadLengthNotTheFileSize", http.MethodHead, "Upload-Length", func(o string) string { return o + "1" }, ErrBadLength, "expects"},
	}
	for _, tt := range tests {
		if !strings.Contains(tt.name, "Backwards") {
			tt.edit = firstTime(tt.edit)
		}
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 2*testChunk)
			h.fake.SetTusWrapper(videotest.RewriteHeader(tt.method, 2, tt.header, tt.edit))
			_, err := h.up.Upload(context.Background(), h.file, "", "")
			if !errors.Is(err, tt.errIs) || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("err = %v; want %v containing %q", err, tt.errIs, tt.errHas)
			}
			if len(h.slept()) != 0 {
				t.Errorf("a protocol error was retried: slept %v", h.slept())
			}
		})
	}

	t.Run("PatchStoresNothing", func(t *testing.T) {
		// A 204 whose offset did not move is retried, and given up on if it persists.
		h := newHarness(t, 2*testChunk)
		h.fake.SetTusWrapper(videotest.Chain(
			videotest.RewriteHeader(http.MethodPatch, 100, "Upload-Offset", func(string) string { return "0" }),
			videotest.Fail(http.MethodPatch, 204, 100),
		))
		_, err := h.up.Upload(context.Background(), h.file, "", "")
		if !errors.Is(err, errNoProgress) || !strings.Contains(err.Error(), "gave up after 5 attempts") {
			t.Fatalf("err = %v", err)
		}
	})
}

// firstTime applies edit to the first answer only; secondTime to the second only.
func firstTime(edit func(string) string) func(string) string  { return nthTime(1, edit) }
func secondTime(edit func(string) string) func(string) string { return nthTime(2, edit) }

func nthTime(n int32, edit func(string) string) func(string) string {
	var calls atomic.Int32
	return func(old string) string {
		if calls.Add(1) == n {
			return edit(old)
		}
		return old
	}
}

// TestKilledAndRunAgain interrupts an upload in the middle of a PATCH (the context is
// cancelled, as Ctrl-C does, leaving the state file behind) and runs it again.
func TestKilledAndRunAgain(t *testing.T) {
	h := newHarness(t, 6*testChunk)
	h.up.ChunkSize = 6 * testChunk
	ctx, cancel := context.WithCancel(context.Background())
	reached, release := make(chan struct{}), make(chan struct{})
	h.fake.SetTusWrapper(videotest.HoldPatchAfter(2*testChunk+5, reached, release))
	go func() {
		<-reached
		cancel()
		close(release)
	}()
	_, err := h.up.Upload(ctx, h.file, "Lecture", "")
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "run the same command again") {
		t.Fatalf("err = %v", err)
	}
	files := h.stateFiles()
	if len(files) != 1 {
		t.Fatalf("state files %v", files)
	}
	before := len(h.fake.Requests())

	h.fake.SetTusWrapper(nil)
	res, err := h.up.Upload(context.Background(), h.file, "Lecture", "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Resumed || res.Name != "Lecture" {
		t.Errorf("result %+v", res)
	}
	if n := h.fake.Count(http.MethodPost, "/me/videos"); n != 1 {
		t.Errorf("%d videos created; the second run must resume, not create", n)
	}
	second := h.fake.Requests()[before:]
	if second[0].Method != http.MethodHead {
		t.Errorf("the second run began with %s %s, want HEAD", second[0].Method, second[0].Path)
	}
	for _, r := range second {
		if r.Method == http.MethodPatch {
			if off, _ := strconv.Atoi(r.Header.Get("Upload-Offset")); off < 2*testChunk+5 {
				t.Errorf("the second run PATCHed at %d, before the %d bytes the server held", off, 2*testChunk+5)
			}
			break
		}
	}
	h.checkStored(res.URI, h.data)
	if len(h.stateFiles()) != 0 {
		t.Errorf("state left: %v", h.stateFiles())
	}
	if !strings.Contains(h.out.String(), "resuming the upload of lecture-2026-03.mp4 to "+res.URI) {
		t.Errorf("no resume note in:\n%s", h.out)
	}
}

// interruptAfter starts an upload (or replace, with uri set) and interrupts it once the
// server has received some bytes, leaving state behind.
func (h *harness) interruptAfter(uri string, n int64) {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reached, release := make(chan struct{}), make(chan struct{})
	h.fake.SetTusWrapper(videotest.HoldPatchAfter(n, reached, release))
	go func() {
		<-reached
		cancel()
		close(release)
	}()
	var err error
	if uri == "" {
		_, err = h.up.Upload(ctx, h.file, "", "")
	} else {
		_, err = h.up.Replace(ctx, uri, h.file)
	}
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		h.t.Fatalf("interrupted run: err = %v", err)
	}
	h.fake.SetTusWrapper(nil)
}

func TestResumeEdgeCases(t *testing.T) {
	t.Run("ReplaceResumes", func(t *testing.T) {
		h := newHarness(t, 4*testChunk)
		h.up.ChunkSize = 4 * testChunk
		uri := h.fake.AddVideo("Old")
		h.interruptAfter(uri, testChunk)
		res, err := h.up.Replace(context.Background(), uri, h.file)
		if err != nil || !res.Resumed || res.URI != uri {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if n := h.fake.Count(http.MethodPost, uri+"/versions"); n != 1 {
			t.Errorf("%d versions created", n)
		}
		h.checkStored(uri, h.data)
	})

	t.Run("FileChangedBecomesNewVersion", func(t *testing.T) {
		h := newHarness(t, 4*testChunk)
		h.up.ChunkSize = 4 * testChunk
		h.interruptAfter("", testChunk)
		changed := randomBytes(len(h.data), 2)
		if err := os.WriteFile(h.file, changed, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		videos := h.fake.Videos()
		if len(videos) != 1 || len(videos[0].UploadIDs) != 2 || res.URI != videos[0].URI {
			t.Fatalf("videos %+v, result %+v", videos, res)
		}
		h.checkStored(res.URI, changed)
		if !strings.Contains(h.out.String(), "has changed since the interrupted upload") {
			t.Errorf("no note about the change:\n%s", h.out)
		}
	})

	t.Run("ExpiredLinkBecomesNewVersion", func(t *testing.T) {
		h := newHarness(t, 4*testChunk)
		h.up.ChunkSize = 4 * testChunk
		h.interruptAfter("", testChunk)
		uri := h.fake.Videos()[0].URI
		h.fake.ExpireUpload(uri)
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(h.fake.Videos()) != 1 || res.URI != uri {
			t.Fatalf("videos %+v", h.fake.Videos())
		}
		h.checkStored(uri, h.data)
		if !strings.Contains(h.out.String(), "no longer accepts the link") {
			t.Errorf("no note about the expired link:\n%s", h.out)
		}
	})

	t.Run("AlreadyCompleteOnServer", func(t *testing.T) {
		// Killed after the last PATCH landed but before its answer arrived: the state
		// still says 0 bytes, the server has them all.
		h := newHarness(t, 2*testChunk)
		h.up.ChunkSize = 2 * testChunk
		ctx, cancel := context.WithCancel(context.Background())
		h.fake.SetTusWrapper(videotest.DropPatchAnswer(1, cancel))
		if _, err := h.up.Upload(ctx, h.file, "", ""); err == nil || !strings.Contains(err.Error(), "interrupted after the server confirmed 0 B") {
			t.Fatalf("first run: err = %v", err)
		}
		h.fake.SetTusWrapper(nil)
		before := h.fake.Count(http.MethodPatch, "/files/")
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil || !res.Resumed {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if n := h.fake.Count(http.MethodPatch, "/files/") - before; n != 0 {
			t.Errorf("%d PATCHes for an upload the server already held", n)
		}
		h.checkStored(res.URI, h.data)
	})

	t.Run("ErrBusy", func(t *testing.T) {
		h := newHarness(t, 100)
		abs := h.file
		os.MkdirAll(h.up.StateDir, 0o700)
		unlock, err := lockFile(statePath(h.up.StateDir, "upload", "", abs) + ".lock")
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		_, err = h.up.Upload(context.Background(), h.file, "", "")
		if !errors.Is(err, errBusy) {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("UnreadableState", func(t *testing.T) {
		h := newHarness(t, 100)
		os.MkdirAll(h.up.StateDir, 0o700)
		os.WriteFile(statePath(h.up.StateDir, "upload", "", h.file), []byte("{not json"), 0o600)
		_, err := h.up.Upload(context.Background(), h.file, "", "")
		if err == nil || !strings.Contains(err.Error(), "delete it to start afresh") {
			t.Fatalf("err = %v", err)
		}
		if len(h.fake.Videos()) != 0 {
			t.Error("a video was created despite the unreadable state")
		}
	})
}

func TestOffline(t *testing.T) {
	t.Run("WaitsBeforeRetrying", func(t *testing.T) {
		h := newHarness(t, 2*testChunk)
		h.up.OfflinePoll = 7 * time.Second
		var checks atomic.Int32
		h.online = func() bool {
			// Online for the start, offline for the first three checks after the cut.
			n := checks.Add(1)
			return n == 1 || n > 4
		}
		h.fake.SetTusWrapper(videotest.CutPatchAfter(100, 1))
		res, err := h.up.Upload(context.Background(), h.file, "", "")
		if err != nil {
			t.Fatal(err)
		}
		h.checkStored(res.URI, h.data)
		if got := h.slept(); !equalDurations(got, ms(7000, 7000, 7000, 0)) {
			t.Errorf("slept %v, want three polls then the 0 s retry", got)
		}
		out := h.out.String()
		if !strings.Contains(out, "the network is unreachable") || !strings.Contains(out, "the network is back after 21s") {
			t.Errorf("offline notes missing:\n%s", out)
		}
		// The waits offline did not use up the retry schedule.
		if strings.Contains(out, "retry 2 of 4") {
			t.Errorf("offline waits counted as retries:\n%s", out)
		}
	})

	t.Run("WaitsBeforeCreating", func(t *testing.T) {
		h := newHarness(t, 100)
		var checks atomic.Int32
		h.online = func() bool { return checks.Add(1) > 2 }
		if _, err := h.up.Upload(context.Background(), h.file, "", ""); err != nil {
			t.Fatal(err)
		}
		if got := h.slept(); !equalDurations(got, ms(5000, 5000)) {
			t.Errorf("slept %v", got)
		}
		if len(h.dials) == 0 || h.dials[0] != h.fake.URL {
			t.Errorf("reachability checked against %v, want the API URL first", h.dials)
		}
	})

	t.Run("CtrlCWhileOffline", func(t *testing.T) {
		h := newHarness(t, 100)
		ctx, cancel := context.WithCancel(context.Background())
		h.online = func() bool { cancel(); return false }
		_, err := h.up.Upload(ctx, h.file, "", "")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestStall: a connection that stops taking bytes is cut and the upload resumed. This is
// the one test that waits in real time, a fraction of a second.
func TestStall(t *testing.T) {
	h := newHarness(t, 4*testChunk)
	h.up.ChunkSize = 4 * testChunk
	h.up.StallTimeout = 150 * time.Millisecond
	reached, release := make(chan struct{}), make(chan struct{})
	var released atomic.Bool
	h.fake.SetTusWrapper(videotest.Chain(
		videotest.Observe(func(r *http.Request) {
			// The stalled PATCH is released (its client is gone) once the retry's HEAD comes.
			if r.Method == http.MethodHead && isClosed(reached) && released.CompareAndSwap(false, true) {
				close(release)
			}
		}),
		videotest.HoldPatchAfter(testChunk, reached, release),
	))
	res, err := h.up.Upload(context.Background(), h.file, "", "")
	if err != nil {
		t.Fatal(err)
	}
	h.checkStored(res.URI, h.data)
	if !strings.Contains(h.out.String(), errStalled.Error()) {
		t.Errorf("no stall note:\n%s", h.out)
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
