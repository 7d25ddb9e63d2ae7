package config

import (
	"flag"
	"strings"
	"testing"
)

func TestStorageURL(t *testing.T) {
	for _, c := range []struct {
		url string
		ok  bool
	}{
		{"", true},
		{"s3://lineage/site", true},
		{"s3://lineage", true},
		{"/srv/files", false},
		{"s3://Lineage", false},
		{"s3://key:secret@lineage/site", false},
	} {
		t.Setenv("LINEAGE_STORAGE_URL", c.url)
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		done := DataFlags(fs)
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		cfg, err := done()
		if (err == nil) != c.ok || (err == nil && cfg.StorageURL != c.url) || (err != nil && !strings.Contains(err.Error(), "LINEAGE_STORAGE_URL")) {
			t.Errorf("%q: %+v %v", c.url, cfg.StorageURL, err)
		}
	}
}
