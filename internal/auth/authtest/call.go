package authtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Call is an API request to base as an app makes it: with a bearer token unless token
// is "", and a JSON body unless body is "". It answers the status, the body and the
// headers; a request that gets no answer fails the test.
func Call(t testing.TB, base, method, path, token, body string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return Send(t, req)
}

// Send sends req with the default client and answers the status, the body and the
// headers; a request that gets no answer fails the test.
func Send(t testing.TB, req *http.Request) (int, []byte, http.Header) {
	t.Helper()
	return SendWith(t, http.DefaultClient, req)
}

// SendWith is Send through the client c (a browser's cookie jar, a test server's
// client).
func SendWith(t testing.TB, c *http.Client, req *http.Request) (int, []byte, http.Header) {
	t.Helper()
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b, res.Header
}

// CallJSON is Call answering the body as a JSON object, or as {"_body": text} when it
// is not one.
func CallJSON(t testing.TB, base, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	code, b, _ := Call(t, base, method, path, token, body)
	var out map[string]any
	json.Unmarshal(b, &out)
	if out == nil {
		out = map[string]any{"_body": string(b)}
	}
	return code, out
}
