package blob

import (
	"context"
	"errors"
	"io"
)

// ReadSeeker reads an object as an io.ReadSeeker (for http.ServeContent): each Read
// after a Seek asks the store for the object from that offset on. info is the object's,
// from Stat or Get.
func ReadSeeker(ctx context.Context, st Store, info Info) io.ReadSeekCloser {
	return &readSeeker{ctx: ctx, st: st, info: info}
}

type readSeeker struct {
	ctx  context.Context
	st   Store
	info Info
	off  int64
	rc   io.ReadCloser
}

func (r *readSeeker) Read(p []byte) (int, error) {
	if r.off >= r.info.Size {
		return 0, io.EOF
	}
	if r.rc == nil {
		rc, _, err := r.st.Get(r.ctx, r.info.Key, Range{Offset: r.off})
		if err != nil {
			return 0, err
		}
		r.rc = rc
	}
	n, err := r.rc.Read(p)
	r.off += int64(n)
	return n, err
}

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
	if offset != r.off && r.rc != nil {
		r.rc.Close()
		r.rc = nil
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
