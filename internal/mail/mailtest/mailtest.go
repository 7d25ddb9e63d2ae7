// Package mailtest runs a real SMTP server (emersion/go-smtp) in the test process and
// keeps what it receives, so tests see mail exactly as a mail server would.
package mailtest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	lmail "lineage/internal/mail"
)

// Received is one message as the server got it.
type Received struct {
	From string
	To   []string
	Raw  string
	// Subject and Body are parsed from Raw (quoted-printable bodies decoded); Body is
	// the whole body as sent, multipart boundaries included.
	Subject string
	Body    string
	// Header is the message's header; Parts are its leaf parts by media type
	// (text/plain, text/html, text/calendar …), transfer encodings decoded, the first
	// of each type. A single-part message has one.
	Header mail.Header
	Parts  map[string]Part
}

// Part is one leaf MIME part.
type Part struct {
	Header textproto.MIMEHeader
	Body   string
}

// Server is an in-process SMTP server on 127.0.0.1.
type Server struct {
	Host     string
	Port     int
	Username string // when set, AUTH PLAIN with Username/Password is required
	Password string

	mu       sync.Mutex
	received []Received
	failNext int
	reject   map[string]bool
	arrived  chan struct{}
	srv      *smtp.Server
}

// Start runs a server until the test ends. With a username, clients must authenticate.
func Start(t testing.TB, username, password string) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Username: username, Password: password, arrived: make(chan struct{}, 100), reject: map[string]bool{}}
	addr := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

// Sender is a plain-text (no TLS, no auth) sender to this server, as from.
func (s *Server) Sender(from string) *lmail.SMTPSender {
	return &lmail.SMTPSender{Host: s.Host, Port: s.Port, TLS: lmail.TLSNone, From: from}
}

func (s *Server) serve(ln net.Listener) {
	srv := smtp.NewServer(s)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	go srv.Serve(ln)
}

// Stop closes the server as a mail server going down would: connections are refused
// until Restart.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// Restart listens again on the same port after Stop.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
	if err != nil {
		t.Fatal(err)
	}
	s.serve(ln)
}

// Reject makes the server refuse every message to addr for good (550, as for an
// address that does not exist), as a bounce at send time.
func (s *Server) Reject(addr string) {
	s.mu.Lock()
	s.reject[strings.ToLower(addr)] = true
	s.mu.Unlock()
}

// FailNext makes the next n messages fail with a temporary error (451), to exercise
// retries.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	s.failNext = n
	s.mu.Unlock()
}

// Messages returns what has arrived so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Wait blocks until at least n messages arrived or the timeout passes.
func (s *Server) Wait(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("mailtest: %d messages after %v, want %d", len(s.Messages()), timeout, n)
		}
	}
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{srv: s}, nil
}

type session struct {
	srv    *Server
	authed bool
	from   string
	to     []string
}

func (se *session) AuthMechanisms() []string {
	if se.srv.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (se *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != se.srv.Username || password != se.srv.Password {
			return errors.New("invalid username or password")
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, opts *smtp.MailOptions) error {
	if se.srv.Username != "" && !se.authed {
		return smtp.ErrAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, opts *smtp.RcptOptions) error {
	se.srv.mu.Lock()
	rejected := se.srv.reject[strings.ToLower(to)]
	se.srv.mu.Unlock()
	if rejected {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user here"}
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	se.srv.mu.Lock()
	if se.srv.failNext > 0 {
		se.srv.failNext--
		se.srv.mu.Unlock()
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	rec := Received{From: se.from, To: se.to, Raw: string(raw)}
	if m, err := mail.ReadMessage(strings.NewReader(rec.Raw)); err == nil {
		rec.Subject = m.Header.Get("Subject")
		rec.Header = m.Header
		body, _ := io.ReadAll(m.Body)
		rec.Body = string(body)
		if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			rec.Body = decodeQP(rec.Body)
		}
		rec.Parts = map[string]Part{}
		collectParts(textproto.MIMEHeader(m.Header), body, rec.Parts)
	}
	se.srv.received = append(se.srv.received, rec)
	se.srv.mu.Unlock()
	select {
	case se.srv.arrived <- struct{}{}:
	default:
	}
	return nil
}

// collectParts walks a MIME entity and keeps its leaf parts, the first of each type.
func collectParts(h textproto.MIMEHeader, body []byte, into map[string]Part) {
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(p)
			collectParts(p.Header, b, into)
		}
	}
	if _, seen := into[mt]; seen {
		return
	}
	text := string(body)
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		text = decodeQP(text)
	case "base64":
		if b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), "")); err == nil {
			text = string(b)
		}
	}
	into[mt] = Part{Header: h, Body: text}
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }
