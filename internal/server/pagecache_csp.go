package server

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// The Content-Security-Policy admits no inline script it does not name. A page's own
// inline scripts (React Router's hydration data and module loader, React's) are named
// by their SHA-256 hashes, so the policy belongs to the page's bytes and holds for
// every visitor a cached page is served to; a per-request nonce would make every
// answer unique. To tell the page's own scripts from anything else in the HTML, the
// SSR child is still given a random nonce per render (X-Lineage-Nonce; the web app
// puts it on the scripts it writes, web/app/lib/nonce.ts): sealScripts hashes only the
// inline scripts carrying it, then removes it. A script that found its way into the
// HTML some other way carries no nonce, is not hashed and does not run.
// docs/decisions/015-page-cache-and-csp.md.

// policyDirectives are the CSP's directives other than script-src: our own scripts
// (and the Universal Viewer under /uv/), video embeds from the usual hosts.
var policyDirectives = []string{
	"default-src 'self'",
	"style-src 'self' 'unsafe-inline'",
	"img-src 'self' data: blob: https:",
	"font-src 'self' data:",
	"connect-src 'self'",
	"media-src 'self' blob: https:",
	"worker-src 'self' blob:",
	"frame-src 'self' https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com",
	"frame-ancestors 'self'",
	"object-src 'none'",
	"base-uri 'self'",
	"form-action 'self'",
}

// basePolicy is the CSP of every answer without inline scripts of its own.
var basePolicy = contentSecurityPolicy(nil)

// contentSecurityPolicy is the policy admitting scripts from this origin and the
// inline scripts with the given hash sources ('sha256-…').
func contentSecurityPolicy(scriptHashes []string) string {
	var b strings.Builder
	b.WriteString(policyDirectives[0])
	b.WriteString("; script-src 'self'")
	for _, h := range scriptHashes {
		b.WriteString(" '")
		b.WriteString(h)
		b.WriteString("'")
	}
	for _, d := range policyDirectives[1:] {
		b.WriteString("; ")
		b.WriteString(d)
	}
	return b.String()
}

// newNonce is a render's script marker: 144 random bits.
func newNonce() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// sealScripts returns the hash sources of the inline scripts in html that carry
// nonce="<nonce>" (in order, without repeats) and html without that attribute.
func sealScripts(html []byte, nonce string) ([]byte, []string) {
	attr := []byte(` nonce="` + nonce + `"`)
	if nonce == "" || !bytes.Contains(html, attr) {
		return html, nil
	}
	var hashes []string
	seen := map[string]bool{}
	rest := html
	for {
		i := bytes.Index(rest, []byte("<script"))
		if i < 0 {
			break
		}
		rest = rest[i+len("<script"):]
		end := bytes.IndexByte(rest, '>')
		if end < 0 {
			break
		}
		// React escapes '>' and '"' in attribute values, so the first '>' ends the tag.
		tag := rest[:end]
		rest = rest[end+1:]
		closing := bytes.Index(rest, []byte("</script"))
		if closing < 0 {
			break
		}
		text := rest[:closing]
		rest = rest[closing:]
		if !bytes.Contains(tag, attr) || hasAttr(tag, "src") {
			continue
		}
		h := scriptHash(text)
		if !seen[h] {
			seen[h] = true
			hashes = append(hashes, h)
		}
	}
	return bytes.ReplaceAll(html, attr, nil), hashes
}

// hasAttr reports whether a start tag's attribute text has attribute name.
func hasAttr(tag []byte, name string) bool {
	for _, f := range bytes.Fields(tag) {
		k, _, _ := bytes.Cut(f, []byte("="))
		if strings.EqualFold(string(k), name) {
			return true
		}
	}
	return false
}

// scriptHash is the CSP hash source of a script's text as the browser sees it: the
// HTML parser turns CR LF and lone CR into LF before the hash is taken.
func scriptHash(text []byte) string {
	if bytes.IndexByte(text, '\r') >= 0 {
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
		text = bytes.ReplaceAll(text, []byte("\r"), []byte("\n"))
	}
	sum := sha256.Sum256(text)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
