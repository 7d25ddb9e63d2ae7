package server

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestSSRWorkerAnswersWholePages: a worker answers a page as one body of a stated
// length, not as a chunked stream (web/app/entry.server.tsx): the front door reads
// every page whole before answering anyway (decision 015), so streaming only cost a
// write per chunk on both sides.
func TestSSRWorkerAnswersWholePages(t *testing.T) {
	worker, logs := oneRealWorker(t)
	// Any path is a page of the web app, rendered by its own entry like every page:
	// with no content API here, the page saying the site is unavailable.
	res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/a-page-nobody-has-made-5120", worker.port))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), "</html>") {
		t.Fatalf("status %d, not a page: %.300s\n%s", res.StatusCode, body, logs)
	}
	if len(res.TransferEncoding) > 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("Transfer-Encoding %q, Content-Length %q for a body of %d bytes", res.TransferEncoding, res.Header.Get("Content-Length"), len(body))
	}
}
