package video

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// The tus part: HEAD and PATCH against an upload link the video host created. There is
// no tus POST, so no Location header: the link comes from the API's JSON instead.

// parseOffset reads an Upload-Offset or Upload-Length value: a non-negative decimal
// integer of bytes, nothing else (no sign, no spaces, no hex).
func parseOffset(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// byteCountHeader reads the byte count in header name of h. When it is missing, repeated
// with different values (a proxy merging answers, say) or malformed, it says what is
// wrong instead, in words fit for an error message.
func byteCountHeader(h http.Header, name string) (int64, string) {
	vs := h.Values(name)
	if len(vs) == 0 {
		return 0, "no " + name + " header"
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return 0, fmt.Sprintf("%s headers that disagree (%q)", name, vs)
		}
	}
	n, ok := parseOffset(vs[0])
	if !ok {
		return 0, fmt.Sprintf("%s %q, which is not a byte count", name, vs[0])
	}
	return n, ""
}

func (c *Client) tusRequest(ctx context.Context, method, link string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, link, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadLocation, err)
	}
	req.Header.Set("Tus-Resumable", TusVersion)
	req.Header.Set("Accept", Accept)
	return req, nil
}

// tusStatusError turns a non-success tus answer into an error; gone uploads are marked.
func tusStatusError(method string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	se := &StatusError{Method: method, Target: "upload link", Status: resp.StatusCode, Message: apiErrorMessage(body)}
	if resp.StatusCode == http.StatusPreconditionFailed {
		if v := resp.Header.Get("Tus-Version"); v != "" {
			se.Message = "the upload server speaks tus " + v + ", not " + TusVersion
		}
	}
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusGone, http.StatusForbidden:
		return fmt.Errorf("%w: %w", ErrUploadGone, se)
	}
	return se
}

// head asks the upload server how many bytes it holds and how many it expects.
func (c *Client) head(ctx context.Context, link string) (offset, length int64, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := c.tusRequest(ctx, http.MethodHead, link, nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, 0, &transportError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return 0, 0, tusStatusError(http.MethodHead, resp)
	}
	offset, problem := byteCountHeader(resp.Header, "Upload-Offset")
	if problem != "" {
		return 0, 0, fmt.Errorf("%w: the upload server answered HEAD with %s", ErrBadOffset, problem)
	}
	if resp.Header.Get("Upload-Defer-Length") == "1" {
		return 0, 0, fmt.Errorf("%w: the upload server does not know the upload's size (Upload-Defer-Length: 1), though it was created with one", ErrBadLength)
	}
	length, problem = byteCountHeader(resp.Header, "Upload-Length")
	if problem != "" {
		return 0, 0, fmt.Errorf("%w: the upload server answered HEAD with %s", ErrBadLength, problem)
	}
	if offset > length {
		return 0, 0, fmt.Errorf("%w: the upload server reports offset %d beyond the upload's length %d", ErrBadOffset, offset, length)
	}
	return offset, length, nil
}

// patch sends n bytes from body, which start at offset, and returns the server's new
// offset after checking it: more than offset, at most offset+n.
func (c *Client) patch(ctx context.Context, link string, offset, n int64, body io.Reader, getBody func() (io.ReadCloser, error)) (int64, error) {
	req, err := c.tusRequest(ctx, http.MethodPatch, link, body)
	if err != nil {
		return 0, err
	}
	req.ContentLength = n
	req.GetBody = getBody
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	req.Header.Set("Upload-Offset", strconv.FormatInt(offset, 10))
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, &transportError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return 0, tusStatusError(http.MethodPatch, resp)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	next, problem := byteCountHeader(resp.Header, "Upload-Offset")
	if problem != "" {
		return 0, fmt.Errorf("%w: the upload server answered PATCH with %s", ErrBadOffset, problem)
	}
	switch {
	case next < offset || next > offset+n:
		return 0, fmt.Errorf("%w: after %d bytes sent at offset %d the upload server reports offset %d, expected %d (at most)", ErrBadOffset, n, offset, next, offset+n)
	case next == offset:
		return 0, errNoProgress
	}
	return next, nil
}
