package store

import (
	"context"
	"database/sql/driver"
)

// Every SQLite connection that store opens keeps the statements it has run, compiled,
// and runs them again without compiling them: the driver compiles the SQL of every
// Exec and Query afresh (only a statement made with Prepare keeps its compiled
// form), and a page of the site or a small import runs the same few dozen statements
// each time, so compiling them was much of its cost (docs/decisions/012-one-bulk-writer.md).
//
// stmtConn wraps the driver's connection, as the driver documents for wrappers
// (sqlite.NewConnector): it forwards every optional interface of the driver's
// connections and unwraps (Unwrap) for what reads the driver's own connection
// (internal/sqlitehandle). A statement whose rows are still open is not shared: a
// query that needs it meanwhile compiles a statement of its own, closed with its
// rows. TestStatementCache checks the cache and that the driver's connection still
// has the interfaces forwarded.

// stmtCacheSize is how many statements a connection keeps; stmtCacheMaxSQL the
// longest SQL kept (longer texts are one-off: literal INSERTs, long IN lists).
const (
	stmtCacheSize   = 128
	stmtCacheMaxSQL = 2048
)

// sqliteConnector opens the driver's connections wrapped in stmtConn.
type sqliteConnector struct{ driver.Connector }

func (c sqliteConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newStmtConn(dc), nil
}

// sqliteConnIface are the interfaces that every connection of the driver has and
// that stmtConn forwards.
type sqliteConnIface interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type stmtConn struct {
	c     sqliteConnIface
	stmts map[string]*cachedStmt
	kept  map[any]keptValue
}

type keptValue struct {
	v     any
	close func()
}

type cachedStmt struct {
	st   driver.Stmt
	busy bool // its rows are open
}

// newStmtConn wraps dc, or returns it as it is when it lacks one of the interfaces
// forwarded (a driver of another shape: statements are then compiled every time).
func newStmtConn(dc driver.Conn) driver.Conn {
	c, ok := dc.(sqliteConnIface)
	if !ok {
		return dc
	}
	if _, ok := sampleStmt(c).(stmtIface); !ok {
		return dc
	}
	rows, err := c.QueryContext(context.Background(), "SELECT 1", nil)
	if err != nil {
		return dc
	}
	_, ok = rows.(sqliteRowsIface)
	rows.Close()
	if !ok {
		return dc
	}
	return &stmtConn{c: c, stmts: map[string]*cachedStmt{}}
}

// stmtIface is what a statement of the driver has and stmtConn uses.
type stmtIface interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// sampleStmt prepares a statement on c to see its type.
func sampleStmt(c sqliteConnIface) driver.Stmt {
	st, err := c.PrepareContext(context.Background(), "SELECT 1")
	if err != nil {
		return nil
	}
	defer st.Close()
	return st
}

// Unwrap is the driver's connection.
func (c *stmtConn) Unwrap() driver.Conn { return c.c }

func (c *stmtConn) Prepare(query string) (driver.Stmt, error) { return c.c.Prepare(query) }

func (c *stmtConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.c.PrepareContext(ctx, query)
}

func (c *stmtConn) Begin() (driver.Tx, error) { return c.c.Begin() }

func (c *stmtConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.c.BeginTx(ctx, opts)
}

func (c *stmtConn) Ping(ctx context.Context) error { return c.c.Ping(ctx) }

func (c *stmtConn) ResetSession(ctx context.Context) error { return c.c.ResetSession(ctx) }

func (c *stmtConn) IsValid() bool { return c.c.IsValid() }

// Keep returns the value kept on the connection under key, made by mk the first time;
// mk's close runs when the connection closes. It is how store/bulk keeps its compiled
// INSERTs from one import to the next on a connection (bulk.NewSQLiteConn).
func (c *stmtConn) Keep(key any, mk func() (v any, close func())) any {
	if k, ok := c.kept[key]; ok {
		return k.v
	}
	v, closeFn := mk()
	if c.kept == nil {
		c.kept = map[any]keptValue{}
	}
	c.kept[key] = keptValue{v, closeFn}
	return v
}

// Close finalizes the kept statements and closes the connection.
func (c *stmtConn) Close() error {
	for k, kv := range c.kept {
		kv.close()
		delete(c.kept, k)
	}
	for q, cs := range c.stmts {
		cs.st.Close()
		delete(c.stmts, q)
	}
	return c.c.Close()
}

// stmt returns query's statement, compiled now unless kept; shared reports whether it
// is kept (the caller then marks it busy while rows are open) or the caller's to close.
func (c *stmtConn) stmt(ctx context.Context, query string) (cs *cachedStmt, shared bool, err error) {
	if cs, ok := c.stmts[query]; ok && !cs.busy {
		return cs, true, nil
	}
	st, err := c.c.PrepareContext(ctx, query)
	if err != nil {
		return nil, false, err
	}
	cs = &cachedStmt{st: st}
	if _, taken := c.stmts[query]; taken || len(query) > stmtCacheMaxSQL {
		return cs, false, nil
	}
	if len(c.stmts) >= stmtCacheSize {
		for q, old := range c.stmts { // any one not in use
			if !old.busy {
				old.st.Close()
				delete(c.stmts, q)
				break
			}
		}
	}
	if len(c.stmts) < stmtCacheSize {
		c.stmts[query] = cs
		return cs, true, nil
	}
	return cs, false, nil
}

func (c *stmtConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, shared, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if !shared {
		defer cs.st.Close()
	}
	return cs.st.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *stmtConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, shared, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := cs.st.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		if !shared {
			cs.st.Close()
		}
		return nil, err
	}
	r := &stmtRows{sqliteRowsIface: rows.(sqliteRowsIface), cs: cs, owned: !shared}
	cs.busy = true
	return r, nil
}

// sqliteRowsIface are the interfaces of the driver's rows that stmtRows forwards.
type sqliteRowsIface interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// stmtRows are a statement's open rows: closing them frees the statement for the
// next query (or closes it, when it was compiled for these rows alone).
type stmtRows struct {
	sqliteRowsIface
	cs     *cachedStmt
	owned  bool
	closed bool
}

func (r *stmtRows) Close() error {
	err := r.sqliteRowsIface.Close()
	if !r.closed {
		r.closed = true
		r.cs.busy = false
		if r.owned {
			r.cs.st.Close()
		}
	}
	return err
}
