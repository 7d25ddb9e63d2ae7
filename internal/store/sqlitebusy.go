package store

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"lineage/internal/store/internal/sqlitehandle"
)

// A writer that finds SQLite's write lock taken waits in the connection's busy
// handler. SQLite's own handler (busy_timeout) sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25,
// 50, 50, then 100 ms between tries: behind a long job that commits in short chunks
// and begins the next one at once, such a waiter mostly wakes while a chunk holds the
// lock and can wait for seconds, although the lock is free between every two chunks.
// busyWait tries again every busyPoll instead, for busyTimeout in all, and counts the
// writers waiting so that a long job of this process can step aside for them
// (YieldToWriters). A long job in another process (a CLI import while a server runs)
// cannot see them, so it pauses for longer than busyPoll after each chunk.
const (
	busyPoll    = 500 * time.Microsecond
	busyTimeout = 10 * time.Second
)

// writersWaiting counts the connections of this process inside busyWait.
var writersWaiting atomic.Int64

// busyWait is the busy handler of every SQLite connection that store opens: it
// returns 1 (try again) until the lock has been waited for busyTimeout.
func busyWait(tls *libc.TLS, arg uintptr, count int32) int32 {
	if time.Duration(count)*busyPoll >= busyTimeout {
		return 0
	}
	writersWaiting.Add(1)
	time.Sleep(busyPoll)
	writersWaiting.Add(-1)
	return 1
}

var busyHookOnce sync.Once

// installBusyHandler makes every connection of the sqlite driver use busyWait. A
// connection whose shape the driver has changed keeps busy_timeout from its DSN
// (TestBusyHandler fails then).
func installBusyHandler() {
	busyHookOnce.Do(func() {
		sqlite.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, _ string) error {
			db, tls, ok := sqlitehandle.Of(conn)
			if ok {
				sqlite3.Xsqlite3_busy_handler(tls, db, busyWaitPointer, 0)
			}
			return nil
		})
	})
}

// busyWaitPointer is busyWait as the C function pointer that modernc's SQLite calls
// (a Go func value is a pointer to its code; see https://golang.org/s/go11func).
var busyWaitPointer = *(*uintptr)(unsafe.Pointer(&struct {
	f func(*libc.TLS, uintptr, int32) int32
}{busyWait}))

// A long job pauses for ChunkPause between two of its chunks, at most once every
// pauseEvery: long enough for a writer of another process, trying every busyPoll, to
// take the lock, and seldom enough to cost the job a few per cent at most.
const (
	ChunkPause = 2 * time.Millisecond
	pauseEvery = 50 * time.Millisecond
)

// lastPause is when a long job of this process last paused (Unix nanoseconds).
var lastPause atomic.Int64

// YieldToWriters is what a long job that writes in chunks calls between two of its
// transactions on SQLite: it lets the writers of this process that wait for the lock
// go first (up to 100 ms), and pauses for those of other processes (ChunkPause, at
// most once every pauseEvery). On PostgreSQL, where writers of different rows do not
// wait for each other, it returns at once.
func (db *DB) YieldToWriters() {
	if db.Dialect != SQLite {
		return
	}
	if now := time.Now().UnixNano(); now-lastPause.Load() >= int64(pauseEvery) {
		time.Sleep(ChunkPause)
		lastPause.Store(now)
	}
	for i := 0; i < 200 && writersWaiting.Load() > 0; i++ {
		time.Sleep(busyPoll)
	}
}

// WritersWaiting is how many connections of this process wait for SQLite's write lock.
func WritersWaiting() int64 { return writersWaiting.Load() }
