package store

import (
	"testing"

	"modernc.org/libc"
)

// TestPinCAllocator: after pinning, a block of a B-tree split's scratch size (about
// 9 KiB) comes from the region the pinned 16 KiB block keeps mapped, so freeing it
// does not unmap anything. The allocator's regions are 64 KiB, aligned.
func TestPinCAllocator(t *testing.T) {
	pinCAllocator()
	tls := libc.NewTLS()
	defer tls.Close()
	const region = 1<<16 - 1
	for _, size := range []int{9000, 16384, 3000, 100} {
		p := libc.Xmalloc(tls, libc.Tsize_t(size))
		if p == 0 {
			t.Fatal("malloc failed")
		}
		log := 4
		for 1<<log < size {
			log++
		}
		if pin := pinnedBlocks[log]; pin == 0 || p&^region != pin&^region {
			t.Errorf("a %d-byte block at %#x, outside the pinned region of its class (%#x)", size, p, pin)
		}
		libc.Xfree(tls, p)
	}
}
