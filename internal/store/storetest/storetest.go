// Package storetest runs the same test against SQLite and PostgreSQL.
//
// PostgreSQL comes from a throwaway cluster that this package starts with the machine's
// initdb and pg_ctl (Debian package "postgresql") in a temp directory on a free port;
// every test gets a database of its own. Set LINEAGE_TEST_DATABASE_URL to a server's
// URL to use that server instead. When neither is available the PostgreSQL half of a
// test fails, naming the package to install: it never skips silently.
//
// A package using Each must call storetest.Main from its TestMain so the cluster is
// stopped when the package's tests end.
package storetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lineage/internal/freeport"
	"lineage/internal/store"
	"lineage/internal/store/bulk"
)

// Main runs the package's tests and stops the PostgreSQL cluster afterwards.
func Main(m *testing.M) {
	code := m.Run()
	stopCluster()
	os.Exit(code)
}

// Each runs fn as two subtests, "sqlite" and "postgres", each with a fresh migrated
// database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite opens a fresh migrated SQLite database in a temp directory.
func SQLite(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), store.Options{DataDir: tb.TempDir()})
	if err != nil {
		tb.Fatalf("open sqlite: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// SQLiteConn opens a fresh SQLite database, runs ddl on one of its connections and
// returns that connection with a bulk.SQLiteConn on it (both closed at cleanup). It
// fails the test when the driver no longer has the shape NewSQLiteConn reads.
func SQLiteConn(tb testing.TB, ddl string) (*sql.Conn, *bulk.SQLiteConn) {
	tb.Helper()
	ctx := context.Background()
	conn, err := SQLite(tb).Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	b := bulk.NewSQLiteConn(conn)
	if b == nil {
		tb.Fatal("bulk.NewSQLiteConn: the driver's connection no longer has the expected fields; imports fall back to literal INSERTs")
	}
	tb.Cleanup(func() { b.Close() })
	if _, err := conn.ExecContext(ctx, ddl); err != nil {
		tb.Fatal(err)
	}
	return conn, b
}

// Postgres opens a fresh migrated database on the test cluster.
func Postgres(tb testing.TB) *store.DB {
	tb.Helper()
	url, err := NewPostgresDatabase()
	if err != nil {
		tb.Fatal(err)
	}
	db, err := store.Open(context.Background(), store.Options{DatabaseURL: url})
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

var (
	clusterOnce sync.Once
	clusterErr  error
	adminURL    string // URL of the cluster's postgres database
	baseURL     string // URL without a database name
	clusterDir  string
	pgCtl       string
	dbCounter   atomic.Int64
)

// NewPostgresDatabase creates an empty database on the test cluster (starting the
// cluster on first use) and returns its URL. Used by tests that start a whole server.
func NewPostgresDatabase() (string, error) {
	clusterOnce.Do(startCluster)
	if clusterErr != nil {
		return "", clusterErr
	}
	name := fmt.Sprintf("t%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, dbCounter.Add(1))
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		return "", fmt.Errorf("create test database: %w", err)
	}
	return baseURL + "/" + name + "?sslmode=disable", nil
}

func startCluster() {
	if u := os.Getenv("LINEAGE_TEST_DATABASE_URL"); u != "" {
		adminURL = u
		baseURL = u[:strings.LastIndex(u, "/")]
		return
	}
	initdb, ctl, err := findServerBinaries()
	if err != nil {
		clusterErr = err
		return
	}
	pgCtl = ctl
	dir, err := os.MkdirTemp("", "lineage-pg-")
	if err != nil {
		clusterErr = err
		return
	}
	clusterDir = dir
	port, err := freeport.Pick()
	if err != nil {
		clusterErr = err
		return
	}
	asUser, err := runAs(dir)
	if err != nil {
		clusterErr = err
		return
	}
	data := filepath.Join(dir, "data")
	if out, err := run(asUser, initdb, "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		clusterErr = fmt.Errorf("initdb: %v\n%s", err, out)
		return
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", port, dir)
	if out, err := run(asUser, pgCtl, "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		clusterErr = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
		return
	}
	baseURL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d", port)
	adminURL = baseURL + "/postgres?sslmode=disable"
}

func stopCluster() {
	if clusterDir == "" || pgCtl == "" {
		return
	}
	asUser, _ := runAs(clusterDir)
	run(asUser, pgCtl, "-D", filepath.Join(clusterDir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(clusterDir)
}

// findServerBinaries looks on PATH, then in Debian's versioned directories.
func findServerBinaries() (initdb, pgctl string, err error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if c, err := exec.LookPath("pg_ctl"); err == nil {
			return p, c, nil
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) > 0 {
		bin := filepath.Dir(matches[len(matches)-1])
		return filepath.Join(bin, "initdb"), filepath.Join(bin, "pg_ctl"), nil
	}
	return "", "", errors.New("PostgreSQL server binaries (initdb, pg_ctl) not found: install the Debian package 'postgresql' (apt-get install postgresql) or set LINEAGE_TEST_DATABASE_URL; the PostgreSQL store suite cannot run without them")
}

// runAs returns the user to run the server as: initdb refuses root, so as root the
// cluster runs as "postgres" in a directory that user owns.
func runAs(dir string) (string, error) {
	if os.Geteuid() != 0 {
		return "", nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return "", errors.New("running as root and there is no 'postgres' user to run initdb as: install the Debian package 'postgresql'")
	}
	var uid, gid int
	fmt.Sscan(u.Uid, &uid)
	fmt.Sscan(u.Gid, &gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return "", err
	}
	return "postgres", nil
}

func run(asUser, name string, args ...string) ([]byte, error) {
	var cmd *exec.Cmd
	if asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", asUser, "--", name}, args...)...)
	} else {
		cmd = exec.Command(name, args...)
	}
	cmd.Dir = os.TempDir()
	return cmd.CombinedOutput()
}
