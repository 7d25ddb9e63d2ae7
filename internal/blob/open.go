package blob

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// Location is a parsed LINEAGE_STORAGE_URL: the local folder (Bucket empty) or a bucket
// and the prefix of every key in it.
type Location struct {
	Bucket string
	Prefix string // empty or ending in '/'
}

// ParseURL reads a storage URL: "" (the local folder) or s3://bucket[/prefix]. The bucket
// follows S3's naming rules (3 to 63 lower-case letters, digits, '.' and '-'); the
// prefix is a valid key.
func ParseURL(raw string) (Location, error) {
	if raw == "" {
		return Location{}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Location{}, fmt.Errorf("LINEAGE_STORAGE_URL: %w", err)
	}
	if u.Scheme != "s3" {
		return Location{}, fmt.Errorf("LINEAGE_STORAGE_URL must be s3://bucket/prefix (leave it unset for the data folder), got %q", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Port() != "" {
		return Location{}, fmt.Errorf("LINEAGE_STORAGE_URL must be s3://bucket/prefix with nothing else (credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), got %q", raw)
	}
	if !validBucket(u.Host) {
		return Location{}, fmt.Errorf("LINEAGE_STORAGE_URL: %q is not a bucket name (3 to 63 lower-case letters, digits, '.' and '-')", u.Host)
	}
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		if !ValidKey(prefix) {
			return Location{}, fmt.Errorf("LINEAGE_STORAGE_URL: %q is not a usable prefix", prefix)
		}
		prefix += "/"
	}
	return Location{Bucket: u.Host, Prefix: prefix}, nil
}

func (l Location) String() string {
	if l.Bucket == "" {
		return ""
	}
	return "s3://" + l.Bucket + "/" + l.Prefix
}

func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	first, last := b[0], b[len(b)-1]
	return first != '.' && first != '-' && last != '.' && last != '-' && !strings.Contains(b, "..")
}

// LocalDir is the folder of the local store inside a data directory.
func LocalDir(dataDir string) string { return filepath.Join(dataDir, "files") }

// S3FromEnv completes a bucket's configuration from the usual variables:
// AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION or AWS_DEFAULT_REGION,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, and
// LINEAGE_STORAGE_PATH_STYLE (true/false; default: true when an endpoint is set, as
// MinIO and Garage want, false for AWS).
func S3FromEnv(loc Location, getenv func(string) string) (S3Config, error) {
	cfg := S3Config{
		Bucket:    loc.Bucket,
		Prefix:    loc.Prefix,
		Endpoint:  first(getenv("AWS_ENDPOINT_URL_S3"), getenv("AWS_ENDPOINT_URL")),
		Region:    first(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION")),
		AccessKey: getenv("AWS_ACCESS_KEY_ID"),
		SecretKey: getenv("AWS_SECRET_ACCESS_KEY"),
		Session:   getenv("AWS_SESSION_TOKEN"),
	}
	cfg.PathStyle = cfg.Endpoint != ""
	if v := getenv("LINEAGE_STORAGE_PATH_STYLE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return cfg, fmt.Errorf("LINEAGE_STORAGE_PATH_STYLE must be true or false, got %q", v)
		}
		cfg.PathStyle = b
	}
	if (cfg.AccessKey == "") != (cfg.SecretKey == "") {
		return cfg, fmt.Errorf("set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither (an instance role)")
	}
	return cfg, nil
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// Open opens the store a storage URL names: the local folder of dataDir for "", a
// bucket configured from getenv (S3FromEnv) for s3://…, checked to exist.
func Open(ctx context.Context, raw, dataDir string, getenv func(string) string) (Store, error) {
	loc, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	if loc.Bucket == "" {
		return NewLocal(LocalDir(dataDir)), nil
	}
	cfg, err := S3FromEnv(loc, getenv)
	if err != nil {
		return nil, err
	}
	s, err := NewS3(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.Check(ctx); err != nil {
		return nil, err
	}
	return s, nil
}
