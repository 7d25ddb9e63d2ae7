package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
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
	log := slog.Default()

	ssrSettings, err := server.SSRSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	ssr := &server.SSR{WebDir: cfg.WebDir, Log: log, Settings: ssrSettings}
	if err := ssr.Check(); err != nil {
		return err
	}

	db, err := store.Open(ctx, cfg.Store())
	if err != nil {
		return err
	}
	defer db.Close()
	log.Info("database ready", "dialect", db.Dialect, "where", db.Where)

	app, err := assemble(ctx, cfg, db)
	if err != nil {
		return err
	}

	pageSettings, err := server.PageCacheSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	pages := server.NewPageCache(pageSettings) // nil when LINEAGE_PAGE_CACHE_BYTES=0
	pageGen := pagegen.NewWatcher(db, pages.Changed)
	if err := pageGen.Start(ctx); err != nil {
		return fmt.Errorf("page cache: %w", err)
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
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

	srv := &http.Server{
		Handler: server.New(server.Options{
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
		}),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "public", cfg.PublicURL)

	ssrCtx, stopSSR := context.WithCancel(context.Background())
	ssrDone, err := ssr.Run(ssrCtx)
	if err != nil {
		stopSSR()
		srv.Close()
		return fmt.Errorf("start the web app: %w", err)
	}
	fmt.Fprintf(os.Stderr, "Lineage is running at %s\n", cfg.PublicURL)
	printDemoLogins(os.Stderr, cfg.PublicURL, cfg.DataDir, app.demoLogins)

	select {
	case err := <-serveErr:
		stopSSR()
		<-ssrDone
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
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
