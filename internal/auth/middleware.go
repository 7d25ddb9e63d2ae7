package auth

import (
	"context"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"lineage/internal/httpx"
)

// reqState is what the middleware learned about a request, shared with the handlers
// it wraps (through the context) and with the cookie-writing response writer.
type reqState struct {
	stateful     bool     // the request carried the session cookie (docs/decisions/002)
	session      *session // the live session, or nil
	user         *User    // signed in by session or bearer token
	tokenID      int64    // the bearer token used, if any
	tokenExpired bool     // a bearer token was sent and its access lifetime is over
}

type stateKey struct{}

func stateFrom(ctx context.Context) *reqState {
	st, _ := ctx.Value(stateKey{}).(*reqState)
	if st == nil {
		return &reqState{}
	}
	return st
}

// UserFrom returns the signed-in user of a request that passed Middleware, or nil.
func UserFrom(ctx context.Context) *User { return stateFrom(ctx).user }

// UserID reports the signed-in user's id of a request that passed Middleware. Other
// rooms (members) call it through an interface of their own.
func (s *Service) UserID(r *http.Request) (int64, bool) {
	if u := UserFrom(r.Context()); u != nil {
		return u.ID, true
	}
	return 0, false
}

// Unauthenticated answers 401 {"message":"Unauthenticated."}, the way every room
// refuses a request without a user; an expired bearer token is named in
// WWW-Authenticate.
func (s *Service) Unauthenticated(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, s.log, s.unauthenticated(r))
}

func (s *Service) unauthenticated(r *http.Request) *httpx.Error {
	e := errUnauthenticated()
	if stateFrom(r.Context()).tokenExpired {
		e.Header = http.Header{"Www-Authenticate": {`Bearer error="invalid_token", error_description="The access token expired"`}}
	}
	return e
}

func unsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions && m != http.MethodTrace
}

// Middleware authenticates every request it wraps and protects it against CSRF:
//
//   - A request is stateful when it carries the lineage_session cookie, whatever its
//     Origin or Referer (docs/decisions/002). Its session is loaded; on POST, PUT,
//     PATCH and DELETE the CSRF token must match (X-XSRF-TOKEN, X-CSRF-TOKEN or the
//     form field _token), else 419. Responses renew both cookies.
//   - Otherwise, or when the session has no user, an Authorization: Bearer access
//     token signs the request in. Bearer requests need no CSRF token: browsers never
//     attach one by themselves.
func (s *Service) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		st := &reqState{}
		if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
			st.stateful = true
			se, err := s.loadSession(ctx, c.Value)
			if err != nil {
				writeError(w, r, s.log, err)
				return
			}
			st.session = se
			if se != nil && se.userID != 0 {
				u, err := s.UserByID(ctx, se.userID)
				if err != nil && err != ErrNotFound {
					writeError(w, r, s.log, err)
					return
				}
				st.user = u
			}
		}
		if st.stateful && unsafeMethod(r.Method) && !s.csrfOK(w, r, st.session) {
			writeError(w, r, s.log, &httpx.Error{Code: httpx.ECSRF, Message: msgCSRF})
			return
		}
		if st.user == nil {
			if tok := bearerToken(r); tok != "" {
				u, id, expired, err := s.userByAccessToken(ctx, tok)
				if err != nil {
					writeError(w, r, s.log, err)
					return
				}
				st.user, st.tokenID, st.tokenExpired = u, id, expired
			}
		}
		if st.user != nil && st.user.DisabledAt != nil {
			// Disabling ends the account's sessions and tokens; this covers the
			// requests already under way.
			st.user = nil
		}
		cw := &cookieWriter{ResponseWriter: w, s: s, st: st}
		next.ServeHTTP(cw, r.WithContext(context.WithValue(ctx, stateKey{}, st)))
	})
}

// csrfOK compares the request's CSRF token with the session's in constant time.
func (s *Service) csrfOK(w http.ResponseWriter, r *http.Request, se *session) bool {
	if se == nil {
		return false
	}
	want := []byte(se.csrf)
	check := func(got string) bool {
		return got != "" && subtle.ConstantTimeCompare([]byte(got), want) == 1
	}
	if h := r.Header.Get("X-XSRF-TOKEN"); h != "" {
		// The header echoes the cookie as scripts read it; tolerate percent-encoding.
		if v, err := url.QueryUnescape(h); err == nil {
			h = v
		}
		return check(h)
	}
	if h := r.Header.Get("X-CSRF-TOKEN"); h != "" {
		return check(h)
	}
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	if strings.HasPrefix(ct, "application/x-www-form-urlencoded") || strings.HasPrefix(ct, "multipart/form-data") {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		if strings.HasPrefix(ct, "multipart/") {
			r.ParseMultipartForm(maxBody)
		} else {
			r.ParseForm()
		}
		return check(r.PostFormValue("_token"))
	}
	return false
}

func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// setSession makes se the request's session (after sign-in, sign-out or account
// deletion); the response carries its cookies.
func (st *reqState) setSession(se *session, u *User) {
	st.session, st.user, st.stateful = se, u, true
}

// cookieWriter adds the session cookies of the request's current session to the
// response headers just before they are sent, so that a handler that replaces the
// session (sign-in) sends only the new cookies.
type cookieWriter struct {
	http.ResponseWriter
	s    *Service
	st   *reqState
	done bool
}

func (cw *cookieWriter) WriteHeader(code int) {
	if !cw.done {
		cw.done = true
		if se := cw.st.session; se != nil {
			for _, c := range cw.s.cookies(se) {
				http.SetCookie(cw.ResponseWriter, c)
			}
			cw.Header().Set("Cache-Control", "no-store")
		}
	}
	cw.ResponseWriter.WriteHeader(code)
}

func (cw *cookieWriter) Write(b []byte) (int, error) {
	if !cw.done {
		cw.WriteHeader(http.StatusOK)
	}
	return cw.ResponseWriter.Write(b)
}

func (cw *cookieWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }
