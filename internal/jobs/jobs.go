package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"lineage/internal/store"
)

// DefaultTTL is how long a lease lasts without renewal: how long a dead holder's job
// waits before another instance takes it over (plus at most a try's interval).
const DefaultTTL = 20 * time.Second

// Options configure a Runner. Zero values are the defaults.
type Options struct {
	// Holder names this instance in the leases table; default: host name, process id
	// and a random suffix (Holder()).
	Holder string
	// TTL is a lease's length (DefaultTTL).
	TTL time.Duration
	// Every is how often a waiting instance tries to acquire a lease and a holder renews
	// it (TTL/4: a holder renews three times before its lease could run out).
	Every time.Duration
	// Now is the clock of the leases (time.Now).
	Now func() time.Time
	Log *slog.Logger
}

// Runner runs jobs under leases on one store.
type Runner struct {
	db  *store.DB
	opt Options

	mu   sync.Mutex
	held map[string]bool
}

// New returns a Runner on db.
func New(db *store.DB, opt Options) *Runner {
	if opt.Holder == "" {
		opt.Holder = Holder()
	}
	if opt.TTL <= 0 {
		opt.TTL = DefaultTTL
	}
	if opt.Every <= 0 {
		opt.Every = opt.TTL / 4
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return &Runner{db: db, opt: opt, held: map[string]bool{}}
}

// Holder is a name for this process that no other process shares: the host name and
// process id (for people reading the leases table) and a random suffix (two containers
// may both be process 1 on hosts of the same name).
func Holder() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b)
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Holder is the name this runner holds leases under.
func (r *Runner) Holder() string { return r.opt.Holder }

// Held lists the leases this runner holds now (for logs and tests).
func (r *Runner) Held() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for n, ok := range r.held {
		if ok {
			out = append(out, n)
		}
	}
	return out
}

func (r *Runner) setHeld(name string, held bool) {
	r.mu.Lock()
	r.held[name] = held
	r.mu.Unlock()
}

// Run runs job while this instance holds the lease called name, until ctx ends. It
// tries to acquire the lease every Options.Every; once it holds it, it starts job with
// a context that ends when ctx ends or when a renewal finds the lease lost (or cannot
// reach the store before the lease would run out), and waits for job to return. Then
// it releases the lease (when ctx ended, so another instance takes over at once) or
// goes back to trying. job is the scheduler's own loop, such as
// func(ctx context.Context) { svc.Run(ctx, every) }; should it return while the lease
// is held, Run releases the lease and returns too.
func (r *Runner) Run(ctx context.Context, name string, job func(ctx context.Context)) {
	log := r.opt.Log.With("job", name)
	t := time.NewTicker(r.opt.Every)
	defer t.Stop()
	for {
		ok, err := r.db.AcquireLease(ctx, name, r.opt.Holder, r.opt.Now(), r.opt.TTL)
		if err != nil && ctx.Err() == nil {
			log.Error("jobs: acquire lease", "err", err)
		}
		if ok {
			if finished := r.hold(ctx, name, job, t, log); finished {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Repeat calls run at once, then every interval and whenever wake receives (a nil
// wake never does), until ctx ends: the loop of a scheduler that Run keeps to one
// instance, or of a worker every instance runs.
func Repeat(ctx context.Context, every time.Duration, wake <-chan struct{}, run func(ctx context.Context)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		run(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
	}
}

// hold runs job under the acquired lease until ctx ends, the lease is lost or job
// returns; it reports whether Run is over.
func (r *Runner) hold(ctx context.Context, name string, job func(ctx context.Context), t *time.Ticker, log *slog.Logger) bool {
	r.setHeld(name, true)
	defer r.setHeld(name, false)
	log.Info("jobs: this instance runs the job", "holder", r.opt.Holder)
	jobCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		job(jobCtx)
	}()
	renewed := r.opt.Now()
	release := func() {
		// A fresh context: ctx may have ended, and the release is what lets another
		// instance take over without waiting for the lease to expire.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := r.db.ReleaseLease(rctx, name, r.opt.Holder); err != nil {
			log.Error("jobs: release lease", "err", err)
		}
	}
	for {
		select {
		case <-done:
			release()
			return true
		case <-ctx.Done():
			<-done
			release()
			return true
		case <-t.C:
		}
		now := r.opt.Now()
		ok, err := r.db.RenewLease(ctx, name, r.opt.Holder, now, r.opt.TTL)
		switch {
		case err != nil && ctx.Err() != nil:
			continue // shutting down: the next select sees it
		case err != nil && now.Sub(renewed) < r.opt.TTL-r.opt.Every:
			log.Warn("jobs: renew lease", "err", err)
			continue // the lease still has time: try again at the next tick
		case err != nil:
			log.Error("jobs: could not renew the lease before it runs out; stopping the job", "err", err)
		case !ok:
			log.Warn("jobs: lease lost to another instance; stopping the job")
		default:
			renewed = now
			continue
		}
		r.setHeld(name, false)
		stop()
		<-done
		return false
	}
}
