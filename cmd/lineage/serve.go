package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"lineage/internal/config"
	"lineage/internal/pagegen"
	"lineage/internal/server"
	"lineage/internal/store"
)

func runServe(ctx context.Context, args []string) error {
	fs := newFlags("serve", "[--addr HOST:PORT] [--data DIR] [--demo]")
	cfgFn := config.ServeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := cfgFn()
	if err != nil {
		return err
	}
	// A line a request: written in batches (logBuffer), warnings and errors at once.
	logOut := newLogBuffer(os.Stderr, 250*time.Millisecond)
	defer logOut.Close()
	log := slog.New(flushOnWarn{logHandler(logOut), logOut})
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(log)

	ssrSettings, err := server.SSRSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	ssr := &server.SSR{WebDir: cfg.WebDir, Log: log, Settings: ssrSettings}
	if err := ssr.Check(); err != nil {
		return err
	}

	drain, err := drainPeriod(os.Getenv)
	if err != nil {
		return err
	}
	// The listener opens first, so that a load balancer or an operator sees why the
	// instance is not ready yet: /readyz answers 503 with the step it is on.
	ready := server.NewReadiness("starting: opening the database")
	gate := server.NewGate(ready)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           gate,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	defer srv.Close() // on an error before the end; a clean stop shuts down below
	log.Info("listening", "addr", ln.Addr().String(), "public", cfg.PublicURL)

	so := cfg.Store()
	so.SkipMigrate = true // migrated below, once /readyz can say so
	db, err := store.Open(ctx, so)
	if err != nil {
		return err
	}
	defer db.Close()
	// Told to stop while waiting for another instance's lock, or in a migration (which
	// rolls back): a clean stop, not a failure.
	stoppedStarting := func(err error) error {
		if ctx.Err() != nil {
			log.Info("stopped while starting", "step", ready.Reason(), "err", err)
			return nil
		}
		return err
	}
	ready.Set("starting: migrating the database")
	if err := db.Migrate(ctx); err != nil {
		return stoppedStarting(err)
	}
	log.Info("database ready", "dialect", db.Dialect, "where", db.Where)

	// Building the rooms seeds an empty store (the gazetteer, --demo's content, trees,
	// records and plans): instances starting together take turns, and the ones after
	// the first find it seeded.
	ready.Set("starting: preparing the rooms")
	var app *app
	err = db.Exclusive(ctx, "start-up", func(ctx context.Context) error {
		var err error
		app, err = assemble(ctx, cfg, db)
		return err
	})
	if err != nil {
		return stoppedStarting(err)
	}

	pageSettings, err := server.PageCacheSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	pages := server.NewPageCache(pageSettings) // nil when LINEAGE_PAGE_CACHE_BYTES=0
	pageGen := pagegen.NewWatcher(db, func(local bool) {
		if !local {
			app.content.Changed() // before the purge, so the pages rendered next are the new version
		}
		pages.Changed(local)
	})
	if err := pageGen.Start(ctx); err != nil {
		return fmt.Errorf("page cache: %w", err)
	}

	internal := "http://" + loopback(ln.Addr())
	contentAPI := cfg.ContentAPI
	if contentAPI == "" {
		contentAPI = internal + "/content/api/v2"
	}
	ssr.Env = []string{
		"LINEAGE_CONTENT_API=" + contentAPI,
		"LINEAGE_API_URL=" + internal,
		"LINEAGE_PUBLIC_URL=" + cfg.PublicURL,
	}

	gate.Open(server.New(server.Options{
		WebDir:    cfg.WebDir,
		PublicURL: cfg.PublicURL,
		DB:        db,
		SSR:       ssr,
		Mounts:    app.frontDoorMounts(),
		Log:       log,
		PageCache: pages,
		PagesChanged: func(ctx context.Context) {
			if err := pageGen.Raise(ctx); err != nil {
				log.Error("page cache: other servers were not told of a change", "err", err)
				pages.Purge()
			}
		},
		Readiness: ready,
		Checks:    app.readyChecks(),
	}))

	ready.Set("starting: the web app")
	ssrCtx, stopSSR := context.WithCancel(context.Background())
	ssrDone, err := ssr.Run(ssrCtx)
	if err != nil {
		stopSSR()
		srv.Close()
		return fmt.Errorf("start the web app: %w", err)
	}
	ready.Set("")
	fmt.Fprintf(os.Stderr, "Lineage is running at %s\n", cfg.PublicURL)
	printDemoLogins(os.Stderr, cfg.PublicURL, cfg.DataDir, app.demoLogins)

	select {
	case err := <-serveErr:
		stopSSR()
		<-ssrDone
		return err
	case <-ctx.Done():
	}
	// Draining: /readyz answers 503 so that the load balancer sends new requests
	// elsewhere, while this instance still answers what it is sent; then the listener
	// closes and the requests in flight get 15 s to finish. The schedulers have stopped
	// with ctx and released their leases, so another instance takes them over meanwhile.
	ready.Set("draining: shutting down")
	log.Info("shutting down", "drain", drain)
	select {
	case <-time.After(drain):
	case err := <-serveErr:
		stopSSR()
		<-ssrDone
		return err
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = srv.Shutdown(shutCtx)
	stopSSR()
	<-ssrDone
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// drainPeriod reads LINEAGE_DRAIN: how long serve answers 503 on /readyz before it
// stops listening when told to stop, so a load balancer (which probes every few
// seconds) sends it nothing new meanwhile. A Go duration up to 2m; default 5s; 0: none.
func drainPeriod(getenv func(string) string) (time.Duration, error) {
	v := strings.TrimSpace(getenv("LINEAGE_DRAIN"))
	if v == "" {
		return defaultDrain, nil
	}
	if v == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > 2*time.Minute {
		return 0, fmt.Errorf("LINEAGE_DRAIN must be a duration up to 2m, such as 5s, or 0; got %q", v)
	}
	return d, nil
}

// defaultDrain is LINEAGE_DRAIN's default: longer than a load balancer's probe interval
// of a second or two plus its failure threshold.
const defaultDrain = 5 * time.Second

// loopback is the address the SSR child uses to reach this process.
func loopback(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		return fmt.Sprintf("127.0.0.1:%d", tcp.Port)
	}
	return tcp.String()
}
