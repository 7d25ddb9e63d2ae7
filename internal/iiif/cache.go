package iiif

import (
	"bufio"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"lineage/internal/blob"
)

// diskCache keeps derivatives in the store under a prefix, evicting the least recently
// used beyond a size cap. The index lives in memory and is rebuilt from the store's
// listing (by modification time) when the server starts. Several servers on one bucket
// each keep their own index: one may evict what another still lists, which that one
// then finds missing and makes again.
type diskCache struct {
	st      blob.Store
	prefix  string // "" or ending in '/'
	staging string // folder for derivatives being written; "" the system's
	cap     int64

	mu    sync.Mutex
	size  int64
	order *list.List // front: most recently used
	index map[string]*list.Element
}

type cacheEntry struct {
	key  string
	size int64
}

func newDiskCache(st blob.Store, prefix, staging string, capBytes int64) (*diskCache, error) {
	c := &diskCache{st: st, prefix: prefix, staging: staging, cap: capBytes, order: list.New(), index: map[string]*list.Element{}}
	type found struct {
		key  string
		size int64
		mod  int64
	}
	var all []found
	err := st.List(context.Background(), prefix, func(i blob.Info) error {
		all = append(all, found{path.Base(i.Key), i.Size, i.ModTime.UnixNano()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod < all[j].mod })
	for _, f := range all {
		c.index[f.key] = c.order.PushFront(&cacheEntry{f.key, f.size})
		c.size += f.size
	}
	c.mu.Lock()
	evicted := c.evictLocked()
	c.mu.Unlock()
	c.remove(evicted)
	return c, nil
}

// cacheKey names a derivative: the scan's id and version and the canonical request.
func cacheKey(id, version, canonical string) string {
	h := sha256.Sum256([]byte(id + "\x00" + version + "\x00" + canonical))
	ext := canonical[strings.LastIndexByte(canonical, '.')+1:]
	return hex.EncodeToString(h[:16]) + "." + ext
}

// key is where a derivative lives in the store.
func (c *diskCache) key(key string) string {
	return c.prefix + key[:2] + "/" + key
}

// open returns a cached derivative opened for reading, and its size.
func (c *diskCache) open(ctx context.Context, key string) (io.ReadCloser, int64, bool) {
	rc, info, err := c.st.Get(ctx, c.key(key), blob.Range{})
	c.mu.Lock()
	e, known := c.index[key]
	if err != nil {
		if known {
			c.removeLocked(e)
		}
		c.mu.Unlock()
		return nil, 0, false
	}
	var evicted []string
	if known {
		c.order.MoveToFront(e)
	} else {
		// Another process (an import, another server) may have written it since the
		// index was built.
		c.index[key] = c.order.PushFront(&cacheEntry{key, info.Size})
		c.size += info.Size
		evicted = c.evictLocked()
	}
	c.mu.Unlock()
	c.remove(evicted)
	return rc, info.Size, true
}

// write stores a derivative that fill encodes (into a temporary file, then into the
// store), evicts, and returns it opened for reading at its start. A derivative larger
// than the whole cap is not kept, but the returned file still reads it.
func (c *diskCache) write(ctx context.Context, key string, fill func(io.Writer) error) (*os.File, int64, error) {
	if c.staging != "" {
		if err := os.MkdirAll(c.staging, 0o755); err != nil {
			return nil, 0, err
		}
	}
	tmp, err := os.CreateTemp(c.staging, "derivative-*")
	if err != nil {
		return nil, 0, err
	}
	// The open file reads on once its name is gone.
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 64<<10)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	var size int64
	if err == nil {
		size, err = tmp.Seek(0, io.SeekCurrent)
	}
	if err == nil && size <= c.cap {
		if _, err = tmp.Seek(0, io.SeekStart); err == nil {
			_, err = c.st.Put(ctx, c.key(key), tmp, blob.PutOptions{})
		}
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		return nil, 0, err
	}
	if size > c.cap {
		return tmp, size, nil
	}
	c.mu.Lock()
	if e, ok := c.index[key]; ok {
		c.size -= e.Value.(*cacheEntry).size
		e.Value.(*cacheEntry).size = size
		c.order.MoveToFront(e)
	} else {
		c.index[key] = c.order.PushFront(&cacheEntry{key, size})
	}
	c.size += size
	evicted := c.evictLocked()
	c.mu.Unlock()
	c.remove(evicted)
	return tmp, size, nil
}

// evictLocked drops the least recently used entries beyond the cap from the index and
// returns their keys, for remove to delete once the lock is let go (a bucket's
// round trips must not hold it).
func (c *diskCache) evictLocked() []string {
	var out []string
	for c.size > c.cap {
		e := c.order.Back()
		if e == nil {
			break
		}
		out = append(out, e.Value.(*cacheEntry).key)
		c.removeLocked(e)
	}
	return out
}

func (c *diskCache) remove(keys []string) {
	for _, k := range keys {
		c.st.Delete(context.Background(), c.key(k))
	}
}

func (c *diskCache) removeLocked(e *list.Element) {
	ce := e.Value.(*cacheEntry)
	c.order.Remove(e)
	delete(c.index, ce.key)
	c.size -= ce.size
}

// usage reports the bytes and files held.
func (c *diskCache) usage() (int64, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size, len(c.index)
}

// memCache keeps recently served tiles in memory, least recently used out first.
type memCache struct {
	cap   int64
	mu    sync.Mutex
	size  int64
	order *list.List
	index map[string]*list.Element
}

type memEntry struct {
	key  string
	body []byte
}

func newMemCache(capBytes int64) *memCache {
	return &memCache{cap: capBytes, order: list.New(), index: map[string]*list.Element{}}
}

func (c *memCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*memEntry).body, true
}

func (c *memCache) put(key string, body []byte) {
	if int64(len(body)) > c.cap/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.index[key]; ok {
		return
	}
	c.index[key] = c.order.PushFront(&memEntry{key, body})
	c.size += int64(len(body))
	for c.size > c.cap {
		e := c.order.Back()
		me := e.Value.(*memEntry)
		c.order.Remove(e)
		delete(c.index, me.key)
		c.size -= int64(len(me.body))
	}
}
