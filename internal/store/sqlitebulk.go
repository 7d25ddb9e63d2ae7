package store

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLiteBulk writes rows through SQLite's own prepare/bind/step/reset on one
// connection, for the large imports (research records, family trees).
//
// The modernc driver compiles every statement afresh on each Exec (it has no
// statement cache), so through database/sql the cheapest bulk insert is a multi-row
// INSERT of literals, and SQLite then spends a large part of an import parsing and
// compiling those statements. Here each statement is compiled once and every row is
// only bound and stepped: about three times fewer CPU cycles per row
// (docs/decisions/005-sqlite-import-statements.md).
//
// The driver does not export its connection handle, so NewSQLiteBulk reads it from
// the driver's connection by reflection, checking field names and types, and returns
// nil when the driver has another shape: callers then write literal INSERTs (slower,
// same result). TestSQLiteBulk fails when a driver upgrade changes that shape.
//
// A SQLiteBulk belongs to one goroutine; callers that share the connection with
// database/sql hold its lock (sql.Conn.Raw) around Exec.
type SQLiteBulk struct {
	db    uintptr // sqlite3*
	tls   *libc.TLS
	stmts map[string]uintptr
	buf   uintptr // texts of the row being bound (SQLITE_STATIC)
	cap   int
}

// ErrNoTransaction is Exec's refusal to write rows that would commit on their own.
var ErrNoTransaction = errors.New("no transaction is open")

var (
	bulkTLSType     = reflect.TypeOf((*libc.TLS)(nil))
	bulkUintptrType = reflect.TypeOf(uintptr(0))
)

// NewSQLiteBulk returns a bulk writer on conn's SQLite connection, or nil when conn is
// not a modernc SQLite connection of the shape it knows.
func NewSQLiteBulk(conn *sql.Conn) *SQLiteBulk {
	var b *SQLiteBulk
	_ = conn.Raw(func(dc any) error {
		if db, tls, ok := sqliteHandle(dc); ok {
			b = &SQLiteBulk{db: db, tls: tls, stmts: map[string]uintptr{}}
		}
		return nil
	})
	if b != nil {
		b.grow(1 << 16)
	}
	return b
}

func (b *SQLiteBulk) grow(n int) {
	if n <= b.cap {
		return
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
	}
	n = max(n, 2*b.cap)
	b.buf = libc.Xmalloc(b.tls, libc.Tsize_t(n))
	if b.buf == 0 {
		panic("store: out of C memory")
	}
	b.cap = n
}

func (b *SQLiteBulk) errmsg(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errmsg(b.tls, b.db))
	if msg == "" {
		msg = libc.GoString(sqlite3.Xsqlite3_errstr(b.tls, rc))
	}
	return fmt.Errorf("%s (%d)", msg, rc)
}

func (b *SQLiteBulk) prepare(query string) (uintptr, error) {
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
	st := *(*uintptr)(cmem(pp))
	b.stmts[query] = st
	return st, nil
}

// InTransaction reports whether the connection is inside a transaction.
func (b *SQLiteBulk) InTransaction() bool {
	return sqlite3.Xsqlite3_get_autocommit(b.tls, b.db) == 0
}

// Exec runs query (one ? per value) once for each row, compiling it the first time.
// Values are nil, int, int64 or string. It refuses (ErrNoTransaction) when no
// transaction is open: rows written then would stay even if the import failed.
func (b *SQLiteBulk) Exec(query string, rows [][]any) error {
	return b.unlocked(func() error { return b.exec(query, rows) })
}

func (b *SQLiteBulk) exec(query string, rows [][]any) error {
	if !b.InTransaction() {
		return ErrNoTransaction
	}
	st, err := b.prepare(query)
	if err != nil {
		return err
	}
	for _, r := range rows {
		need := 0
		for _, v := range r {
			if s, ok := v.(string); ok {
				need += len(s)
			}
		}
		b.grow(need + 1)
		off := uintptr(0)
		for i, v := range r {
			var rc int32
			switch x := v.(type) {
			case nil:
				rc = sqlite3.Xsqlite3_bind_null(b.tls, st, int32(i+1))
			case int:
				rc = sqlite3.Xsqlite3_bind_int64(b.tls, st, int32(i+1), int64(x))
			case int64:
				rc = sqlite3.Xsqlite3_bind_int64(b.tls, st, int32(i+1), x)
			case string:
				p := b.buf + off
				copy(unsafe.Slice((*byte)(cmem(p)), len(x)), x)
				off += uintptr(len(x))
				// SQLITE_STATIC: the text stays in buf until the row is stepped.
				rc = sqlite3.Xsqlite3_bind_text(b.tls, st, int32(i+1), p, int32(len(x)), 0)
			default:
				sqlite3.Xsqlite3_reset(b.tls, st)
				return fmt.Errorf("cannot bind %T", v)
			}
			if err := b.bound(st, rc); err != nil {
				return err
			}
		}
		if err := b.step(st); err != nil {
			return err
		}
	}
	return nil
}

// bound checks a bind's result code, resetting st after a failure.
func (b *SQLiteBulk) bound(st uintptr, rc int32) error {
	if rc == sqlite3.SQLITE_OK {
		return nil
	}
	sqlite3.Xsqlite3_reset(b.tls, st)
	return b.errmsg(rc)
}

// step runs the bound statement st to its end and resets it for the next row.
func (b *SQLiteBulk) step(st uintptr) error {
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
func (b *SQLiteBulk) ExecInts(query string, args []int64) error {
	return b.unlocked(func() error { return b.execInts(query, args) })
}

func (b *SQLiteBulk) execInts(query string, args []int64) error {
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
func (b *SQLiteBulk) QueryInts(query string, n int, fn func(row []int64) error) error {
	return b.unlocked(func() error { return b.queryInts(query, n, fn) })
}

func (b *SQLiteBulk) queryInts(query string, n int, fn func(row []int64) error) error {
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
// column read) enters and leaves the connection's own recursive mutex: a sixth of
// the CPU of writing the search tables. A SQLiteBulk is used by one goroutine that
// holds the connection's database/sql lock (see the type), so nothing else can call
// into the connection meanwhile, and SQLite skips a NULL mutex; the pointer is put
// back before unlocked returns. The connection's other locks (the page cache's, the
// database file's) are untouched.
func (b *SQLiteBulk) unlocked(fn func() error) error {
	db := (*sqlite3.Tsqlite3)(cmem(b.db))
	mu := db.Fmutex
	db.Fmutex = 0
	defer func() { db.Fmutex = mu }()
	return fn()
}

// Close finalizes the statements and frees the buffer; the connection stays open.
func (b *SQLiteBulk) Close() {
	for q, st := range b.stmts {
		sqlite3.Xsqlite3_finalize(b.tls, st)
		delete(b.stmts, q)
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
		b.buf, b.cap = 0, 0
	}
}

// InsertSQL is the one-row INSERT of cols into table that a bulk writer compiles;
// verb is "INSERT", "INSERT OR FAIL", "INSERT OR IGNORE"….
func InsertSQL(verb, table string, cols []string) string {
	return InsertRowsSQL(verb, table, cols, 1)
}

// InsertRowsSQL is InsertSQL for n rows in one statement, whose parameters are the
// rows' values one row after another: SQLite then opens the table's cursors once for
// the n rows instead of once a row.
func InsertRowsSQL(verb, table string, cols []string, n int) string {
	row := "(" + Placeholders(len(cols)) + ")"
	return verb + " INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// cmem turns an address of C memory (the libc allocator's, outside the Go heap) into a
// pointer.
func cmem(p uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), p) }
