package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/video"
	"lineage/internal/video/videotest"
)

// videoEnv is the environment of a `lineage video` run against fake.
func videoEnv(fake *videotest.Server) map[string]string {
	return map[string]string{
		"LINEAGE_VIDEO_API_URL":       fake.URL,
		"LINEAGE_VIDEO_ACCESS_TOKEN":  videotest.AccessToken,
		"LINEAGE_VIDEO_CLIENT_ID":     videotest.ClientID,
		"LINEAGE_VIDEO_CLIENT_SECRET": videotest.ClientSecret,
	}
}

// testVideoCmd runs the command in-process with a fake clock that never sleeps.
type testVideoCmd struct {
	env            map[string]string
	stdout, stderr bytes.Buffer
	sleeps         []time.Duration
}

func (c *testVideoCmd) run(ctx context.Context, args ...string) error {
	c.stdout.Reset()
	c.stderr.Reset()
	return videoCmd{
		stdout: &c.stdout,
		stderr: &c.stderr,
		getenv: func(k string) string { return c.env[k] },
		setup: func(u *video.Uploader) {
			u.ChunkSize = 256 << 10
			u.Sleep = func(ctx context.Context, d time.Duration) error {
				c.sleeps = append(c.sleeps, d)
				return ctx.Err()
			}
			u.Reachable = func(context.Context, string) bool { return true }
		},
	}.run(ctx, args)
}

func writeTestFile(t *testing.T, name string, size int) (string, []byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(size), 3))
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(r.UintN(256))
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

func checkStored(t *testing.T, fake *videotest.Server, uri string, want []byte) {
	t.Helper()
	got, _, err := fake.Stored(uri)
	if err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(got) != sha256.Sum256(want) {
		t.Fatalf("the host holds %d bytes for %s that differ from the file's %d", len(got), uri, len(want))
	}
}

func TestVideoUploadCommand(t *testing.T) {
	fake := videotest.New(t)
	file, data := writeTestFile(t, "annual-lecture.mp4", 1<<20+17)
	dataDir := t.TempDir()
	c := &testVideoCmd{env: videoEnv(fake)}

	// First run: interrupted in the middle of a PATCH, as Ctrl-C does.
	ctx, cancel := context.WithCancel(context.Background())
	reached, release := make(chan struct{}), make(chan struct{})
	fake.SetTusWrapper(videotest.HoldPatchAfter(100_000, reached, release))
	go func() {
		<-reached
		cancel()
		close(release)
	}()
	// Flags after the file, as operators type them.
	err := c.run(ctx, "upload", file, "--name", "Annual lecture 2026", "--description", "Recorded at the AGM", "--data", dataDir)
	if err == nil || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("first run: %v", err)
	}
	states, _ := filepath.Glob(filepath.Join(dataDir, "video-uploads", "*.json"))
	if len(states) != 1 {
		t.Fatalf("state files %v", states)
	}

	// Second run of the same command: resumes, prints what to paste.
	fake.SetTusWrapper(nil)
	if err := c.run(context.Background(), "upload", file, "--name", "Annual lecture 2026", "--description", "Recorded at the AGM", "--data", dataDir); err != nil {
		t.Fatal(err)
	}
	videos := fake.Videos()
	if len(videos) != 1 || videos[0].Name != "Annual lecture 2026" || videos[0].Description != "Recorded at the AGM" {
		t.Fatalf("videos %+v", videos)
	}
	uri := videos[0].URI
	id := strings.TrimPrefix(uri, "/videos/")
	want := "video: " + uri + "\nlink:  https://vimeo.com/" + id + "\n" +
		`video block (primary.video): {"type":"video","provider_name":"Vimeo","embed_url":"https://vimeo.com/` + id + `","title":"Annual lecture 2026"}` + "\n"
	if c.stdout.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", c.stdout.String(), want)
	}
	if !strings.Contains(c.stderr.String(), "resuming the upload of annual-lecture.mp4") {
		t.Errorf("stderr:\n%s", c.stderr.String())
	}
	checkStored(t, fake, uri, data)
	if states, _ := filepath.Glob(filepath.Join(dataDir, "video-uploads", "*.json")); len(states) != 0 {
		t.Errorf("state left: %v", states)
	}
}

func TestVideoReplaceCommand(t *testing.T) {
	fake := videotest.New(t)
	uri := fake.AddVideo("Old cut")
	file, data := writeTestFile(t, "new-cut.mov", 300_000)
	c := &testVideoCmd{env: videoEnv(fake)}
	fake.SetTusWrapper(videotest.Fail(http.MethodPatch, 423, 2))
	if err := c.run(context.Background(), "replace", "https://vimeo.com/"+strings.TrimPrefix(uri, "/videos/"), file, "--data", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.stdout.String(), "video: "+uri+"\n") {
		t.Errorf("stdout %q", c.stdout.String())
	}
	if fmt.Sprint(c.sleeps) != "[0s 1s]" {
		t.Errorf("slept %v", c.sleeps)
	}
	checkStored(t, fake, uri, data)
}

func TestVideoTokenCommand(t *testing.T) {
	fake := videotest.New(t)
	c := &testVideoCmd{env: videoEnv(fake)}
	if err := c.run(context.Background(), "token", "--code", videotest.GoodCode, "--redirect-uri", "https://lineage.example/cb"); err != nil {
		t.Fatal(err)
	}
	want := "LINEAGE_VIDEO_ACCESS_TOKEN=" + videotest.AccessToken + "\n# bearer token; scope: public private upload; user: Society Media (/users/7); app: Lineage (/apps/1)\n"
	if c.stdout.String() != want {
		t.Errorf("stdout %q, want %q", c.stdout.String(), want)
	}
	if err := c.run(context.Background(), "token", "--client-credentials"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.stdout.String(), "scope: public;") {
		t.Errorf("stdout %q", c.stdout.String())
	}
	last := fake.Requests()[len(fake.Requests())-1]
	if string(last.Body) != "grant_type=client_credentials&scope=public" {
		t.Errorf("body %q", last.Body)
	}
	if err := c.run(context.Background(), "token", "--client-credentials", "--scope", "public private"); err != nil {
		t.Fatal(err)
	}
	if last := fake.Requests()[len(fake.Requests())-1]; string(last.Body) != "grant_type=client_credentials&scope=public+private" {
		t.Errorf("body %q", last.Body)
	}
}

func TestVideoCommandErrors(t *testing.T) {
	fake := videotest.New(t)
	file, _ := writeTestFile(t, "x.mp4", 10)
	data := t.TempDir()
	noToken := videoEnv(fake)
	delete(noToken, "LINEAGE_VIDEO_ACCESS_TOKEN")
	badURL := videoEnv(fake)
	badURL["LINEAGE_VIDEO_API_URL"] = "api.vimeo.com"
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string // the error starts with this
	}{
		{"NoSubcommand", nil, nil, "a subcommand is needed"},
		{"UnknownSubcommand", nil, []string{"download"}, `unknown subcommand "download"`},
		{"UploadNoFile", nil, []string{"upload", "--data", data}, "Please pass in a valid file path."},
		{"UploadMissingFile", nil, []string{"upload", "/no/such/file.mp4", "--data", data}, "Unable to locate file to upload."},
		{"UploadTwoFiles", nil, []string{"upload", file, file, "--data", data}, "one FILE at a time"},
		{"ReplaceNothing", nil, []string{"replace", "--data", data}, "You must provide an API path."},
		{"ReplaceNoFile", nil, []string{"replace", "/videos/5", "--data", data}, "Please pass in a valid file path."},
		{"ReplaceBadURI", nil, []string{"replace", "/users/5", file, "--data", data}, "VIDEO_URI must look like /videos/123456"},
		{"ReplaceUnknownVideo", nil, []string{"replace", "/videos/999", file, "--data", data}, "Unable to initiate an upload."},
		{"UploadNoToken", noToken, []string{"upload", file, "--data", data}, "LINEAGE_VIDEO_ACCESS_TOKEN is not set"},
		{"UploadBadAPIURL", badURL, []string{"upload", file, "--data", data}, "LINEAGE_VIDEO_API_URL must be an absolute http(s) URL"},
		{"TokenNothing", nil, []string{"token"}, "give --code and --redirect-uri, or --client-credentials"},
		{"TokenCodeOnly", nil, []string{"token", "--code", "x"}, "give --code and --redirect-uri"},
		{"TokenBoth", nil, []string{"token", "--code", "x", "--redirect-uri", "y", "--client-credentials"}, "give either"},
		{"TokenScopeWithCode", nil, []string{"token", "--code", "x", "--redirect-uri", "y", "--scope", "public"}, "--scope goes with --client-credentials"},
		{"TokenBadCode", nil, []string{"token", "--code", "x", "--redirect-uri", "y"}, "token request refused: POST /oauth/access_token: 400 Bad Request: invalid_grant"},
		{"TokenNoSecret", noSecret(fake), []string{"token", "--client-credentials"}, "token request refused: LINEAGE_VIDEO_CLIENT_ID and LINEAGE_VIDEO_CLIENT_SECRET must be set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = videoEnv(fake)
			}
			c := &testVideoCmd{env: env}
			err := c.run(context.Background(), tt.args...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to start with %q", err, tt.want)
			}
		})
	}
	if len(fake.Videos()) != 0 {
		t.Errorf("videos created: %+v", fake.Videos())
	}

	c := &testVideoCmd{env: videoEnv(fake)}
	if err := c.run(context.Background(), "-h"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(c.stderr.String(), "lineage video replace VIDEO_URI FILE") {
		t.Errorf("-h: %v\n%s", err, c.stderr.String())
	}
}

func noSecret(fake *videotest.Server) map[string]string {
	env := videoEnv(fake)
	delete(env, "LINEAGE_VIDEO_CLIENT_SECRET")
	return env
}

// TestVideoChildProcess is not a test: it is the `lineage video` process that
// TestVideoUploadKilled starts and kills. It runs only when that test asks.
func TestVideoChildProcess(t *testing.T) {
	if err := runVideo(context.Background(), childArgs(t, "TestVideoUploadKilled")); err != nil {
		fmt.Fprintf(os.Stderr, "lineage video: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestVideoUploadKilled kills a real `lineage video upload` process with SIGKILL in the
// middle of a PATCH (no chance to clean up), then runs the same command again: it must
// resume the same video from the server's offset and finish it byte for byte.
func TestVideoUploadKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	fake := videotest.New(t)
	file, data := writeTestFile(t, "killed.mp4", 3<<20)
	dataDir := t.TempDir()
	const heldAt = 1 << 20

	child := func() *exec.Cmd {
		var env []string
		for k, v := range videoEnv(fake) {
			env = append(env, k+"="+v)
		}
		return childCommand("TestVideoChildProcess", []string{"upload", file, "--name", "Killed", "--data", dataDir}, env...)
	}

	reached, release := make(chan struct{}), make(chan struct{})
	fake.SetTusWrapper(videotest.HoldPatchAfter(heldAt, reached, release))
	first := child()
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	select {
	case <-reached:
	case err := <-exited:
		t.Fatalf("the first process ended before the hold (%v):\n%s", err, firstOut.String())
	case <-time.After(60 * time.Second):
		first.Process.Kill()
		t.Fatalf("the first process never reached %d bytes:\n%s", heldAt, firstOut.String())
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	close(release)
	fake.SetTusWrapper(nil)
	if states, _ := filepath.Glob(filepath.Join(dataDir, "video-uploads", "*.json")); len(states) != 1 {
		t.Fatalf("after the kill, state files %v:\n%s", states, firstOut.String())
	}
	before := len(fake.Requests())

	second := child()
	var stdout, stderr bytes.Buffer
	second.Stdout, second.Stderr = &stdout, &stderr
	if err := second.Run(); err != nil {
		t.Fatalf("second run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	videos := fake.Videos()
	if len(videos) != 1 || fake.Count(http.MethodPost, "/me/videos") != 1 {
		t.Fatalf("videos %+v: the second run must resume, not create", videos)
	}
	if !strings.Contains(stdout.String(), "link:  https://vimeo.com/"+strings.TrimPrefix(videos[0].URI, "/videos/")) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	reqs := fake.Requests()[before:]
	if reqs[0].Method != http.MethodHead {
		t.Errorf("the second run began with %s", reqs[0].Method)
	}
	for _, r := range reqs {
		if r.Method == http.MethodPatch {
			if off, _ := strconv.Atoi(r.Header.Get("Upload-Offset")); off != heldAt {
				t.Errorf("the second run's first PATCH is at %d, want %d (what the server held)", off, heldAt)
			}
			break
		}
	}
	checkStored(t, fake, videos[0].URI, data)
}
