package gedcom

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

// GEDZIP (GEDCOM 7.0, "GEDZIP"): a zip archive holding the dataset as gedcom.ged at its
// root and the media files the dataset's FILE structures point to with relative URLs.

// GEDZIPName is the dataset's name inside a GEDZIP archive.
const GEDZIPName = "gedcom.ged"

// ErrNoGEDZIPDataset is returned for a zip archive without gedcom.ged.
var ErrNoGEDZIPDataset = errors.New("gedcom: GEDZIP archive has no " + GEDZIPName)

// OpenGEDZIP reads the GEDZIP archive in ra (size bytes): it returns a Reader for its
// gedcom.ged, whose Files gives the archive's other files. Close the Reader when done.
//
// Options.Limits.MaxArchiveEntries and MaxArchiveBytes are checked before anything is
// decompressed (against the directory) and again while decompressing (against the bytes
// that come out), so that an archive that lies about its sizes is stopped too.
func OpenGEDZIP(ra io.ReaderAt, size int64, opts *Options) (*Reader, error) {
	var lim Limits
	if opts != nil {
		lim = opts.Limits
	}
	if lim.MaxArchiveEntries > 0 {
		if _, err := countZipEntries(ra, size, lim.MaxArchiveEntries); err != nil {
			var le *LimitError
			if errors.As(err, &le) {
				return nil, err
			}
			// Not a directory this scan follows: archive/zip says what is wrong.
		}
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, fmt.Errorf("gedcom: GEDZIP: %w", err)
	}
	if lim.MaxArchiveEntries > 0 && len(zr.File) > lim.MaxArchiveEntries {
		return nil, &LimitError{Kind: LimitArchiveEntries, Max: int64(lim.MaxArchiveEntries)}
	}
	if lim.MaxArchiveBytes > 0 {
		var declared uint64
		for _, f := range zr.File {
			declared += f.UncompressedSize64
			if declared > uint64(lim.MaxArchiveBytes) || f.UncompressedSize64 > uint64(lim.MaxArchiveBytes) {
				return nil, &LimitError{Kind: LimitArchiveBytes, Max: lim.MaxArchiveBytes}
			}
		}
	}
	b := &budget{max: lim.MaxArchiveBytes, kind: LimitArchiveBytes}
	var ged *zip.File
	for _, f := range zr.File {
		if f.Name == GEDZIPName {
			ged = f
			break
		}
	}
	if ged == nil {
		// Tolerate another case or a leading "./"; nothing else.
		for _, f := range zr.File {
			if strings.EqualFold(strings.TrimPrefix(f.Name, "./"), GEDZIPName) {
				ged = f
				break
			}
		}
	}
	if ged == nil {
		return nil, ErrNoGEDZIPDataset
	}
	rc, err := ged.Open()
	if err != nil {
		return nil, fmt.Errorf("gedcom: GEDZIP %s: %w", ged.Name, err)
	}
	r, err := NewReader(&budgetReader{r: rc, b: b}, opts)
	if err != nil {
		rc.Close()
		return nil, err
	}
	r.closer = rc
	r.files = limitedFS{fsys: zr, b: b}
	if ged.UncompressedSize64 <= 1<<62 {
		r.size = int64(ged.UncompressedSize64)
	}
	return r, nil
}

// Files returns the files of the GEDZIP archive the Reader reads from (gedcom.ged
// included), or nil for a plain GEDCOM file. Use MediaPath to turn a FILE value into a
// name to open.
func (r *Reader) Files() fs.FS {
	if r.files == nil {
		return nil
	}
	return r.files
}

// Open opens a GEDCOM file or GEDZIP archive (recognised by its content, not its name).
// Close the Reader when done.
func Open(path string, opts *Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n == 4 && bytes.Equal(magic[:], []byte("PK\x03\x04")) {
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		r, err := OpenGEDZIP(f, st.Size(), opts)
		if err != nil {
			f.Close()
			return nil, err
		}
		r.closer = multiCloser{r.closer, f}
		return r, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	r, err := NewReader(f, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		r.size = st.Size()
	}
	return r, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var errs []error
	for _, c := range m {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// MediaPath turns a FILE value into the name of a file inside a GEDZIP archive: ok is
// false unless the value is a relative URL (no scheme, no host, not starting with /).
// "media/Bront%C3%AB.jpg" gives "media/Brontë.jpg".
func MediaPath(fileValue string) (name string, ok bool) {
	u, err := url.Parse(fileValue)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || u.Path == "" ||
		strings.HasPrefix(u.Path, "/") {
		return "", false
	}
	name = strings.TrimPrefix(u.Path, "./")
	if !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// MediaURL is the FILE value for a file stored in a GEDZIP archive under name: each path
// segment percent-encoded.
func MediaURL(name string) string {
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// ZipWriter writes a GEDZIP archive: first the dataset (GEDCOM, then write records and
// Close that Writer), then any media files (AddFile), then Close.
type ZipWriter struct {
	zw    *zip.Writer
	gw    *Writer
	names map[string]bool
}

// NewZipWriter starts a GEDZIP archive on w.
func NewZipWriter(w io.Writer) *ZipWriter {
	return &ZipWriter{zw: zip.NewWriter(w), names: map[string]bool{}}
}

// GEDCOM starts gedcom.ged and returns its Writer (GEDCOM 7.0, UTF-8: GEDZIP is a 7.0
// format). Close the returned Writer before AddFile or Close.
func (z *ZipWriter) GEDCOM(h *Header, opts *WriterOptions) (*Writer, error) {
	if z.gw != nil || z.names[GEDZIPName] {
		return nil, errors.New("gedcom: GEDZIP already has " + GEDZIPName)
	}
	var o WriterOptions
	if opts != nil {
		o = *opts
	}
	if o.Version != VersionUnknown && o.Version != Version70 {
		return nil, errors.New("gedcom: GEDZIP holds GEDCOM 7.0 only")
	}
	o.Version = Version70
	f, err := z.zw.CreateHeader(&zip.FileHeader{Name: GEDZIPName, Method: zip.Deflate})
	if err != nil {
		return nil, err
	}
	z.names[GEDZIPName] = true
	gw, err := NewWriter(f, h, &o)
	if err != nil {
		return nil, err
	}
	z.gw = gw
	return gw, nil
}

// AddFile stores a file under name (a slash-separated relative path, as MediaPath gives;
// refer to it from the dataset with MediaURL(name)).
func (z *ZipWriter) AddFile(name string, r io.Reader) error {
	if z.gw != nil && !z.gw.closed {
		return errors.New("gedcom: close the GEDCOM writer before adding files to the GEDZIP archive")
	}
	if !fs.ValidPath(name) || name == "." || name == GEDZIPName {
		return fmt.Errorf("gedcom: GEDZIP file name %q", name)
	}
	if z.names[name] {
		return fmt.Errorf("gedcom: GEDZIP already has %q", name)
	}
	f, err := z.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
	if err != nil {
		return err
	}
	z.names[name] = true
	_, err = io.Copy(f, r)
	return err
}

// Close finishes the archive (closing the GEDCOM writer if it is still open). It does
// not close the underlying writer.
func (z *ZipWriter) Close() error {
	var errs []error
	if z.gw == nil {
		errs = append(errs, ErrNoGEDZIPDataset)
	} else if !z.gw.closed {
		errs = append(errs, z.gw.Close())
	}
	errs = append(errs, z.zw.Close())
	return errors.Join(errs...)
}
