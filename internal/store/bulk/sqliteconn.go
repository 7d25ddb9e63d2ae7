package bulk

import (
	"database/sql"
	"errors"
	"fmt"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	"lineage/internal/store/internal/sqlitehandle"
)

// SQLiteConn writes rows through SQLite's own prepare/bind/step/reset on one
// connection: the engine of the SQLite Writer, and what SQLite-only bulk jobs (the
// research search tables) use directly.
//
// The modernc driver compiles every statement afresh on each Exec (it has no
// statement cache), so through database/sql the cheapest bulk insert is a multi-row
// INSERT of literals, and SQLite then spends a large part of an import parsing and
// compiling those statements. Here each statement is compiled once and every row is
// only bound and stepped (docs/decisions/005-sqlite-import-statements.md; figures in
// 012-one-bulk-writer.md).
//
// The driver does not export its connection handle, so NewSQLiteConn reads it from
// the driver's connection (internal/store/internal/sqlitehandle) and returns nil when
// the driver has another shape: the Writer then writes literal INSERTs (slower, same
// result). TestSQLiteConn fails when a driver upgrade changes that shape.
//
// A SQLiteConn belongs to one goroutine; callers that share the connection with
// database/sql hold its lock (sql.Conn.Raw) around Exec.
type SQLiteConn struct {
	db    uintptr // sqlite3*
	tls   *libc.TLS
	stmts map[string]uintptr
	buf   uintptr // texts of the row being bound (SQLITE_STATIC)
	cap   int
	kept  bool // with the connection (NewSQLiteConn)
}

// ErrNoTransaction is Exec's refusal to write rows that would commit on their own.
var ErrNoTransaction = errors.New("no transaction is open")

// NewSQLiteConn returns compiled statements on conn's SQLite connection, or nil when
// conn is not a modernc SQLite connection of the shape it knows.
//
// On a connection that store opened, the SQLiteConn is kept with the connection
// (Close then keeps a few statements compiled for the next job on it): a small
// import, thousands a second under FuzzImport, would otherwise compile its INSERTs
// every time.
func NewSQLiteConn(conn *sql.Conn) *SQLiteConn {
	var b *SQLiteConn
	_ = conn.Raw(func(dc any) error {
		db, tls, ok := sqlitehandle.Of(dc)
		if !ok {
			return nil
		}
		mk := func() *SQLiteConn { return &SQLiteConn{db: db, tls: tls, stmts: map[string]uintptr{}} }
		if k, ok := dc.(keeper); ok {
			b = k.Keep(sqliteConnKey{}, func() (any, func()) {
				b := mk()
				b.kept = true
				return b, b.free
			}).(*SQLiteConn)
		} else {
			b = mk()
		}
		return nil
	})
	return b
}

// keeper is store's connection, which keeps a value for as long as it is open.
type keeper interface {
	Keep(key any, mk func() (v any, close func())) any
}

type sqliteConnKey struct{}

// A kept SQLiteConn keeps at most keptStmts statements and a text buffer of
// keptBuf bytes when it is closed (a bulk job that made more, such as the search
// tables' build, frees them).
const (
	keptStmts = 32
	keptBuf   = 1 << 20
)

func (b *SQLiteConn) grow(n int) {
	if n <= b.cap {
		return
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
	}
	n = max(n, 2*b.cap, 1<<16)
	b.buf = libc.Xmalloc(b.tls, libc.Tsize_t(n))
	if b.buf == 0 {
		panic("bulk: out of C memory")
	}
	b.cap = n
}

func (b *SQLiteConn) errmsg(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errmsg(b.tls, b.db))
	if msg == "" {
		msg = libc.GoString(sqlite3.Xsqlite3_errstr(b.tls, rc))
	}
	return fmt.Errorf("%s (%d)", msg, rc)
}

func (b *SQLiteConn) prepare(query string) (uintptr, error) {
	if st, ok := b.stmts[query]; ok {
		return st, nil
	}
	q, err := libc.CString(query)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(b.tls, q)
	pp := libc.Xmalloc(b.tls, 8)
	defer libc.Xfree(b.tls, pp)
	if rc := sqlite3.Xsqlite3_prepare_v2(b.tls, b.db, q, -1, pp, 0); rc != sqlite3.SQLITE_OK {
		return 0, b.errmsg(rc)
	}
	st := *(*uintptr)(sqlitehandle.Mem(pp))
	b.stmts[query] = st
	return st, nil
}

// InTransaction reports whether the connection is inside a transaction.
func (b *SQLiteConn) InTransaction() bool {
	return sqlite3.Xsqlite3_get_autocommit(b.tls, b.db) == 0
}

// Exec runs query (one ? per value) once for each row, compiling it the first time.
// Values are nil, int, int64 or string; a NUL in a string is stored as U+FFFD. It
// refuses (ErrNoTransaction) when no transaction is open: rows written then would
// stay even if the import failed.
func (b *SQLiteConn) Exec(query string, rows [][]any) error {
	return b.unlocked(func() error { return b.execGroups(query, rows, 1) })
}

// execGroups runs query once for each per rows, binding their values one row after
// another (a multi-row INSERT of per rows); len(rows) is a multiple of per.
func (b *SQLiteConn) execGroups(query string, rows [][]any, per int) error {
	if !b.InTransaction() {
		return ErrNoTransaction
	}
	st, err := b.prepare(query)
	if err != nil {
		return err
	}
	for g := 0; g+per <= len(rows); g += per {
		group := rows[g : g+per]
		need := 0
		for _, r := range group {
			for _, v := range r {
				if s, ok := v.(string); ok {
					need += len(cleanText(s))
				}
			}
		}
		b.grow(need + 1)
		off := uintptr(0)
		i := int32(0)
		for _, r := range group {
			for _, v := range r {
				i++
				var rc int32
				switch x := v.(type) {
				case nil:
					rc = sqlite3.Xsqlite3_bind_null(b.tls, st, i)
				case int:
					rc = sqlite3.Xsqlite3_bind_int64(b.tls, st, i, int64(x))
				case int64:
					rc = sqlite3.Xsqlite3_bind_int64(b.tls, st, i, x)
				case string:
					x = cleanText(x)
					p := b.buf + off
					copy(unsafe.Slice((*byte)(sqlitehandle.Mem(p)), len(x)), x)
					off += uintptr(len(x))
					// SQLITE_STATIC: the text stays in buf until the row is stepped.
					rc = sqlite3.Xsqlite3_bind_text(b.tls, st, i, p, int32(len(x)), 0)
				default:
					sqlite3.Xsqlite3_reset(b.tls, st)
					return fmt.Errorf("cannot bind %T", v)
				}
				if err := b.bound(st, rc); err != nil {
					return err
				}
			}
		}
		if err := b.step(st); err != nil {
			return err
		}
	}
	return nil
}

// bound checks a bind's result code, resetting st after a failure.
func (b *SQLiteConn) bound(st uintptr, rc int32) error {
	if rc == sqlite3.SQLITE_OK {
		return nil
	}
	sqlite3.Xsqlite3_reset(b.tls, st)
	return b.errmsg(rc)
}

// step runs the bound statement st to its end and resets it for the next row.
func (b *SQLiteConn) step(st uintptr) error {
	rc := sqlite3.Xsqlite3_step(b.tls, st)
	if rc != sqlite3.SQLITE_DONE && rc != sqlite3.SQLITE_ROW {
		err := b.errmsg(rc)
		sqlite3.Xsqlite3_reset(b.tls, st)
		return err
	}
	if rc := sqlite3.Xsqlite3_reset(b.tls, st); rc != sqlite3.SQLITE_OK {
		return b.errmsg(rc)
	}
	return nil
}

// ExecInts runs query once with args as its integer parameters, compiling it the
// first time: the bulk writer of rows that are all integers (a multi-row INSERT of
// the search tables), with no boxing of each value. Like Exec it refuses to run
// outside a transaction.
func (b *SQLiteConn) ExecInts(query string, args []int64) error {
	return b.unlocked(func() error { return b.execInts(query, args) })
}

func (b *SQLiteConn) execInts(query string, args []int64) error {
	if !b.InTransaction() {
		return ErrNoTransaction
	}
	st, err := b.prepare(query)
	if err != nil {
		return err
	}
	for i, v := range args {
		if err := b.bound(st, sqlite3.Xsqlite3_bind_int64(b.tls, st, int32(i+1), v)); err != nil {
			return err
		}
	}
	return b.step(st)
}

// QueryInts runs query (no parameters) and calls fn with each row's first n columns
// read as integers (NULL reads as 0); fn must not keep the slice. An error from fn
// stops the query and is returned.
func (b *SQLiteConn) QueryInts(query string, n int, fn func(row []int64) error) error {
	return b.unlocked(func() error { return b.queryInts(query, n, fn) })
}

func (b *SQLiteConn) queryInts(query string, n int, fn func(row []int64) error) error {
	st, err := b.prepare(query)
	if err != nil {
		return err
	}
	defer sqlite3.Xsqlite3_reset(b.tls, st)
	if got := int(sqlite3.Xsqlite3_column_count(b.tls, st)); got < n {
		return fmt.Errorf("the query has %d columns, not %d", got, n)
	}
	row := make([]int64, n)
	for {
		switch rc := sqlite3.Xsqlite3_step(b.tls, st); rc {
		case sqlite3.SQLITE_ROW:
			for i := range row {
				row[i] = sqlite3.Xsqlite3_column_int64(b.tls, st, int32(i))
			}
			if err := fn(row); err != nil {
				return err
			}
		case sqlite3.SQLITE_DONE:
			return nil
		default:
			return b.errmsg(rc)
		}
	}
}

// unlocked runs fn with the connection's mutex set aside. The driver opens every
// connection in SQLite's serialized mode, in which each call (every bind, step and
// column read) enters and leaves the connection's own recursive mutex, a cost worth
// skipping when writing millions of rows. A SQLiteConn is used by one goroutine that
// holds the connection's database/sql lock (see the type), so nothing else can call
// into the connection meanwhile, and SQLite skips a NULL mutex; the pointer is put
// back before unlocked returns. The connection's other locks (the page cache's, the
// database file's) are untouched.
func (b *SQLiteConn) unlocked(fn func() error) error {
	db := (*sqlite3.Tsqlite3)(sqlitehandle.Mem(b.db))
	mu := db.Fmutex
	db.Fmutex = 0
	defer func() { db.Fmutex = mu }()
	return fn()
}

// Close finalizes the statements and frees the buffer; the connection stays open.
//
// A SQLiteConn kept with its connection keeps its statements and buffer for the next
// job on the connection unless they have grown past keptStmts and keptBuf.
func (b *SQLiteConn) Close() {
	if b.kept && len(b.stmts) <= keptStmts && b.cap <= keptBuf {
		return
	}
	b.free()
}

// free finalizes the statements and frees the buffer.
func (b *SQLiteConn) free() {
	for q, st := range b.stmts {
		sqlite3.Xsqlite3_finalize(b.tls, st)
		delete(b.stmts, q)
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
		b.buf, b.cap = 0, 0
	}
}
