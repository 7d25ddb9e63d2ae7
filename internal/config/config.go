// Package config turns command-line flags and LINEAGE_* environment variables into one
// Config value. Flags win over the environment; the environment wins over defaults.
// Every command that touches data uses the same --data / LINEAGE_DATABASE_URL pair, so
// a command-line import works on the store a running server uses.
package config

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"lineage/internal/blob"
	"lineage/internal/store"
)

// Config is the whole configuration of a Lineage process.
type Config struct {
	Addr        string // listen address of the front door
	DataDir     string // SQLite database, files, mail
	DatabaseURL string // postgres://… selects PostgreSQL
	// StorageURL is where files beside the database live (internal/blob): empty for
	// DataDir/files, s3://bucket/prefix for a bucket (LINEAGE_STORAGE_URL).
	StorageURL string
	ContentAPI string // Prismic v2 endpoint the web app reads; empty = our own
	// ContentToken, when set, makes our content API private (access_token required) and
	// is what the web app sends to whichever content API it reads.
	ContentToken string
	PublicURL    string // public origin, e.g. https://lineage.example.org
	WebDir       string // the React Router app (web/), holding build/ and node_modules/
	Demo         bool   // load the demo set into an empty store
	DemoDir      string // where the demo set lives (demo/ of the repository)
}

// Store returns the options that open this configuration's database.
func (c Config) Store() store.Options {
	return store.Options{DataDir: c.DataDir, DatabaseURL: c.DatabaseURL}
}

// FlagSet registers the common data flags (--data) on fs and returns a function that
// completes the Config from the environment once fs is parsed.
func DataFlags(fs *flag.FlagSet) func() (Config, error) {
	c := Config{}
	fs.StringVar(&c.DataDir, "data", env("LINEAGE_DATA", "data"), "data directory (SQLite database and files); env LINEAGE_DATA")
	return func() (Config, error) {
		c.DatabaseURL = os.Getenv("LINEAGE_DATABASE_URL")
		c.StorageURL = os.Getenv("LINEAGE_STORAGE_URL")
		c.PublicURL = env("LINEAGE_PUBLIC_URL", "http://localhost:8080")
		return c, c.validate()
	}
}

// ServeFlags registers the flags of `lineage serve`.
func ServeFlags(fs *flag.FlagSet) func() (Config, error) {
	var addr, web, demoDir string
	var demo bool
	fs.StringVar(&addr, "addr", env("LINEAGE_ADDR", ":8080"), "listen address; env LINEAGE_ADDR")
	fs.StringVar(&web, "web", env("LINEAGE_WEB_DIR", "web"), "directory of the web app (with build/ and node_modules/); env LINEAGE_WEB_DIR")
	fs.BoolVar(&demo, "demo", false, "load the demo content into an empty store")
	fs.StringVar(&demoDir, "demo-dir", env("LINEAGE_DEMO_DIR", "demo"), "directory of the demo set; env LINEAGE_DEMO_DIR")
	data := DataFlags(fs)
	return func() (Config, error) {
		c, err := data()
		if err != nil {
			return c, err
		}
		c.Addr, c.Demo = addr, demo
		// The SSR child runs in the web directory, so paths must not depend on ours.
		if c.WebDir, err = filepath.Abs(web); err != nil {
			return c, err
		}
		if c.DemoDir, err = filepath.Abs(demoDir); err != nil {
			return c, err
		}
		c.ContentAPI = os.Getenv("LINEAGE_CONTENT_API")
		c.ContentToken = os.Getenv("LINEAGE_CONTENT_TOKEN")
		if _, set := os.LookupEnv("LINEAGE_PUBLIC_URL"); !set {
			c.PublicURL = "http://" + displayHost(addr)
		}
		return c, c.validate()
	}
}

func (c Config) validate() error {
	if c.DatabaseURL != "" && !store.IsPostgresURL(c.DatabaseURL) {
		return fmt.Errorf("LINEAGE_DATABASE_URL must start with postgres:// (leave it unset for SQLite)")
	}
	if _, err := blob.ParseURL(c.StorageURL); err != nil {
		return err
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("LINEAGE_PUBLIC_URL must be an absolute http(s) URL, got %q", c.PublicURL)
	}
	if c.ContentAPI != "" {
		if u, err := url.Parse(c.ContentAPI); err != nil || u.Host == "" {
			return fmt.Errorf("LINEAGE_CONTENT_API must be an absolute URL, got %q", c.ContentAPI)
		}
	}
	return nil
}

// displayHost turns a listen address into the host a browser on this machine would use.
func displayHost(addr string) string {
	host, port, ok := strings.Cut(addr, ":")
	if !ok {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return host + ":" + port
}

func env(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}
