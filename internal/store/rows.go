package store

import (
	"database/sql"
	"time"
)

// Row is one result row: a *sql.Row, or *sql.Rows at its current row. A room's scan
// function takes it, so that one function reads a row of either.
type Row interface {
	Scan(dest ...any) error
}

// Collect scans every row of a query with scan and closes them; a query that failed
// (err) is that error, so a call takes the query's results as they come:
//
//	rs, err := db.QueryContext(ctx, q, args...)
//	return store.Collect(rs, err, scanThing)
//
// No rows is an empty slice, never nil (JSON [] rather than null).
func Collect[T any](rs *sql.Rows, err error, scan func(Row) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	out := []T{}
	for rs.Next() {
		v, err := scan(rs)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rs.Err()
}

// CollectMap is Collect for rows of a key and its value (scan reads both; Pair when
// they are the row's two columns): no rows is an empty map.
func CollectMap[K comparable, V any](rs *sql.Rows, err error, scan func(Row) (K, V, error)) (map[K]V, error) {
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	out := map[K]V{}
	for rs.Next() {
		k, v, err := scan(rs)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rs.Err()
}

// Set is CollectMap for rows of one column: the set of its values, each true.
func Set[K comparable](rs *sql.Rows, err error) (map[K]bool, error) {
	return CollectMap(rs, err, func(r Row) (K, bool, error) {
		k, err := Scalar[K](r)
		return k, true, err
	})
}

// Pair scans a row of two columns, a key and its value, for CollectMap.
func Pair[K comparable, V any](r Row) (K, V, error) {
	var k K
	var v V
	err := r.Scan(&k, &v)
	return k, v, err
}

// Changed is the outcome of a statement that must change a row (res and err, as
// ExecContext returns them): err, else none when no row changed.
func Changed(res sql.Result, err, none error) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return none
	}
	return nil
}

// Scalar scans a row of one column, for Collect: store.Collect(rs, err, store.Scalar[int64]).
func Scalar[T any](r Row) (T, error) {
	var v T
	err := r.Scan(&v)
	return v, err
}

// Time is a stored time (Unix seconds, as every table keeps its times) in UTC.
func Time(unix int64) time.Time { return time.Unix(unix, 0).UTC() }

// TimeOrNil is a stored time that may be NULL; NULL is nil.
func TimeOrNil(unix sql.NullInt64) *time.Time {
	if !unix.Valid {
		return nil
	}
	t := Time(unix.Int64)
	return &t
}

// UnixOrNil is t as a statement's argument: its Unix seconds, or NULL when t is nil.
func UnixOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.Unix()
}
