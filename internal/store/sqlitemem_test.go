package store

import (
	"context"
	"testing"
	"unsafe"

	"modernc.org/libc"

	"lineage/internal/store/internal/sqlitehandle"
)

// TestSQLiteMemory: SQLite runs on the memory methods of sqlitemem.go once a store is
// open; a freed block of a page split's size comes back for the next request of its
// class instead of going back to the C allocator, reallocation within a class keeps
// the block, across classes it keeps the contents; and the pinned blocks keep their
// regions mapped.
func TestSQLiteMemory(t *testing.T) {
	db, err := Open(context.Background(), Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !sqliteMemConfigured {
		t.Fatal("SQLite refused the memory methods")
	}
	// A sort that needs memory in every size class.
	var n int
	if err := db.QueryRow(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
		SELECT COUNT(DISTINCT hex(randomblob(i % 300))) FROM c`).Scan(&n); err != nil || n < 19000 {
		t.Fatalf("%d %v", n, err)
	}

	tls := libc.NewTLS()
	defer tls.Close()
	p := memMalloc(tls, 8000)
	if memSize(tls, p) != 8000 {
		t.Errorf("size %d", memSize(tls, p))
	}
	memFree(tls, p)
	if q := memMalloc(tls, 8100); q != p {
		t.Errorf("an 8 KiB block was not reused: %#x, then %#x", p, q)
	} else {
		p = q
	}
	b := unsafe.Slice((*byte)(sqlitehandle.Mem(p)), 8100)
	for i := range b {
		b[i] = byte(i)
	}
	if q := memRealloc(tls, p, 6000); q != p || memSize(tls, q) != 6000 {
		t.Errorf("a reallocation within the class moved: %#x → %#x", p, q)
	}
	q := memRealloc(tls, p, 12000)
	if memSize(tls, q) != 12000 {
		t.Errorf("size after growing %d", memSize(tls, q))
	}
	for i, c := range unsafe.Slice((*byte)(sqlitehandle.Mem(q)), 6000) {
		if c != byte(i) {
			t.Fatalf("byte %d lost in a reallocation", i)
		}
	}
	memFree(tls, q)
	small := memMalloc(tls, 100)
	memFree(tls, small)

	// Every class below the cached ones keeps one live block of its own size, so its
	// region is never unmapped. (Where a new block lands is the allocator's business:
	// a busy process fills the pinned region and the allocator maps another.)
	for log := 4; log < len(pinnedBlocks); log++ {
		if p := pinnedBlocks[log]; p == 0 || libc.UsableSize(p) != libc.Tsize_t(1)<<log {
			t.Errorf("class %d: pinned block %#x of usable size %d", 1<<log, p, libc.UsableSize(p))
		}
	}
}
