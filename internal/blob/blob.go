package blob

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"
)

// Store keeps objects under keys.
type Store interface {
	// Put stores what r reads under key, replacing any object there. It fails with
	// ErrChecksum, storing nothing, when opts.SHA256 is set and the bytes differ.
	Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (Info, error)
	// Get opens an object, or the part rng selects; the Info is the whole object's.
	Get(ctx context.Context, key string, rng Range) (io.ReadCloser, Info, error)
	Stat(ctx context.Context, key string) (Info, error)
	// Delete removes an object; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// List calls fn with every object whose key starts with prefix, in no promised
	// order; an error from fn stops it and is returned.
	List(ctx context.Context, prefix string, fn func(Info) error) error
	// SignedURL is a URL that reads key without credentials until ttl has passed, or
	// ErrNoSignedURLs for a store that cannot make one (Local).
	SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error)
	// String says where the store is, for logs and messages (never credentials).
	String() string
}

// PutOptions are the optional parts of a Put.
type PutOptions struct {
	ContentType string
	// SHA256 is the hex SHA-256 the bytes must have; empty: not checked.
	SHA256 string
}

// Info describes a stored object.
type Info struct {
	Key         string
	Size        int64
	ModTime     time.Time
	ContentType string
	// SHA256 is the hex SHA-256 recorded by Put, when the store keeps one (S3; Local
	// computes it only in Checksum).
	SHA256 string
}

// Range selects bytes [Offset, Offset+Length) of an object; Length 0 reads to the end.
type Range struct{ Offset, Length int64 }

var (
	// ErrNotExist is a missing object. It is fs.ErrNotExist, so errors.Is(err,
	// os.ErrNotExist) holds for it.
	ErrNotExist = fs.ErrNotExist
	// ErrChecksum is a Put whose bytes do not have the SHA-256 the caller gave.
	ErrChecksum = errors.New("blob: the bytes do not have the expected SHA-256")
	// ErrNoSignedURLs is SignedURL on a store that cannot make them.
	ErrNoSignedURLs = errors.New("blob: this store cannot make signed URLs")
	// ErrInvalidKey is a key ValidKey refuses.
	ErrInvalidKey = errors.New("blob: invalid key")
	// ErrInvalidRange is a Range with a negative offset or length, or an offset past
	// the end of the object.
	ErrInvalidRange = errors.New("blob: invalid range")
)

// MaxKeyBytes is the longest key: S3's limit.
const MaxKeyBytes = 1024

// tmpPrefix starts the names of files Local writes before renaming them into place; no
// key may have a part starting with it.
const tmpPrefix = ".tmp-"

// ValidKey reports whether key can name an object in every backend: a relative,
// clean, slash-separated path of valid UTF-8 without control characters or
// backslashes, at most MaxKeyBytes long, no part of which starts with ".tmp-".
func ValidKey(key string) bool {
	if key == "" || len(key) > MaxKeyBytes || !utf8.ValidString(key) || !fs.ValidPath(key) || key == "." {
		return false
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	for part := range strings.SplitSeq(key, "/") {
		if strings.HasPrefix(part, tmpPrefix) {
			return false
		}
	}
	return true
}

// validPrefix reports whether prefix can start keys: empty, or a valid key, possibly
// ending in '/'.
func validPrefix(prefix string) bool {
	return prefix == "" || ValidKey(strings.TrimSuffix(prefix, "/"))
}

func checkRange(rng Range, size int64) error {
	if rng.Offset < 0 || rng.Length < 0 || (rng.Offset > 0 && rng.Offset >= size) {
		return ErrInvalidRange
	}
	return nil
}
