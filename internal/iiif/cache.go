package iiif

import (
	"bufio"
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// diskCache keeps derivatives on disk, evicting the least recently used beyond a size
// cap. The index lives in memory and is rebuilt from the folder (by modification time)
// when the server starts.
type diskCache struct {
	dir string
	cap int64

	mu    sync.Mutex
	size  int64
	order *list.List // front: most recently used
	index map[string]*list.Element
}

type cacheEntry struct {
	key  string
	size int64
}

func newDiskCache(dir string, capBytes int64) (*diskCache, error) {
	c := &diskCache{dir: dir, cap: capBytes, order: list.New(), index: map[string]*list.Element{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	type found struct {
		key  string
		size int64
		mod  int64
	}
	var all []found
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp") {
			os.Remove(path)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		all = append(all, found{d.Name(), info.Size(), info.ModTime().UnixNano()})
		return nil
	})
	sort.Slice(all, func(i, j int) bool { return all[i].mod < all[j].mod })
	for _, f := range all {
		c.index[f.key] = c.order.PushFront(&cacheEntry{f.key, f.size})
		c.size += f.size
	}
	c.mu.Lock()
	c.evictLocked()
	c.mu.Unlock()
	return c, nil
}

// cacheKey names a derivative: the scan's id and version and the canonical request.
func cacheKey(id, version, canonical string) string {
	h := sha256.Sum256([]byte(id + "\x00" + version + "\x00" + canonical))
	ext := canonical[strings.LastIndexByte(canonical, '.')+1:]
	return hex.EncodeToString(h[:16]) + "." + ext
}

func (c *diskCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key)
}

// open returns a cached derivative opened for reading, and its size.
func (c *diskCache) open(key string) (*os.File, int64, bool) {
	f, err := os.Open(c.path(key))
	var info os.FileInfo
	if err == nil {
		info, err = f.Stat()
		if err != nil {
			f.Close()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, known := c.index[key]
	if err != nil {
		if known {
			c.removeLocked(e)
		}
		return nil, 0, false
	}
	if known {
		c.order.MoveToFront(e)
	} else {
		// Another process (an import) may have written it since the index was built.
		c.index[key] = c.order.PushFront(&cacheEntry{key, info.Size()})
		c.size += info.Size()
		c.evictLocked()
	}
	return f, info.Size(), true
}

// write stores a derivative that fill encodes (into a temporary file, then renamed),
// evicts, and returns the file opened for reading at its start. A derivative larger
// than the whole cap is not kept, but the returned file still reads it.
func (c *diskCache) write(key string, fill func(io.Writer) error) (*os.File, int64, error) {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return nil, 0, err
	}
	bw := bufio.NewWriterSize(tmp, 64<<10)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	var size int64
	if err == nil {
		size, err = tmp.Seek(0, io.SeekCurrent)
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err == nil && size <= c.cap {
		err = os.Rename(tmp.Name(), p)
	} else {
		os.Remove(tmp.Name())
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, 0, err
	}
	if size > c.cap {
		return tmp, size, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.index[key]; ok {
		c.size -= e.Value.(*cacheEntry).size
		e.Value.(*cacheEntry).size = size
		c.order.MoveToFront(e)
	} else {
		c.index[key] = c.order.PushFront(&cacheEntry{key, size})
	}
	c.size += size
	c.evictLocked()
	return tmp, size, nil
}

func (c *diskCache) evictLocked() {
	for c.size > c.cap {
		e := c.order.Back()
		if e == nil {
			return
		}
		os.Remove(c.path(e.Value.(*cacheEntry).key))
		c.removeLocked(e)
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
