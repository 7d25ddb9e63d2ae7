package store

import (
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"

	"lineage/internal/store/internal/sqlitehandle"
)

// SQLite's memory, tuned for bulk work (docs/decisions/008-sqlite-search-tables.md).
//
// The modernc C allocator that SQLite runs on carves each size class (powers of two
// up to 16 KiB) out of 64 KiB regions that it maps on demand and unmaps as soon as
// their last block is freed; mapping a region costs an mmap and one or two munmaps.
// SQLite allocates and frees a scratch block of about 8 KiB on every B-tree page
// split, in the size class of its own page-cache lines, and once a large page cache
// has filled every region of that class, each split mapped a region and unmapped it
// again, a large share of the CPU of a bulk job (figures in
// docs/decisions/012-one-bulk-writer.md).
//
// So SQLite gets memory methods of its own (SQLITE_CONFIG_MALLOC) with the layout of
// its default ones (an 8-byte size before each block) and a small cache of freed
// blocks of the two largest classes, and one block of every smaller class stays
// allocated for the life of the process so that its region stays mapped.

// The size classes whose freed blocks are kept: blocks of (4 KiB, 8 KiB] and
// (8 KiB, 16 KiB], the 8-byte size included.
const (
	memCacheMin   = 4<<10 + 1
	memCacheSplit = 8 << 10
	memCacheMax   = 16 << 10
	memCacheKeep  = 64 // blocks kept per class: at most 1.5 MiB
)

var memCache struct {
	sync.Mutex
	free [2][]uintptr // blocks, by class, size word included
}

func memClass(full int64) int {
	switch {
	case full < memCacheMin || full > memCacheMax:
		return -1
	case full <= memCacheSplit:
		return 0
	}
	return 1
}

func memMalloc(tls *libc.TLS, n int32) uintptr {
	full := int64(n) + 8
	var p uintptr
	if c := memClass(full); c >= 0 {
		memCache.Lock()
		if k := len(memCache.free[c]); k > 0 {
			p = memCache.free[c][k-1]
			memCache.free[c] = memCache.free[c][:k-1]
		}
		memCache.Unlock()
	}
	if p == 0 {
		if p = libc.Xmalloc(tls, libc.Tsize_t(full)); p == 0 {
			return 0
		}
	}
	*(*int64)(sqlitehandle.Mem(p)) = int64(n)
	return p + 8
}

func memFree(tls *libc.TLS, p uintptr) {
	p -= 8
	if c := memClass(*(*int64)(sqlitehandle.Mem(p)) + 8); c >= 0 {
		memCache.Lock()
		if len(memCache.free[c]) < memCacheKeep {
			memCache.free[c] = append(memCache.free[c], p)
			memCache.Unlock()
			return
		}
		memCache.Unlock()
	}
	libc.Xfree(tls, p)
}

// memRealloc keeps a block that still fits its class (the allocator's blocks of a
// class all have the class's size), else reallocates as SQLite's default does.
func memRealloc(tls *libc.TLS, p uintptr, n int32) uintptr {
	p -= 8
	old := *(*int64)(sqlitehandle.Mem(p)) + 8
	if c := memClass(old); c >= 0 && c == memClass(int64(n)+8) {
		*(*int64)(sqlitehandle.Mem(p)) = int64(n)
		return p + 8
	}
	if p = libc.Xrealloc(tls, p, libc.Tsize_t(n)+8); p == 0 {
		return 0
	}
	*(*int64)(sqlitehandle.Mem(p)) = int64(n)
	return p + 8
}

func memSize(tls *libc.TLS, p uintptr) int32 { return int32(*(*int64)(sqlitehandle.Mem(p - 8))) }

func memRoundup(tls *libc.TLS, n int32) int32 { return (n + 7) &^ 7 }

func memInit(tls *libc.TLS, _ uintptr) int32 { return sqlite3.SQLITE_OK }

func memShutdown(tls *libc.TLS, _ uintptr) {}

// cfunc is a Go function as a C function pointer, the way the transpiled SQLite
// calls them.
func cfunc(f any) uintptr {
	type iface [2]uintptr
	return (*iface)(unsafe.Pointer(&f))[1]
}

// sqliteMemConfigured reports whether SQLite took the memory methods (it refuses
// them once it has been initialised, when a connection opened before Open ran).
var sqliteMemConfigured bool

// pinnedBlocks are the blocks kept for the life of the process, by size class.
var pinnedBlocks [15]uintptr

var setupSQLiteMemory = sync.OnceFunc(func() {
	tls := libc.NewTLS()
	defer tls.Close()
	for log := 4; log < len(pinnedBlocks); log++ {
		pinnedBlocks[log] = libc.Xmalloc(tls, libc.Tsize_t(1)<<log)
	}
	// sqlite3_mem_methods: xMalloc, xFree, xRealloc, xSize, xRoundup, xInit,
	// xShutdown, pAppData. SQLite copies it.
	m := libc.Xmalloc(tls, 8*8)
	defer libc.Xfree(tls, m)
	for i, f := range []uintptr{cfunc(memMalloc), cfunc(memFree), cfunc(memRealloc), cfunc(memSize), cfunc(memRoundup), cfunc(memInit), cfunc(memShutdown), 0} {
		*(*uintptr)(sqlitehandle.Mem(m + uintptr(8*i))) = f
	}
	va := libc.NewVaList(m)
	defer libc.Xfree(tls, va)
	sqliteMemConfigured = sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_MALLOC, va) == sqlite3.SQLITE_OK
})
