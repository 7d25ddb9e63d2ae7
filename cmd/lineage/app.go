package main

import (
	"context"
	"errors"
	"fmt"
	researchdemo "lineage/internal/research/demo"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/blob"
	"lineage/internal/config"
	"lineage/internal/content"
	"lineage/internal/events"
	"lineage/internal/iiif"
	"lineage/internal/jobs"
	"lineage/internal/mail"
	"lineage/internal/members"
	"lineage/internal/membership"
	"lineage/internal/newsletter"
	"lineage/internal/payments"
	"lineage/internal/research"
	"lineage/internal/server"
	staffroom "lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// app holds the domain services of a running server and the routes they mount.
type app struct {
	accounts *auth.Service    // set by addAccounts; rooms with signed-in users wrap their handlers in its middleware
	members  *members.Service // set by addAccounts; the account area (bookmarks, lists, searches)
	content  *content.Service // set by addContent; the Prismic-compatible content API and media
	blobs    blob.Store       // set by addContent; the file storage (/readyz asks whether it answers)
	images   *iiif.Service    // set by addImages; the IIIF image server, manifests and images API
	// membership is set by addMembership; the payments room reports card payments to it
	// (its Paid, PaymentFailed, SubscriptionChanged and Refunded).
	membership *membership.Service
	payments   *payments.Service // set by addPayments; card payments (Stripe) for the membership room
	trees      *trees.Service    // set by addTrees; fills the global search's 'family trees' group
	research   *research.Service // set by addResearch; the research hub's records, catalogues and searches
	events     *events.Service   // set by addEvents; event bookings (payments kind "booking")
	outbox     *mail.Outbox      // set by addAccounts; the membership renewal job's reminders go through it
	demoLogins []demoLogin       // set by addDemoAccounts (--demo): printed at start-up
	// jobs runs each room's scheduler under its lease, so that of several instances on
	// one store exactly one runs it (internal/jobs). Set by assemble before any room, or
	// by addAccounts when a test builds rooms one by one.
	jobs *jobs.Runner

	newsletter *newsletter.Service // set by addNewsletter; lists, editions and saved-search alerts

	staff *staffroom.Service // set by addStaff; the studio's records, scans, trees and people tools
	audit *audit.Log         // set by assemble; every staff action, the studio's content writes included
}

// assemble builds every domain service on the open store. It is the one place that
// knows all the rooms; each room knows only its own.
func assemble(ctx context.Context, cfg config.Config, db *store.DB) (*app, error) {
	a := &app{jobs: jobs.New(db, jobs.Options{Log: slog.Default()}), audit: audit.New(db, nil)}
	if err := a.addContent(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addAccounts(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addPayments(cfg, db); err != nil {
		return nil, err
	}
	if err := a.addMembership(ctx, cfg, db); err != nil {
		return nil, err
	}
	a.connectPayments()
	if err := a.addRenewals(ctx, cfg); err != nil {
		return nil, err
	}
	if err := a.addEvents(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addTrees(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addResearch(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addImages(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addNewsletter(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addStaff(ctx, cfg, db); err != nil {
		return nil, err
	}
	if err := a.addDemoAccounts(ctx, cfg); err != nil {
		return nil, err
	}
	return a, nil
}

// readyChecks are what /readyz asks of the rooms besides the database and the web app.
// The file storage out of reach, or a scan whose files this instance cannot reach, is
// reported without taking the instance out of service (storageCheck, iiif's
// Unreachable).
func (a *app) readyChecks() []server.Check {
	return []server.Check{
		storageCheck(a.blobs),
		{Name: "images", Warn: true, Err: func() error { return a.images.Unreachable(time.Now()) }},
	}
}

// addAccounts builds mail, auth and members: sign-in, accounts and the account area.
// Their background work (mail delivery on every instance, sweeping expired sessions on
// the one holding the lease) runs until ctx ends.
func (a *app) addAccounts(ctx context.Context, cfg config.Config, db *store.DB) error {
	log := slog.Default()
	sender, err := mail.FromEnv(os.Getenv, cfg.DataDir, cfg.PublicURL, log)
	if err != nil {
		return err
	}
	outbox := mail.NewOutbox(db, sender, log)
	a.outbox = outbox
	oidc, err := auth.OIDCFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	accounts := auth.New(db, auth.Options{PublicURL: cfg.PublicURL, Mailer: outbox, Log: log, OIDC: oidc})
	area := members.New(db, accounts, log)
	accounts.AddExporter(area)
	a.accounts = accounts
	a.members = area
	a.ensureJobs(db)
	// Every instance delivers mail: the outbox claims each message before sending it.
	go outbox.Run(ctx)
	go a.jobs.Run(ctx, "auth-sweeper", func(ctx context.Context) { accounts.RunSweeper(ctx, 10*time.Minute) })
	return nil
}

// addMembership builds the membership room behind the accounts middleware and makes
// its scope rule part of every signed-in user's scope; with --demo an empty store gets
// a few plans.
func (a *app) addMembership(ctx context.Context, cfg config.Config, db *store.DB) error {
	svc := newMembership(db, a.accounts, withCheckout(a.payments, cfg.PublicURL))
	if err := loadDemo(cfg.Demo, "plans", func() (bool, error) { return svc.LoadDemoPlans(ctx) }, "demo membership plans loaded"); err != nil {
		return err
	}
	a.membership = svc
	a.accounts.AddExporter(membership.GiftAidExporter{Service: svc}) // "download my data" holds Gift Aid declarations
	a.accounts.AddExporter(membership.ConsentExporter{Service: svc}) // and marketing consents
	return nil
}

// societyName is the name the rooms sign their mail and receipts with:
// LINEAGE_SOCIETY_NAME, or "Lineage".
func societyName() string {
	if name := os.Getenv("LINEAGE_SOCIETY_NAME"); name != "" {
		return name
	}
	return "Lineage"
}

// newMembership builds the membership room on the accounts of the same store and
// installs its scope rule in them (serve and the lineage member commands).
func newMembership(db *store.DB, accounts *auth.Service, with ...func(*membership.Options)) *membership.Service {
	opt := membership.Options{Viewer: membershipViewer, Accounts: membershipAccounts{accounts}, SocietyName: societyName(), Log: slog.Default()}
	for _, w := range with {
		w(&opt)
	}
	svc := membership.New(db, opt)
	accounts.SetScopeSource(svc.ScopesFor)
	return svc
}

// membershipViewer tells the membership room who is signed in.
func membershipViewer(r *http.Request) membership.Viewer {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return membership.Viewer{}
	}
	return membership.Viewer{ID: u.ID, Name: u.Name, Email: u.Email, Admin: u.Role == auth.RoleAdmin}
}

// membershipAccounts finds and makes accounts for the membership room's imports.
type membershipAccounts struct{ a *auth.Service }

func (m membershipAccounts) AccountID(ctx context.Context, email string) (int64, error) {
	u, err := m.a.UserByEmail(ctx, email)
	if errors.Is(err, auth.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return u.ID, nil
}

// EnsureAccount makes a verified account without a password: the list came from the
// society, and the person sets a password by "forgot password".
func (m membershipAccounts) EnsureAccount(ctx context.Context, email, name string) (int64, error) {
	u, err := m.a.CreateUser(ctx, auth.NewUser{Email: email, Name: name, Verified: true})
	if errors.Is(err, auth.ErrEmailTaken) {
		return m.AccountID(ctx, email)
	}
	if err != nil {
		return 0, err
	}
	return u.ID, nil
}

// addContent builds the Prismic-compatible content API and, with --demo, loads the demo
// editorial set into an empty store.
func (a *app) addContent(ctx context.Context, cfg config.Config, db *store.DB) error {
	opts, err := contentOptions(cfg)
	if err != nil {
		return err
	}
	blobs, err := cfg.OpenBlobs(ctx) // media live beside the scans: a bucket shared by every instance, or the data folder
	if err != nil {
		return err
	}
	a.blobs = blobs
	opts.Blobs = blobs
	opts.Audit = a.audit.Hook(slog.Default())
	svc := content.New(db, opts)
	load := func() (bool, error) { return content.LoadDemo(ctx, svc, filepath.Join(cfg.DemoDir, "content")) }
	if err := loadDemo(cfg.Demo, "content", load, "demo content loaded", "from", cfg.DemoDir); err != nil {
		return err
	}
	a.content = svc
	// Scheduled releases and outgoing webhooks: each is also claimed in the store, so the
	// lease only spares the other instances the polling.
	a.ensureJobs(db)
	go a.jobs.Run(ctx, "content-releases", func(ctx context.Context) { svc.RunReleases(ctx, releaseCheckEvery) })
	return nil
}

// loadDemo is a room's part of --demo: when on, it runs load, which fills an empty
// store only, and logs done (with attrs) when it loaded something. Its error names what.
func loadDemo(on bool, what string, load func() (bool, error), done string, attrs ...any) error {
	if !on {
		return nil
	}
	loaded, err := load()
	if err != nil {
		return fmt.Errorf("load demo %s: %w", what, err)
	}
	if loaded {
		slog.Info(done, attrs...)
	}
	return nil
}

// ensureJobs sets a.jobs when a test builds the rooms one by one rather than through
// assemble.
func (a *app) ensureJobs(db *store.DB) {
	if a.jobs == nil {
		a.jobs = jobs.New(db, jobs.Options{Log: slog.Default()})
	}
}

// demoResearchRecords is how many generated records serve --demo loads into an empty
// research hub: enough to search, quick to load.
const demoResearchRecords = 3000

// addResearch builds the research hub (its routes, behind the accounts middleware so
// that members see members-only records in full, are in routes.go); with --demo an empty hub gets generated
// records and a small library and archive.
func (a *app) addResearch(ctx context.Context, cfg config.Config, db *store.DB) error {
	svc := research.New(db, research.Options{Members: memberCheck{}, Log: slog.Default()})
	if a.trees != nil {
		svc.SetTreeSearcher(a.trees)
	}
	if err := svc.Init(ctx); err != nil {
		return fmt.Errorf("research: %w", err)
	}
	if err := svc.RepairIndexes(ctx); err != nil {
		return fmt.Errorf("research: %w", err)
	}
	if cfg.Demo {
		has, err := svc.HasRecords(ctx)
		if err != nil {
			return err
		}
		if !has {
			if err := researchdemo.Load(ctx, svc, demoResearchRecords, 1, nil); err != nil {
				return fmt.Errorf("load demo records: %w", err)
			}
			slog.Info("demo research records loaded", "records", demoResearchRecords)
		}
	}
	a.research = svc
	return nil
}

// addTrees builds the family trees' API behind the accounts middleware (owners, editors
// and admins see the living and unpublished trees); with --demo an empty store gets the
// demo tree (docs/trees.md).
func (a *app) addTrees(ctx context.Context, cfg config.Config, db *store.DB) error {
	var lim trees.Limits
	if err := lim.ReadEnv(os.Getenv); err != nil {
		return err
	}
	svc := trees.New(db, trees.Options{Viewer: treeViewer, Log: slog.Default(), Limits: lim})
	load := func() (bool, error) { return svc.LoadDemo(ctx, filepath.Join(cfg.DemoDir, "trees", trees.DemoFile)) }
	if err := loadDemo(cfg.Demo, "tree", load, "demo family tree loaded", "tree", trees.DemoSlug); err != nil {
		return err
	}
	a.trees = svc
	return nil
}

// treeViewer tells the trees room who is signed in.
func treeViewer(ctx context.Context) trees.Viewer {
	if v, ok := ctx.Value(alertViewerKey{}).(trees.Viewer); ok {
		return v // an alert's search, run for its member (newsletter_finders.go)
	}
	if u := auth.UserFrom(ctx); u != nil {
		return trees.Viewer{ID: u.ID, Name: u.Name, Role: u.Role, Scope: u.Scope}
	}
	return trees.Viewer{}
}

// memberCheck is the research and images rooms' Membership: the signed-in account's
// scope ("registered", a membership's plan scopes while it is in force, a staff
// role's), which a record's or scan's access level opens or not; nil when anonymous.
type memberCheck struct{}

func (memberCheck) Scope(r *http.Request) []string {
	if u := auth.UserFrom(r.Context()); u != nil {
		return u.Scope
	}
	return nil
}
