// Package sqlitehandle reaches into the modernc SQLite driver for what it does not
// export: the sqlite3* handle and the TLS of a connection, which store's busy handler
// and store/bulk's compiled statements need to call SQLite's C API directly. It reads
// them by reflection, checking field names and types, and reports when the driver has
// another shape (store's TestBusyHandler and bulk's TestSQLiteConn fail then, and the
// callers fall back to what the driver offers).
//
// It is the one place outside the driver that knows the driver's private fields;
// keep every such read here.
package sqlitehandle

import (
	"database/sql/driver"
	"reflect"
	"unsafe"

	"modernc.org/libc"
)

var (
	tlsType     = reflect.TypeOf((*libc.TLS)(nil))
	uintptrType = reflect.TypeOf(uintptr(0))
)

// Of reads the sqlite3* handle and the TLS of a modernc driver connection (the value
// sql.Conn.Raw or a connection hook gives), or ok false when dc is something else.
func Of(dc any) (db uintptr, tls *libc.TLS, ok bool) {
	if w, ok := dc.(interface{ Unwrap() driver.Conn }); ok {
		dc = w.Unwrap() // store's statement cache
	}
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || v.Type().String() != "*sqlite.conn" {
		return 0, nil, false
	}
	e := v.Elem()
	dbf, tlsf := e.FieldByName("db"), e.FieldByName("tls")
	if !dbf.IsValid() || !tlsf.IsValid() || dbf.Type() != uintptrType || tlsf.Type() != tlsType {
		return 0, nil, false
	}
	db = *(*uintptr)(unsafe.Pointer(dbf.UnsafeAddr()))
	tls = *(**libc.TLS)(unsafe.Pointer(tlsf.UnsafeAddr()))
	return db, tls, db != 0 && tls != nil
}

// Mem turns an address of C memory (the libc allocator's, outside the Go heap) into a
// pointer.
func Mem(p uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), p) }
