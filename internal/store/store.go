package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
)

// Dialect names the SQL flavour of an open database.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// DB is an open, migrated database. It embeds *sql.DB, so domain packages use the
// usual database/sql methods; queries are written with `?` placeholders and passed
// through Rebind.
type DB struct {
	*sql.DB
	Dialect Dialect
	// Where describes the database for logs: a file path or a URL without password.
	Where string

	migrations string // the folder of its migrations under migrations/
	signIn     *DB    // SQLite: the sign-in state's own file (signin.go); nil on PostgreSQL
}

// Options selects the database. DatabaseURL wins when it is a postgres:// URL;
// otherwise SQLite opens DataDir/lineage.db, and DataDir/signin.db for SignIn.
type Options struct {
	DataDir     string
	DatabaseURL string
	// SkipMigrate opens without applying migrations (used by `lineage migrate` to report).
	SkipMigrate bool
}

// IsPostgresURL reports whether u selects PostgreSQL.
func IsPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// Open connects to the database selected by opts and applies pending migrations.
func Open(ctx context.Context, opts Options) (*DB, error) {
	var db *DB
	var err error
	switch {
	case IsPostgresURL(opts.DatabaseURL):
		db, err = openPostgres(ctx, opts.DatabaseURL)
	case opts.DatabaseURL != "":
		return nil, fmt.Errorf("store: LINEAGE_DATABASE_URL must be a postgres:// URL (got %q); leave it empty for SQLite in the data directory", redact(opts.DatabaseURL))
	default:
		db, err = openSQLite(ctx, opts.DataDir)
	}
	if err != nil {
		return nil, err
	}
	if !opts.SkipMigrate {
		if err := db.Migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

func openSQLite(ctx context.Context, dataDir string) (*DB, error) {
	if dataDir == "" {
		return nil, errors.New("store: no data directory given")
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("store: create data directory: %w", err)
	}
	setupSQLiteMemory()
	installBusyHandler()
	db, err := openSQLiteFile(ctx, filepath.Join(dataDir, "lineage.db"), "sqlite")
	if err != nil {
		return nil, err
	}
	db.signIn, err = openSQLiteFile(ctx, filepath.Join(dataDir, signInFile), "sqlite-signin")
	if err != nil {
		db.DB.Close()
		return nil, err
	}
	return db, nil
}

// openSQLiteFile opens one SQLite database file whose migrations are in
// migrations/<migrations>.
func openSQLiteFile(ctx context.Context, path, migrations string) (*DB, error) {
	// busy_timeout makes a writer wait for another process's lock (a CLI import while a
	// server runs) instead of failing with SQLITE_BUSY at once; installBusyHandler
	// replaces its handler with one that tries more often (sqlitebusy.go).
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)" +
		"&_pragma=foreign_keys(ON)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	sqldb := sql.OpenDB(sqliteConnector{connector}) // keeps statements compiled (sqlitestmts.go)
	// One writer at a time is SQLite's model; a small pool keeps readers concurrent in WAL.
	// Every connection stays open when idle, with the statements it keeps compiled.
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &DB{DB: sqldb, Dialect: SQLite, Where: path, migrations: migrations}, nil
}

func openPostgres(ctx context.Context, url string) (*DB, error) {
	sqldb, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", redact(url), err)
	}
	sqldb.SetMaxOpenConns(20)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: connect %s: %w", redact(url), err)
	}
	return &DB{DB: sqldb, Dialect: Postgres, Where: redact(url), migrations: "postgres"}, nil
}

// redact hides a password in a database URL.
func redact(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return u
	}
	cred := u[scheme+3 : at]
	if i := strings.Index(cred, ":"); i >= 0 {
		return u[:scheme+3] + cred[:i] + ":***" + u[at:]
	}
	return u
}

func (db *DB) migrationsFS() (fs.FS, error) {
	return fs.Sub(migrations, "migrations/"+db.migrations)
}

func (db *DB) gooseProvider() (*goose.Provider, error) {
	fsys, err := db.migrationsFS()
	if err != nil {
		return nil, err
	}
	gd := goose.DialectSQLite3
	if db.Dialect == Postgres {
		gd = goose.DialectPostgres
	}
	return goose.NewProvider(gd, db.DB, fsys)
}

// Migrate applies every pending migration of the database's dialect. It is safe to call
// from several processes at once (instances starting together on an empty database):
// they take the "migrate" lock in turn (Exclusive), and the ones after the first find
// nothing left to do. Goose alone does not serialise them: its version table, and the
// first migration's tables, are created by whoever gets there first.
func (db *DB) Migrate(ctx context.Context) error {
	return db.migrating(ctx, func(ctx context.Context, p *goose.Provider) error {
		if _, err := p.Up(ctx); err != nil {
			return fmt.Errorf("store: migrate %s: %w", db.Dialect, err)
		}
		return nil
	})
}

// MigrateTo moves the schema up or down to a version (tests of a migration's data
// conversion; operators use Migrate).
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	return db.migrating(ctx, func(ctx context.Context, p *goose.Provider) error {
		cur, err := p.GetDBVersion(ctx)
		if err != nil {
			return fmt.Errorf("store: migrate %s: %w", db.Dialect, err)
		}
		if version < cur {
			_, err = p.DownTo(ctx, version)
		} else {
			_, err = p.UpTo(ctx, version)
		}
		if err != nil {
			return fmt.Errorf("store: migrate %s to %d: %w", db.Dialect, version, err)
		}
		return nil
	})
}

// migrating runs fn with the dialect's migrations, holding the "migrate" lock (see
// Migrate) and with signin.db's schema brought up to date first.
func (db *DB) migrating(ctx context.Context, fn func(ctx context.Context, p *goose.Provider) error) error {
	p, err := db.gooseProvider()
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	return db.Exclusive(ctx, "migrate", func(ctx context.Context) error {
		if err := db.migrateSignIn(ctx); err != nil {
			return err
		}
		return fn(ctx, p)
	})
}

// MigrationStatus lists each migration with whether it is applied.
func (db *DB) MigrationStatus(ctx context.Context) ([]string, error) {
	p, err := db.gooseProvider()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(st))
	for _, s := range st {
		out = append(out, fmt.Sprintf("%-8s %s", s.State, filepath.Base(s.Source.Path)))
	}
	if db.signIn != nil {
		more, err := db.signIn.MigrationStatus(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range more {
			out = append(out, m+" ("+signInFile+")")
		}
	}
	return out, nil
}

// Rebind turns `?` placeholders into the dialect's own ($1, $2 … for PostgreSQL).
// Question marks inside single-quoted string literals are left alone.
func (db *DB) Rebind(query string) string {
	if db.Dialect != Postgres {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n, inString := 0, false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			inString = !inString
			b.WriteByte(c)
		case c == '?' && !inString:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// OctetLength is the dialect's SQL for the size in bytes of the text expr.
func (db *DB) OctetLength(expr string) string {
	if db.Dialect == Postgres {
		return `octet_length(` + expr + `)`
	}
	return `length(CAST(` + expr + ` AS BLOB))`
}

// Secret returns the installation's random key called name, creating it on first use.
// It lives in the settings table, so every instance signs with the same key. q is the
// database or the caller's transaction (on SQLite a transaction's connection is the
// only one that may write while it is open).
func (db *DB) Secret(ctx context.Context, q interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, name string) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	if _, err := q.ExecContext(ctx, db.Rebind(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`),
		name, base64.RawURLEncoding.EncodeToString(b)); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	var v string
	if err := q.QueryRowContext(ctx, db.Rebind(`SELECT value FROM settings WHERE key = ?`), name).Scan(&v); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	key, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("store: the secret %s in settings is damaged", name)
	}
	return key, nil
}

// KeptSecret is a room's copy of one key of Secret, read once and then kept.
type KeptSecret struct {
	mu  sync.Mutex
	key []byte
}

// Get returns the key called name (Secret), read through q the first time. A key read
// inside a transaction is not kept: if that transaction rolls back, a key it made was
// never stored, and what was signed with it would stop verifying once the key is read
// again.
func (k *KeptSecret) Get(ctx context.Context, db *DB, q Querier, name string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	key, err := db.Secret(ctx, q, name)
	if err != nil {
		return nil, err
	}
	if _, inTx := q.(*sql.Tx); !inTx {
		k.key = key
	}
	return key, nil
}

// ForUpdate is the clause that locks the rows a SELECT reads until the transaction
// ends: "FOR UPDATE" (of the given table aliases, when any) on PostgreSQL, nothing on
// SQLite, whose write transactions already hold the database's one write lock.
func (db *DB) ForUpdate(of ...string) string {
	if db.Dialect != Postgres {
		return ""
	}
	if len(of) > 0 {
		return ` FOR UPDATE OF ` + strings.Join(of, ", ")
	}
	return ` FOR UPDATE`
}

// InTx runs fn in a transaction, committing if it returns nil and rolling back otherwise.
func (db *DB) InTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return InTxOn(ctx, db.DB, fn)
}

// TxBeginner is what can start a transaction: a *sql.DB, or one *sql.Conn taken from
// the pool (an import that keeps its connection from batch to batch).
type TxBeginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// InTxOn is InTx on b: fn's transaction commits if it returns nil and rolls back
// otherwise, or if it panics.
func InTxOn(ctx context.Context, b TxBeginner, fn func(tx *sql.Tx) error) (err error) {
	tx, err := b.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Ping reports whether the database answers; /readyz uses it.
func (db *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if db.signIn != nil {
		if err := db.signIn.PingContext(ctx); err != nil {
			return err
		}
	}
	return db.PingContext(ctx)
}

// Close closes the database (and on SQLite the sign-in state's file with it).
func (db *DB) Close() error {
	if db.signIn != nil {
		db.signIn.Close()
	}
	return db.DB.Close()
}

// IsUniqueViolation reports whether err is either driver's unique-constraint error: the
// one way rooms tell "that already exists" from a failure.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") ||
		strings.Contains(msg, "duplicate key value")
}
