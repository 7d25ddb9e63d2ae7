package trees

import (
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteBulk is the import's row writer on SQLite: each INSERT is compiled once with
// sqlite3_prepare_v2 on the connection that holds the import's transaction, and every
// row is only bound, stepped and reset. The modernc driver compiles SQL afresh on each
// Exec, so literal multi-row INSERTs spent about a quarter of a large import in
// SQLite's parser (docs/benchmarks-gedcom.md). The same technique as research's
// record import (docs/decisions/005-sqlite-import-statements.md); the two packages
// keep their own copies so that neither depends on the other's internals.
//
// The driver does not export its connection handle: bulkOf reads it by reflection,
// checking the field names and types, and returns nil when the driver has another
// shape; the import then writes literal INSERTs (slower, same result).
type sqliteBulk struct {
	db    uintptr // sqlite3*
	tls   *libc.TLS
	stmts map[string]uintptr
	buf   uintptr // the texts of the row being bound (SQLITE_STATIC)
	cap   int
}

var (
	bulkTLSType     = reflect.TypeOf((*libc.TLS)(nil))
	bulkUintptrType = reflect.TypeOf(uintptr(0))
)

// bulkOf returns a bulk writer on conn's SQLite connection, or nil.
func bulkOf(conn *sql.Conn) *sqliteBulk {
	var b *sqliteBulk
	_ = conn.Raw(func(dc any) error {
		v := reflect.ValueOf(dc)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || v.Type().String() != "*sqlite.conn" {
			return nil
		}
		e := v.Elem()
		dbf, tlsf := e.FieldByName("db"), e.FieldByName("tls")
		if !dbf.IsValid() || !tlsf.IsValid() || dbf.Type() != bulkUintptrType || tlsf.Type() != bulkTLSType {
			return nil
		}
		db := *(*uintptr)(unsafe.Pointer(dbf.UnsafeAddr()))
		tls := *(**libc.TLS)(unsafe.Pointer(tlsf.UnsafeAddr()))
		if db != 0 && tls != nil {
			b = &sqliteBulk{db: db, tls: tls, stmts: map[string]uintptr{}}
		}
		return nil
	})
	if b != nil {
		b.grow(1 << 16)
	}
	return b
}

func (b *sqliteBulk) grow(n int) {
	if n <= b.cap {
		return
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
	}
	n = max(n, 2*b.cap)
	b.buf = libc.Xmalloc(b.tls, libc.Tsize_t(n))
	if b.buf == 0 {
		panic("trees: out of C memory")
	}
	b.cap = n
}

func (b *sqliteBulk) errmsg(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errmsg(b.tls, b.db))
	if msg == "" {
		msg = libc.GoString(sqlite3.Xsqlite3_errstr(b.tls, rc))
	}
	return fmt.Errorf("%s (%d)", msg, rc)
}

func (b *sqliteBulk) prepare(query string) (uintptr, error) {
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
	st := *(*uintptr)(bulkMem(pp))
	b.stmts[query] = st
	return st, nil
}

// insert writes rows into table (one value per column: nil, int, int64 or string;
// strings as cleanText makes them, like the literal INSERTs).
func (b *sqliteBulk) insert(table string, cols []string, rows [][]any, ignore bool) error {
	verb := "INSERT OR FAIL INTO "
	if ignore {
		verb = "INSERT OR IGNORE INTO "
	}
	if sqlite3.Xsqlite3_get_autocommit(b.tls, b.db) != 0 {
		// Never outside the import's transaction: rows written there would stay.
		return fmt.Errorf("insert into %s: no transaction is open", table)
	}
	st, err := b.prepare(verb + table + " (" + strings.Join(cols, ", ") + ") VALUES (" + placeholders(len(cols)) + ")")
	if err != nil {
		return fmt.Errorf("insert into %s: %w", table, err)
	}
	for _, r := range rows {
		need := 0
		for _, v := range r {
			if s, ok := v.(string); ok {
				need += len(s)
				if strings.IndexByte(s, 0) >= 0 { // cleanText: each NUL becomes U+FFFD
					need += 2 * strings.Count(s, "\x00")
				}
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
				x = cleanText(x)
				p := b.buf + off
				copy(unsafe.Slice((*byte)(bulkMem(p)), len(x)), x)
				off += uintptr(len(x))
				// SQLITE_STATIC: the text stays in buf until the row is stepped.
				rc = sqlite3.Xsqlite3_bind_text(b.tls, st, int32(i+1), p, int32(len(x)), 0)
			default:
				sqlite3.Xsqlite3_reset(b.tls, st)
				return fmt.Errorf("insert into %s: cannot bind %T", table, v)
			}
			if rc != sqlite3.SQLITE_OK {
				sqlite3.Xsqlite3_reset(b.tls, st)
				return fmt.Errorf("insert into %s: %w", table, b.errmsg(rc))
			}
		}
		rc := sqlite3.Xsqlite3_step(b.tls, st)
		if rc != sqlite3.SQLITE_DONE {
			err := b.errmsg(rc)
			sqlite3.Xsqlite3_reset(b.tls, st)
			return fmt.Errorf("insert into %s: %w", table, err)
		}
		if rc := sqlite3.Xsqlite3_reset(b.tls, st); rc != sqlite3.SQLITE_OK {
			return fmt.Errorf("insert into %s: %w", table, b.errmsg(rc))
		}
	}
	return nil
}

// close finalizes the statements and frees the buffer; the connection stays open.
func (b *sqliteBulk) close() {
	for q, st := range b.stmts {
		sqlite3.Xsqlite3_finalize(b.tls, st)
		delete(b.stmts, q)
	}
	if b.buf != 0 {
		libc.Xfree(b.tls, b.buf)
		b.buf, b.cap = 0, 0
	}
}

// bulkMem turns an address of C memory (the libc allocator's, outside the Go heap)
// into a pointer.
func bulkMem(p uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), p) }
