package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config is where a bucket is and how to reach it.
type S3Config struct {
	Bucket string
	Prefix string // put before every key; empty or ending in '/'
	// Endpoint is the server's URL (http://127.0.0.1:9000); empty: AWS's for Region.
	Endpoint  string
	Region    string
	AccessKey string
	SecretKey string
	Session   string
	// PathStyle addresses the bucket in the path (MinIO, Garage, gofakes3) rather than
	// as a host name (AWS).
	PathStyle bool
	// Transport replaces the HTTP client's; nil: the default.
	Transport http.RoundTripper
}

// S3 keeps objects in an S3-compatible bucket.
type S3 struct {
	c      *minio.Client
	cfg    S3Config
	bucket string
	prefix string
}

// metaSHA256 is the user metadata holding the SHA-256 Put computed.
const metaSHA256 = "Sha256"

// NewS3 connects to the bucket (it does not check that the bucket exists; Check does).
func NewS3(cfg S3Config) (*S3, error) {
	host, secure := "s3.amazonaws.com", true
	if cfg.Region != "" && cfg.Endpoint == "" {
		host = "s3." + cfg.Region + ".amazonaws.com"
	}
	if cfg.Endpoint != "" {
		u, err := url.Parse(cfg.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("blob: the S3 endpoint must be an http(s) URL without a path, got %q", cfg.Endpoint)
		}
		host, secure = u.Host, u.Scheme == "https"
	}
	if cfg.Prefix != "" && !strings.HasSuffix(cfg.Prefix, "/") {
		cfg.Prefix += "/"
	}
	var creds *credentials.Credentials
	if cfg.AccessKey != "" {
		creds = credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.Session)
	} else {
		// No keys: an instance role, or anonymous requests to a public test server.
		creds = credentials.NewChainCredentials([]credentials.Provider{&credentials.IAM{}})
	}
	lookup := minio.BucketLookupDNS
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(host, &minio.Options{Creds: creds, Secure: secure, Region: cfg.Region, BucketLookup: lookup, Transport: cfg.Transport})
	if err != nil {
		return nil, fmt.Errorf("blob: S3 client: %w", err)
	}
	return &S3{c: c, cfg: cfg, bucket: cfg.Bucket, prefix: cfg.Prefix}, nil
}

func (s *S3) String() string {
	where := s.cfg.Endpoint
	if where == "" {
		where = "AWS " + s.cfg.Region
	}
	return "s3://" + s.bucket + "/" + s.prefix + " at " + where
}

// Check fails when the bucket cannot be reached or does not exist.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.c.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("blob: reach %s: %w", s, err)
	}
	if !ok {
		return fmt.Errorf("blob: the bucket %q does not exist at %s", s.bucket, s)
	}
	return nil
}

func (s *S3) name(key string) string { return s.prefix + key }

// s3Error turns a missing object into ErrNotExist.
func s3Error(op, key string, err error) error {
	if err == nil {
		return nil
	}
	er := minio.ToErrorResponse(err)
	switch {
	case er.Code == "NoSuchKey" || er.Code == "NotFound":
		return fmt.Errorf("blob: %s %s: %w", op, key, ErrNotExist)
	case er.Code == "InvalidRange" || er.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		return fmt.Errorf("blob: %s %s: %w", op, key, ErrInvalidRange)
	}
	return fmt.Errorf("blob: %s %s: %w", op, key, err)
}

// spoolLimit is the largest object Put holds in memory to hash it before the upload
// starts (the hash goes in the object's metadata); larger ones from a reader that cannot
// seek go through a temporary file.
const spoolLimit = 8 << 20

func (s *S3) Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (Info, error) {
	if !ValidKey(key) {
		return Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	body, size, sum, cleanup, err := spool(ctx, r)
	if err != nil {
		return Info{}, fmt.Errorf("blob: put %s: %w", key, err)
	}
	defer cleanup()
	if opts.SHA256 != "" && !strings.EqualFold(opts.SHA256, sum) {
		return Info{}, fmt.Errorf("blob: put %s: %w", key, ErrChecksum)
	}
	ct := contentType(key, opts.ContentType)
	_, err = s.c.PutObject(ctx, s.bucket, s.name(key), body, size, minio.PutObjectOptions{
		ContentType:  ct,
		UserMetadata: map[string]string{metaSHA256: sum},
		// The server checks what it received against this MD5 (on the wire; the
		// SHA-256 above is for readers).
		SendContentMd5: true,
	})
	if err != nil {
		return Info{}, s3Error("put", key, err)
	}
	return Info{Key: key, Size: size, ModTime: time.Now(), ContentType: ct, SHA256: sum}, nil
}

// spool reads r whole, in memory up to spoolLimit and into a temporary file beyond,
// and returns it to read again with its size and hex SHA-256. A reader that can seek
// (a file) is read twice instead.
func spool(ctx context.Context, r io.Reader) (io.Reader, int64, string, func(), error) {
	h := sha256.New()
	if rs, ok := r.(io.ReadSeeker); ok {
		start, err := rs.Seek(0, io.SeekCurrent)
		if err == nil {
			n, err := io.Copy(h, readerCtx{ctx, rs})
			if err == nil {
				_, err = rs.Seek(start, io.SeekStart)
			}
			if err != nil {
				return nil, 0, "", nil, err
			}
			return io.LimitReader(rs, n), n, hex.EncodeToString(h.Sum(nil)), func() {}, nil
		}
	}
	var buf bytes.Buffer
	n, err := io.Copy(io.MultiWriter(&buf, h), io.LimitReader(readerCtx{ctx, r}, spoolLimit+1))
	if err != nil {
		return nil, 0, "", nil, err
	}
	if n <= spoolLimit {
		return bytes.NewReader(buf.Bytes()), n, hex.EncodeToString(h.Sum(nil)), func() {}, nil
	}
	f, err := os.CreateTemp("", "lineage-blob-*")
	if err != nil {
		return nil, 0, "", nil, err
	}
	cleanup := func() { f.Close(); os.Remove(f.Name()) }
	if _, err := f.Write(buf.Bytes()); err != nil {
		cleanup()
		return nil, 0, "", nil, err
	}
	m, err := io.Copy(io.MultiWriter(f, h), readerCtx{ctx, r})
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		cleanup()
		return nil, 0, "", nil, err
	}
	return f, n + m, hex.EncodeToString(h.Sum(nil)), cleanup, nil
}

func (s *S3) info(key string, oi minio.ObjectInfo) Info {
	return Info{Key: key, Size: oi.Size, ModTime: oi.LastModified, ContentType: oi.ContentType, SHA256: oi.UserMetadata[metaSHA256]}
}

func (s *S3) Get(ctx context.Context, key string, rng Range) (io.ReadCloser, Info, error) {
	if !ValidKey(key) {
		return nil, Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	if rng.Offset < 0 || rng.Length < 0 {
		return nil, Info{}, ErrInvalidRange
	}
	var opts minio.GetObjectOptions
	if rng != (Range{}) {
		end := int64(0)
		if rng.Length > 0 {
			end = rng.Offset + rng.Length - 1
		}
		if rng.Offset == 0 && end == 0 {
			// minio-go reads "0, 0" as no range; ask for the first byte explicitly.
			opts.Set("Range", "bytes=0-0")
		} else if err := opts.SetRange(rng.Offset, end); err != nil {
			return nil, Info{}, ErrInvalidRange
		}
	}
	obj, err := s.c.GetObject(ctx, s.bucket, s.name(key), opts)
	if err != nil {
		return nil, Info{}, s3Error("get", key, err)
	}
	oi, err := obj.Stat() // sends the request
	if err != nil {
		obj.Close()
		return nil, Info{}, s3Error("get", key, err)
	}
	info := s.info(key, oi)
	if rng != (Range{}) {
		// A ranged answer's size is the part's; the object's is after the slash of
		// Content-Range.
		if cr := oi.Headers.Get("Content-Range"); cr != "" {
			if i := strings.LastIndexByte(cr, '/'); i >= 0 {
				fmt.Sscan(cr[i+1:], &info.Size)
			}
		}
	}
	return obj, info, nil
}

func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	oi, err := s.c.StatObject(ctx, s.bucket, s.name(key), minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s3Error("stat", key, err)
	}
	return s.info(key, oi), nil
}

func (s *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	err := s3Error("delete", key, s.c.RemoveObject(ctx, s.bucket, s.name(key), minio.RemoveObjectOptions{}))
	if errors.Is(err, ErrNotExist) {
		return nil
	}
	return err
}

func (s *S3) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return fmt.Errorf("%w: prefix %q", ErrInvalidKey, prefix)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing goroutine when fn fails
	for oi := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.name(prefix), Recursive: true}) {
		if oi.Err != nil {
			return s3Error("list", prefix, oi.Err)
		}
		key := strings.TrimPrefix(oi.Key, s.prefix)
		if !ValidKey(key) {
			continue // not one of ours
		}
		if err := fn(s.info(key, oi)); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (s *S3) SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	u, err := s.c.PresignedGetObject(ctx, s.bucket, s.name(key), ttl, nil)
	if err != nil {
		return "", s3Error("sign", key, err)
	}
	return u.String(), nil
}
