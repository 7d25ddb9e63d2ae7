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

	"lineage/internal/store"
)

// Config is the whole configuration of a Lineage process.
type Config struct {
	Addr        string // listen address of the front door
	DataDir     string // SQLite database, files, mail
	DatabaseURL string // postgres://… selects PostgreSQL
	ContentAPI  string // Prismic v2 endpoint the web app reads; empty = our own
	PublicURL   string // public origin, e.g. https://lineage.example.org
	WebDir      string // the React Router app (web/), holding build/ and node_modules/
	Demo        bool   // load the demo set into an empty store
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
		c.PublicURL = env("LINEAGE_PUBLIC_URL", "http://localhost:8080")
		return c, c.validate()
	}
}

// ServeFlags registers the flags of `lineage serve`.
func ServeFlags(fs *flag.FlagSet) func() (Config, error) {
	var addr, web string
	var demo bool
	fs.StringVar(&addr, "addr", env("LINEAGE_ADDR", ":8080"), "listen address; env LINEAGE_ADDR")
	fs.StringVar(&web, "web", env("LINEAGE_WEB_DIR", "web"), "directory of the web app (with build/ and node_modules/); env LINEAGE_WEB_DIR")
	fs.BoolVar(&demo, "demo", false, "load the demo content into an empty store")
	data := DataFlags(fs)
	return func() (Config, error) {
		c, err := data()
		if err != nil {
			return c, err
		}
		c.Addr, c.WebDir, c.Demo = addr, web, demo
		c.ContentAPI = os.Getenv("LINEAGE_CONTENT_API")
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
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("LINEAGE_PUBLIC_URL must be an absolute http(s) URL, got %q", c.PublicURL)
	}
	if c.ContentAPI != "" {
		if u, err := url.Parse(c.ContentAPI); err != nil || u.Host == "" {
			return fmt.Errorf("LINEAGE_CONTENT_API must be an absolute URL, got %q", c.ContentAPI)
		}
	}
	if c.WebDir != "" {
		abs, err := filepath.Abs(c.WebDir)
		if err == nil {
			c.WebDir = abs
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
