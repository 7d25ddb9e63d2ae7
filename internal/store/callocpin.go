package store

import (
	"sync"

	"modernc.org/libc"
)

// pinCAllocator keeps one block of each of the C allocator's shared size classes
// (16 bytes to 16 KiB) allocated for the life of the process.
//
// The modernc allocator that SQLite runs on maps a 64 KiB region for a size class
// when the class has no free block, and unmaps it as soon as its last block is
// freed. SQLite allocates and frees a scratch block of about 9 KiB on every B-tree
// page split, and statements' opcode arrays grow and shrink the same way, so
// without a block that stays, a bulk import spent about 7 % of its CPU in mmap and
// munmap system calls (docs/benchmarks-search.md). The pinned blocks cost 32 KiB.
var pinCAllocator = sync.OnceFunc(func() {
	tls := libc.NewTLS()
	defer tls.Close()
	for log := range pinnedBlocks {
		if log >= 4 {
			pinnedBlocks[log] = libc.Xmalloc(tls, libc.Tsize_t(1)<<log)
		}
	}
})

// pinnedBlocks are the blocks pinCAllocator keeps, by size class (log2 of the size).
var pinnedBlocks [15]uintptr
