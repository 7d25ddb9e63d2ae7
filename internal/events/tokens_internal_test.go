package events

import (
	"bytes"
	"context"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A key made inside a transaction that rolls back was never stored: the room must not
// go on signing links with it, or those links would stop working once the stored key
// is read (another instance, a restart).
func TestLinkKeyMadeInARolledBackTransactionIsNotKept(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db, Options{})
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lost, err := s.key(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		kept, err := s.key(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(lost, kept) {
			t.Fatal("the room kept the key of a transaction that rolled back")
		}
		again, err := New(db, Options{}).key(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(kept, again) {
			t.Fatal("the key the room signs with is not the stored one")
		}
	})
}
