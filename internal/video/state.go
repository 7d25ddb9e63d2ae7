package video

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"lineage/internal/wholefile"
)

// StateDirName is the directory under the data directory that holds resume state.
const StateDirName = "video-uploads"

// identityPrefix is how much of the file's start is hashed into its identity: enough to
// notice a different recording saved under the same name with the same size.
const identityPrefix = 1 << 20

// fileIdentity tells whether the file on disk is still the one an interrupted upload began
// sending. Size and modification time catch nearly every change; the hash of the first
// MiB catches a copy that kept both.
type fileIdentity struct {
	Size       int64     `json:"size"`
	ModTime    time.Time `json:"mod_time"`
	HeadSHA256 string    `json:"head_sha256"`
}

func (a fileIdentity) same(b fileIdentity) bool {
	return a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.HeadSHA256 == b.HeadSHA256
}

// openForUpload opens the file to send and reads its identity, answering with the
// specification's texts when the path is unusable.
func openForUpload(path string) (*os.File, fileIdentity, error) {
	if strings.TrimSpace(path) == "" {
		return nil, fileIdentity{}, ErrInvalidFilePath
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fileIdentity{}, specError(ErrFileNotFound, "(%v)", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fileIdentity{}, specError(ErrInvalidFilePath, "(%s is a %s, not a file)", path, kindOf(fi.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileIdentity{}, specError(ErrFileNotFound, "(%v)", err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, identityPrefix)); err != nil {
		f.Close()
		return nil, fileIdentity{}, specError(ErrFileNotFound, "(reading %s: %v)", path, err)
	}
	return f, fileIdentity{Size: fi.Size(), ModTime: fi.ModTime().UTC(), HeadSHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// uploadState is what a run leaves behind so that the next run of the same command
// resumes. The upload link is a capability (anyone holding it can write the video), so
// the file is private to its owner.
type uploadState struct {
	Kind       string       `json:"kind"` // "upload" or "replace"
	File       string       `json:"file"` // absolute path
	Identity   fileIdentity `json:"identity"`
	VideoURI   string       `json:"video_uri"`
	Name       string       `json:"name,omitempty"`
	UploadLink string       `json:"upload_link"`
	Offset     int64        `json:"offset"` // last offset the server confirmed; HEAD has the last word
	Started    time.Time    `json:"started"`
	Updated    time.Time    `json:"updated"`
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// statePath names the state file of one command: the same kind of job, the same target
// video (for replace) and the same file path give the same state file, whatever the
// current directory was.
func statePath(dir, kind, target, absFile string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + target + "\x00" + absFile))
	base := unsafeName.ReplaceAllString(filepath.Base(absFile), "_")
	if len(base) > 40 {
		base = base[:40]
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%s-%s.json", kind, base, hex.EncodeToString(sum[:6])))
}

// loadState reads a state file; a missing file is (nil, nil).
func loadState(path string) (*uploadState, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st uploadState
	if err := json.Unmarshal(data, &st); err != nil || st.UploadLink == "" || st.VideoURI == "" {
		return nil, fmt.Errorf("the resume state %s is unreadable; delete it to start afresh (the video it names, if any, stays on the video host)", path)
	}
	return &st, nil
}

// save writes the state atomically: a crash leaves the old file or the new one.
func (st *uploadState) save(path string) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return wholefile.Write(path, 0o600, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
