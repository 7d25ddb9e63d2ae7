package bulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"lineage/internal/store"
)

// pgRowsPerStmt is how many rows one unnest INSERT writes (each column one array
// parameter: one statement, parsed once, whatever the number of rows).
const pgRowsPerStmt = 20000

// pgWriter is the Writer on PostgreSQL: COPY on the caller's connection, or one
// unnest INSERT per pgRowsPerStmt rows through the caller's transaction for rows whose
// conflicts are ignored or merged (COPY has no ON CONFLICT) and when there is no
// connection.
type pgWriter struct {
	conn *sql.Conn
	copy bool
}

func newPostgres(conn *sql.Conn) *pgWriter { return &pgWriter{conn: conn, copy: conn != nil} }

var errNoCopy = errors.New("not a pgx connection")

func (w *pgWriter) Insert(ctx context.Context, tx *sql.Tx, t Table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	if t.OnConflict == "" && w.copy {
		err := w.conn.Raw(func(dc any) error {
			c, ok := dc.(*stdlib.Conn)
			if !ok {
				return errNoCopy
			}
			_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{t.Name}, t.Cols, &copyRows{rows: rows, i: -1})
			return err
		})
		if err == nil {
			return nil
		}
		if !errors.Is(err, errNoCopy) {
			return fmt.Errorf("insert into %s: %w", t.Name, err)
		}
		w.copy = false
	}
	for i := 0; i < len(rows); i += pgRowsPerStmt {
		chunk := rows[i:min(i+pgRowsPerStmt, len(rows))]
		args := make([]any, len(t.Cols))
		var b strings.Builder
		b.WriteString("INSERT INTO " + t.Name + " (" + strings.Join(t.Cols, ", ") + ") SELECT * FROM unnest(")
		for j := range t.Cols {
			var typ string
			args[j], typ = PGColumn(chunk, j)
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "$%d::%s[]", j+1, typ)
		}
		b.WriteString(")")
		if t.OnConflict != "" {
			b.WriteString(" " + t.OnConflict)
		}
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", t.Name, err)
		}
	}
	return nil
}

func (w *pgWriter) InsertInts(ctx context.Context, tx *sql.Tx, t Table, vals []int64) error {
	if n := len(t.Cols); len(vals)%n != 0 {
		return fmt.Errorf("insert into %s: %d values for rows of %d columns", t.Name, len(vals), n)
	}
	return w.Insert(ctx, tx, t, intRows(vals, len(t.Cols)))
}

func (w *pgWriter) Close() {}

// NextIDs takes the ids from the table's sequence, which other writers draw from
// at the same time.
func (w *pgWriter) NextIDs(ctx context.Context, tx *sql.Tx, table string, n int) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, $2)`, table, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := make([]int64, 0, n)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) != n {
		return nil, fmt.Errorf("ids for %s: %d of %d", table, len(ids), n)
	}
	return ids, nil
}

// Budget: writers of different rows do not wait for each other, so a batch is one
// transaction.
func (w *pgWriter) Budget(n int) *Budget { return &Budget{n: n} }

// ForeignKeysOff: PostgreSQL checks each row's keys cheaply, and they stay on.
func (w *pgWriter) ForeignKeysOff(context.Context) (bool, error) { return false, nil }

// pgSchemaNames lists the names of the indexes and tables of the current schema
// (Indexes.Repair).
const pgSchemaNames = `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()
	UNION ALL SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`

// analyzePostgres: VACUUM (ANALYZE) also refreshes the visibility map that
// index-only scans rely on.
func analyzePostgres(ctx context.Context, db *store.DB, tables []string) error {
	for _, t := range tables {
		if _, err := db.ExecContext(ctx, `VACUUM (ANALYZE) `+t); err != nil {
			return err
		}
	}
	return nil
}

// copyRows is rows as COPY's source, with each NUL of a text as U+FFFD.
type copyRows struct {
	rows [][]any
	i    int
	row  []any
}

func (c *copyRows) Next() bool {
	c.i++
	return c.i < len(c.rows)
}

func (c *copyRows) Values() ([]any, error) {
	r := c.rows[c.i]
	for j, v := range r {
		if s, ok := v.(string); ok && strings.IndexByte(s, 0) >= 0 {
			if c.row == nil {
				c.row = make([]any, len(r))
			}
			copy(c.row, r)
			c.row[j] = cleanText(s)
			for k := j + 1; k < len(r); k++ {
				if s, ok := r[k].(string); ok {
					c.row[k] = cleanText(s)
				}
			}
			return c.row, nil
		}
	}
	return r, nil
}

func (c *copyRows) Err() error { return nil }
