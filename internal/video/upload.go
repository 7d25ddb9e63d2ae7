package video

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// RetryDelays are the waits before the retries of a failed tus request (seed-spec §9).
// After the last one the upload gives up, keeping its state for the next run.
var RetryDelays = []time.Duration{0, 1000 * time.Millisecond, 3000 * time.Millisecond, 5000 * time.Millisecond}

// DefaultChunkSize is how many bytes one PATCH carries. The server keeps what it received
// even when a PATCH is cut, so the size only sets how often the offset is confirmed and
// saved.
const DefaultChunkSize = 16 << 20

var (
	errBusy    = errors.New("another lineage video run is sending this file right now")
	errStalled = errors.New("no bytes went out for too long; the connection seems dead")
)

// Uploader sends files to the video host and resumes interrupted sends. The zero values
// of the optional fields give the real clock, network and defaults; tests replace them.
type Uploader struct {
	Client   *Client
	StateDir string   // where resume state lives: <data>/video-uploads
	Progress Progress // nil: silent

	ChunkSize    int64                                            // default DefaultChunkSize
	RetryDelays  []time.Duration                                  // default RetryDelays
	Now          func() time.Time                                 // default time.Now
	Sleep        func(ctx context.Context, d time.Duration) error // default: a timer that ctx can cut short
	Reachable    func(ctx context.Context, rawURL string) bool    // default DialReachable
	OfflinePoll  time.Duration                                    // how often to look for the network while offline; default 5 s
	StallTimeout time.Duration                                    // cut a PATCH that sends nothing this long (5× that awaiting its answer); default 60 s, <0 never
}

// Result is a finished upload: what to paste into a content document's video block.
type Result struct {
	URI     string // /videos/123456
	Link    string // https://vimeo.com/123456
	Name    string // the video's name, when known
	Size    int64  // bytes sent in all, across runs
	Resumed bool   // an earlier, interrupted run had begun it
}

// Upload creates a video from the file at path and sends it. If an earlier run of the
// same upload was interrupted, it continues that one instead of creating another video.
func (u *Uploader) Upload(ctx context.Context, path, name, description string) (Result, error) {
	return u.run(ctx, job{kind: "upload", path: path, name: name, description: description})
}

// Replace sends the file at path as a new version of the video videoURI, which keeps its
// URI and page. An interrupted replace of the same video with the same file resumes.
func (u *Uploader) Replace(ctx context.Context, videoURI, path string) (Result, error) {
	uri, err := NormalizeVideoURI(videoURI)
	if err != nil {
		return Result{}, err
	}
	return u.run(ctx, job{kind: "replace", path: path, videoURI: uri})
}

type job struct {
	kind              string // "upload" or "replace"
	path              string
	name, description string // upload
	videoURI          string // replace
}

func (u *Uploader) run(ctx context.Context, j job) (Result, error) {
	f, id, err := openForUpload(j.path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	abs, err := filepath.Abs(j.path)
	if err != nil {
		return Result{}, specError(ErrInvalidFilePath, "(%v)", err)
	}
	if u.StateDir == "" {
		return Result{}, errors.New("video: Uploader.StateDir is not set")
	}
	if err := os.MkdirAll(u.StateDir, 0o700); err != nil {
		return Result{}, fmt.Errorf("the resume state directory: %w", err)
	}
	path := statePath(u.StateDir, j.kind, j.videoURI, abs)
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return Result{}, fmt.Errorf("%w (%s is locked)", err, path)
	}
	defer unlock()
	label := filepath.Base(abs)

	st, err := loadState(path)
	if err != nil {
		return Result{}, err
	}
	fresh := st == nil
	switch {
	case fresh:
		if st, err = u.begin(ctx, j, abs, id, path); err != nil {
			return Result{}, err
		}
	case !st.Identity.same(id):
		u.progress().Notef("%s has changed since the interrupted %s to %s began on %s; sending it afresh as a new version of that video",
			label, st.Kind, st.VideoURI, st.Started.Local().Format(time.DateTime))
		if err := u.newVersion(ctx, st, abs, id, path); err != nil {
			return Result{}, err
		}
		fresh = true
	default:
		u.progress().Notef("resuming the %s of %s to %s, begun on %s", st.Kind, label, st.VideoURI, st.Started.Local().Format(time.DateTime))
	}

	err = u.transfer(ctx, st, f, path, label)
	if errors.Is(err, ErrUploadGone) && !fresh && ctx.Err() == nil {
		// The link saved by an earlier run has expired or been withdrawn. The video
		// exists, so a new version of it takes the file; no second video appears.
		u.progress().Notef("the upload server no longer accepts the link saved on %s (HTTP %d); sending the file afresh as a new version of %s",
			st.Started.Local().Format(time.DateTime), statusOf(err), st.VideoURI)
		if err := u.newVersion(ctx, st, abs, id, path); err != nil {
			return Result{}, err
		}
		err = u.transfer(ctx, st, f, path, label)
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return Result{}, fmt.Errorf("interrupted after the server confirmed %s of %s; run the same command again to resume (state in %s)",
				formatBytes(st.Offset), formatBytes(id.Size), path)
		case errors.Is(err, ErrUploadGone):
			os.Remove(path)
			return Result{}, fmt.Errorf("%w; the video %s exists without this file: run `lineage video replace %s %s` to send it again",
				err, st.VideoURI, st.VideoURI, j.path)
		}
		return Result{}, fmt.Errorf("%w\nThe %s of %s to %s stopped after the server confirmed %s of %s; run the same command again to resume (state in %s).",
			err, st.Kind, label, st.VideoURI, formatBytes(st.Offset), formatBytes(id.Size), path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		u.progress().Notef("warning: could not remove the finished upload's state %s: %v", path, err)
	}
	os.Remove(path + ".lock")
	link, _ := VideoPageLink(st.VideoURI)
	return Result{URI: st.VideoURI, Link: link, Name: st.Name, Size: id.Size, Resumed: !fresh}, nil
}

// begin creates the video (upload) or the version (replace) and saves the state at once,
// before a single byte is sent, so that a crash from here on resumes instead of
// creating a second video.
func (u *Uploader) begin(ctx context.Context, j job, abs string, id fileIdentity, path string) (*uploadState, error) {
	if err := u.waitOnline(ctx, u.Client.APIURL()); err != nil {
		return nil, err
	}
	now := u.now()
	st := &uploadState{Kind: j.kind, File: abs, Identity: id, VideoURI: j.videoURI, Started: now, Updated: now}
	switch j.kind {
	case "upload":
		name := j.name
		if name == "" {
			name = filepath.Base(abs)
		}
		v, err := u.Client.CreateVideo(ctx, id.Size, name, j.description)
		if err != nil {
			return nil, err
		}
		st.VideoURI, st.Name, st.UploadLink = v.URI, v.Name, v.Upload.UploadLink
	case "replace":
		t, err := u.Client.CreateVersion(ctx, j.videoURI, filepath.Base(abs), id.Size)
		if err != nil {
			return nil, err
		}
		st.UploadLink = t.UploadLink
	}
	if err := st.save(path); err != nil {
		return nil, fmt.Errorf("the video host created %s, but its resume state could not be saved: %w", st.VideoURI, err)
	}
	return st, nil
}

// newVersion gives the video of an earlier run a fresh upload link for the file as it
// is now, and saves the state.
func (u *Uploader) newVersion(ctx context.Context, st *uploadState, abs string, id fileIdentity, path string) error {
	if err := u.waitOnline(ctx, u.Client.APIURL()); err != nil {
		return err
	}
	t, err := u.Client.CreateVersion(ctx, st.VideoURI, filepath.Base(abs), id.Size)
	if err != nil {
		return err
	}
	now := u.now()
	st.Identity, st.UploadLink, st.Offset, st.Started, st.Updated = id, t.UploadLink, 0, now, now
	return st.save(path)
}

// transfer sends the file to st.UploadLink from wherever the server is, retrying failed
// requests on the RetryDelays schedule. Every attempt starts with a HEAD, so after a cut
// connection or a 409 the next PATCH starts at the server's offset, not ours.
func (u *Uploader) transfer(ctx context.Context, st *uploadState, f *os.File, path, label string) error {
	delays := u.RetryDelays
	if delays == nil {
		delays = RetryDelays
	}
	prog := u.progress()
	attempt, offsetAtRetry := 0, int64(-1)
	started := false
	for {
		err := u.attempt(ctx, st, f, path, label, &started)
		if err == nil {
			prog.Finish()
			return nil
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if !retryable(err) {
			return err
		}
		// Like tus-js-client: a retry that moved the upload on earns a fresh schedule,
		// so a long upload over a flaky line goes on as long as it makes progress.
		if st.Offset > offsetAtRetry {
			attempt = 0
		}
		if attempt >= len(delays) {
			if statusOf(err) == 423 {
				return fmt.Errorf("%w: gave up after %d attempts; wait until the other request stops (another lineage video run, or a browser upload) and run the same command again", ErrLocked, len(delays)+1)
			}
			return fmt.Errorf("gave up after %d attempts: %w", len(delays)+1, err)
		}
		delay := delays[attempt]
		attempt++
		offsetAtRetry = st.Offset
		prog.Notef("%s: %v; retry %d of %d in %s", label, err, attempt, len(delays), delay)
		if err := u.waitOnline(ctx, st.UploadLink); err != nil {
			return err
		}
		if err := u.sleep(ctx, delay); err != nil {
			return err
		}
	}
}

// attempt is one HEAD and as many PATCHes as it takes, stopping at the first failure.
func (u *Uploader) attempt(ctx context.Context, st *uploadState, f *os.File, path, label string, started *bool) error {
	size := st.Identity.Size
	offset, length, err := u.Client.head(ctx, st.UploadLink)
	if err != nil {
		return err
	}
	if length != size {
		return fmt.Errorf("%w: the upload server expects %d bytes but %s has %d", ErrBadLength, length, label, size)
	}
	st.Offset = offset
	prog := u.progress()
	if !*started {
		prog.Start(label, size, offset)
		*started = true
	} else {
		prog.Update(offset)
	}
	chunk := u.ChunkSize
	if chunk <= 0 {
		chunk = DefaultChunkSize
	}
	for offset < size {
		n := min(chunk, size-offset)
		next, err := u.sendChunk(ctx, st.UploadLink, f, offset, n)
		if err != nil {
			prog.Update(st.Offset)
			return err
		}
		offset = next
		st.Offset, st.Updated = offset, u.now()
		if err := st.save(path); err != nil {
			return fmt.Errorf("saving the resume state: %w", err)
		}
		prog.Update(offset)
	}
	return nil
}

// sendChunk PATCHes n bytes of f from offset, reporting bytes as they leave and cutting
// the request if the connection stops taking bytes for StallTimeout. Once the last byte
// has left, the answer may take longer: the socket buffers may still hold megabytes
// that a slow line needs time to carry, so the wait for it is five times as long.
func (u *Uploader) sendChunk(ctx context.Context, link string, f *os.File, offset, n int64) (int64, error) {
	stall := u.StallTimeout
	if stall == 0 {
		stall = 60 * time.Second
	}
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var timer *time.Timer
	if stall > 0 {
		timer = time.AfterFunc(stall, func() { cancel(errStalled) })
		defer timer.Stop()
	}
	prog := u.progress()
	body := func() io.Reader {
		return &chunkReader{r: io.NewSectionReader(f, offset, n), pos: offset, end: offset + n, onRead: func(pos int64, done bool) {
			if timer != nil {
				if done {
					timer.Reset(5 * stall)
				} else {
					timer.Reset(stall)
				}
			}
			prog.Update(pos)
		}}
	}
	getBody := func() (io.ReadCloser, error) { return io.NopCloser(body()), nil }
	next, err := u.Client.patch(pctx, link, offset, n, body(), getBody)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(pctx), errStalled) {
		return 0, &transportError{errStalled}
	}
	return next, err
}

// chunkReader reports the absolute position of the bytes read through it.
type chunkReader struct {
	r        io.Reader
	pos, end int64
	onRead   func(pos int64, done bool)
}

func (c *chunkReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.pos += int64(n)
	if n > 0 || err != nil {
		c.onRead(c.pos, c.pos >= c.end)
	}
	return n, err
}

// waitOnline returns at once while the host of rawURL is reachable; otherwise it says
// so and waits until it is, or until ctx ends.
func (u *Uploader) waitOnline(ctx context.Context, rawURL string) error {
	reachable := u.Reachable
	if reachable == nil {
		reachable = DialReachable
	}
	if reachable(ctx, rawURL) {
		return nil
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	poll := u.OfflinePoll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	since := u.now()
	u.progress().Notef("the network is unreachable (no answer from %s); waiting for it to come back (Ctrl-C stops; the same command resumes later)", hostPort(rawURL))
	for {
		if err := u.sleep(ctx, poll); err != nil {
			return err
		}
		if reachable(ctx, rawURL) {
			u.progress().Notef("the network is back after %s; going on", formatDuration(u.now().Sub(since)))
			return nil
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
	}
}

func (u *Uploader) progress() Progress {
	if u.Progress == nil {
		return quietProgress{}
	}
	return u.Progress
}

func (u *Uploader) now() time.Time {
	if u.Now == nil {
		return time.Now()
	}
	return u.Now()
}

func (u *Uploader) sleep(ctx context.Context, d time.Duration) error {
	if u.Sleep != nil {
		return u.Sleep(ctx, d)
	}
	if d <= 0 {
		return context.Cause(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
