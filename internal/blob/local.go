package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Local keeps objects as files under a folder, a key's slashes being its folders.
type Local struct {
	root string
}

// NewLocal is a store in the folder root, created when first written.
func NewLocal(root string) *Local { return &Local{root: root} }

// Root is the folder the store keeps its files in.
func (l *Local) Root() string { return l.root }

func (l *Local) String() string { return l.root }

// Path is the file of key (which must be valid).
func (l *Local) Path(key string) string { return filepath.Join(l.root, filepath.FromSlash(key)) }

func (l *Local) Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (Info, error) {
	if !ValidKey(key) {
		return Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	p := l.Path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Info{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), tmpPrefix+"*")
	if err != nil {
		return Info{}, err
	}
	h := sha256.New()
	size, err := io.Copy(io.MultiWriter(tmp, h), readerCtx{ctx, r})
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if err == nil && opts.SHA256 != "" && !strings.EqualFold(opts.SHA256, sum) {
		err = ErrChecksum
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return Info{}, fmt.Errorf("blob: put %s: %w", key, err)
	}
	return Info{Key: key, Size: size, ModTime: time.Now(), ContentType: contentType(key, opts.ContentType), SHA256: sum}, nil
}

// readerCtx stops a copy when its context ends.
type readerCtx struct {
	ctx context.Context
	r   io.Reader
}

func (r readerCtx) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

func (l *Local) Get(ctx context.Context, key string, rng Range) (io.ReadCloser, Info, error) {
	if !ValidKey(key) {
		return nil, Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	// OpenInRoot: a symbolic link out of the folder is not followed.
	f, err := os.OpenInRoot(l.root, filepath.FromSlash(key))
	if err != nil {
		return nil, Info{}, notExist(key, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, Info{}, notExist(key, err)
	}
	info := l.info(key, st)
	if rng == (Range{}) {
		return f, info, nil
	}
	if err := checkRange(rng, info.Size); err != nil {
		f.Close()
		return nil, info, err
	}
	if _, err := f.Seek(rng.Offset, io.SeekStart); err != nil {
		f.Close()
		return nil, info, err
	}
	if rng.Length == 0 {
		return f, info, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, rng.Length), f}, info, nil
}

func (l *Local) info(key string, st fs.FileInfo) Info {
	return Info{Key: key, Size: st.Size(), ModTime: st.ModTime(), ContentType: contentType(key, "")}
}

func notExist(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: %s: %w", key, ErrNotExist)
	}
	return fmt.Errorf("blob: %s: %w", key, err)
}

func (l *Local) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	var st fs.FileInfo
	f, err := os.OpenInRoot(l.root, filepath.FromSlash(key))
	if err == nil {
		st, err = f.Stat()
		f.Close()
	}
	if err == nil && !st.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		return Info{}, notExist(key, err)
	}
	return l.info(key, st), nil
}

func (l *Local) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	p := l.Path(key)
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: delete %s: %w", key, err)
	}
	// Folders left empty go too, as they would not exist in a bucket.
	for dir := filepath.Dir(p); dir != l.root && strings.HasPrefix(dir, l.root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

func (l *Local) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return fmt.Errorf("%w: prefix %q", ErrInvalidKey, prefix)
	}
	// Walk from the deepest folder every matching key is under.
	start := l.root
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		start = l.Path(prefix[:i])
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), tmpPrefix) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(l.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			// Skip folders that cannot hold a matching key.
			if p != start && !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(key, prefix) || !ValidKey(key) {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted while listing
			}
			return err
		}
		return fn(l.info(key, st))
	})
	return err
}

func (l *Local) SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error) {
	return "", ErrNoSignedURLs
}

// MoveDir moves the files of the local folder dir under prefix (a key ending in '/'),
// by renaming dir into place when it can and copying otherwise; what was under prefix
// before goes. dir is gone afterwards.
func (l *Local) MoveDir(ctx context.Context, dir, prefix string) error {
	if !ValidKey(strings.TrimSuffix(prefix, "/")) {
		return fmt.Errorf("%w: prefix %q", ErrInvalidKey, prefix)
	}
	dst := l.Path(strings.TrimSuffix(prefix, "/"))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.Rename(dir, dst); err == nil {
		return nil
	}
	defer os.RemoveAll(dir)
	return putDirFiles(ctx, l, dir, prefix)
}

// contentType is the type given, or the one the key's extension says.
func contentType(key, given string) string {
	if given != "" {
		return given
	}
	if t := mime.TypeByExtension(path.Ext(key)); t != "" {
		return t
	}
	return "application/octet-stream"
}
