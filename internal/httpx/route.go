package httpx

import (
	"log/slog"
	"net/http"
)

// HandlerFunc is an API handler: it writes its answer, or returns the error its room
// answers with WriteError.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Plain makes a handler that writes every answer itself a HandlerFunc: the rooms that
// emulate another service's protocol (the Prismic content API, the IIIF Image API)
// answer its errors in its own shape.
func Plain(h http.HandlerFunc) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h(w, r)
		return nil
	}
}

// Guard makes fn, a room's handler that is told who asks, a HandlerFunc: who reads the
// caller off the request (the room's own viewer type), and check, when not nil,
// returns the error a caller the route is not for is answered with (a 401 or a 403 in
// the room's words). Rooms build their access adapters (Staff, Admin, …) on it.
func Guard[V any](who func(*http.Request) V, check func(V) error, fn func(http.ResponseWriter, *http.Request, V) error) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v := who(r)
		if check != nil {
			if err := check(v); err != nil {
				return err
			}
		}
		return fn(w, r, v)
	}
}

// Access says who may call a route. The handler (or the room's adapter it is wrapped
// in) enforces it; the route table states it so that one file shows who may call
// what, and cmd/lineage's tests hold each row to it.
type Access string

const (
	Public   Access = "public"    // anyone; what is answered may depend on who asks
	SignedIn Access = "signed-in" // an account (session or token); 401 otherwise
	Owner    Access = "owner"     // the resource's owner or staff; 401 anonymously, 403 to others
	Staff    Access = "staff"     // an editor or an admin; 401 anonymously, 403 to others
	Admin    Access = "admin"     // an admin; 401 anonymously, 403 to other accounts
	Stripe   Access = "stripe"    // a request signed with the Stripe webhook secret; 400 otherwise
)

// Route is one row of the HTTP API's table (cmd/lineage/routes.go).
type Route struct {
	Pattern string // a ServeMux pattern, with its method unless every method is served
	Handler HandlerFunc
	Access  Access
	// ChangesPages: a 2xx answer changes what anonymous visitors see, so the front door
	// purges its page cache before the answer leaves (internal/server, decision 015).
	ChangesPages bool
}

// Room is one domain's part of the route table: its routes, the middleware around
// them, and the paths under which it answers what no route matches.
type Room struct {
	Name string       // prefixes its errors in the log
	Log  *slog.Logger // nil: slog.Default()
	// Session wraps every route and the fallback (auth's session middleware); nil: none.
	Session func(http.Handler) http.Handler
	// Fallback are ServeMux patterns (prefixes mostly) under which a request no route
	// matches is answered in JSON: 405 with Allow when the path takes other methods
	// (from this room's routes only), else 404.
	Fallback []string
	Routes   []Route
}

// Mount is a pattern and the handler that serves it, as the front door registers it.
type Mount struct {
	Pattern      string
	Handler      http.Handler
	ChangesPages bool // from the route's row
}

// Mounts are the room's routes and fallbacks, each wrapped in the room's middleware.
func (rm Room) Mounts() []Mount {
	log := rm.Log
	if log == nil {
		log = slog.Default()
	}
	fail := func(w http.ResponseWriter, r *http.Request, err error) { WriteError(w, r, log, rm.Name, err) }
	wrap := func(h http.Handler) http.Handler {
		if rm.Session != nil {
			return rm.Session(h)
		}
		return h
	}
	own := http.NewServeMux()
	var out []Mount
	for _, rt := range rm.Routes {
		fn := rt.Handler
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := fn(w, r); err != nil {
				fail(w, r, err)
			}
		})
		own.Handle(rt.Pattern, h)
		out = append(out, Mount{Pattern: rt.Pattern, Handler: wrap(h), ChangesPages: rt.ChangesPages})
	}
	if len(rm.Fallback) > 0 {
		noRoute := wrap(NoRoute(own,
			func(w http.ResponseWriter, r *http.Request) {
				fail(w, r, &Error{Code: ENOTFOUND, Message: "Not Found"})
			},
			func(w http.ResponseWriter, r *http.Request) {
				fail(w, r, &Error{Code: EMETHOD, Message: "The " + r.Method + " method is not supported for this URL."})
			}))
		for _, p := range rm.Fallback {
			out = append(out, Mount{Pattern: p, Handler: noRoute})
		}
	}
	return out
}

// Serve serves rooms on one ServeMux, as the front door does: for tests of a room and
// for anything else that serves part of the API alone.
func Serve(rooms ...Room) *http.ServeMux {
	mux := http.NewServeMux()
	for _, rm := range rooms {
		for _, m := range rm.Mounts() {
			mux.Handle(m.Pattern, m.Handler)
		}
	}
	return mux
}
