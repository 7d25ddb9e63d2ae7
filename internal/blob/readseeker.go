package blob

import (
	"context"
	"errors"
	"io"
)

// ReadSeeker reads an object as an io.ReadSeeker (for http.ServeContent): a Read at an
// offset the open reader is not at asks the store for the object from there on. info is
// the object's, from Stat or Get; rc, when not nil, is a reader of the whole object
// already open (from Get), used for reads from the start.
func ReadSeeker(ctx context.Context, st Store, info Info, rc io.ReadCloser) io.ReadSeekCloser {
	return &readSeeker{ctx: ctx, st: st, info: info, rc: rc}
}

type readSeeker struct {
	ctx  context.Context
	st   Store
	info Info
	off  int64         // where the next Read reads
	rc   io.ReadCloser // reading from rcOff
	at   int64         // rc's offset
}

func (r *readSeeker) Read(p []byte) (int, error) {
	if r.off >= r.info.Size {
		return 0, io.EOF
	}
	if r.rc != nil && r.at != r.off {
		r.rc.Close()
		r.rc = nil
	}
	if r.rc == nil {
		rc, _, err := r.st.Get(r.ctx, r.info.Key, Range{Offset: r.off})
		if err != nil {
			return 0, err
		}
		r.rc, r.at = rc, r.off
	}
	n, err := r.rc.Read(p)
	r.off += int64(n)
	r.at += int64(n)
	return n, err
}

// Seek only moves the offset; the next Read goes to the store if it must.
func (r *readSeeker) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.info.Size
	}
	if offset < 0 {
		return 0, errors.New("blob: seek before the start")
	}
	r.off = offset
	return offset, nil
}

func (r *readSeeker) Close() error {
	if r.rc != nil {
		return r.rc.Close()
	}
	return nil
}
