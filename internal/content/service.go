package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"lineage/internal/blob"
	"lineage/internal/store"
)

// Options configure a Service.
type Options struct {
	// PublicURL is the site's public origin (http://localhost:8080). Absolute URLs in
	// responses (forms action, href, next_page, media) use it; when empty they use the
	// request's host.
	PublicURL string
	// DataDir is the data directory; media live in DataDir/files/media unless Blobs is
	// set.
	DataDir string
	// Blobs keeps the media (under media/); nil: the local folder DataDir/files.
	Blobs blob.Store
	// AccessToken, when set, makes the API private: requests need ?access_token=.
	// Preview refs work with or without it.
	AccessToken string
	// MasterLanguage is the language searches use when they give no lang. When empty it
	// is the language most documents are in (en-gb for an empty repository).
	MasterLanguage string
	// RefCheckInterval is how long a request may trust this instance's idea of the
	// current master ref before asking the database again. Zero means one second;
	// negative means ask on every request. Publishing through this instance is seen at
	// once either way; another instance's publish is seen within the interval.
	RefCheckInterval time.Duration
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time

	// Editor tells the studio's handlers who is signed in (cmd/lineage reads the
	// session); nil: nobody, so every studio route answers 401.
	Editor func(r *http.Request) Editor
	// Audit, when set, is told of every studio write: who, what ("content.publish"),
	// the subject ("content_document:<id>") and the state before and after.
	Audit func(ctx context.Context, actorID int64, action, subject string, before, after any)
	// Webhooks are sent Prismic's api-update body on every publish, unpublish and
	// release (studio_webhooks.go).
	Webhooks []Webhook
	// HTTPClient sends the webhooks; nil: a client with a 10-second timeout.
	HTTPClient *http.Client
	// PagesChanged is called after the release scheduler published something, so that
	// page caches are purged; nil: the store's page generation is raised
	// (internal/pagegen). Publishing through the studio's routes purges through the
	// route table's ChangesPages instead.
	PagesChanged func(ctx context.Context)
}

// Service is the content room's API: it stores documents and refs in the database and
// answers Prismic REST v2 searches from per-ref in-memory snapshots.
type Service struct {
	db   *store.DB
	opts Options

	mu   sync.Mutex
	st   repoState
	stAt time.Time
	// changes counts Changed calls: a state read that began before one is not trusted
	// for RefCheckInterval, since it may predate the change it was told of.
	changes  uint64
	master   *snapshot             // the current master's snapshot, if loaded
	preview  draftView             // every draft over published
	previews map[string]previewRef // preview token → expiry and release, as read from the database
	// relPreview is the last release preview loaded (drafts of one release's documents
	// over published).
	relPreview draftView

	loadMu sync.Mutex // one snapshot load at a time

	webhookKick chan struct{}        // wakes RunReleases to send webhooks queued by a request
	listCache   map[string]listEntry // the studio list's titles and words by document (studio.go)
	modelCache  map[string]any       // admins' stored models parsed, by their JSON (studio_models.go)
}

// New returns the content service over db.
func New(db *store.DB, opts Options) *Service {
	opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	if opts.RefCheckInterval == 0 {
		opts.RefCheckInterval = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: db, opts: opts, previews: map[string]previewRef{}, webhookKick: make(chan struct{}, 1)}
}

func (s *Service) now() time.Time { return s.opts.Now().UTC() }

// state returns the current master ref and revision, from memory when it was read
// within RefCheckInterval and fresh is false.
func (s *Service) state(ctx context.Context, fresh bool) (repoState, error) {
	s.mu.Lock()
	if !fresh && s.opts.RefCheckInterval > 0 && !s.stAt.IsZero() && time.Since(s.stAt) < s.opts.RefCheckInterval {
		st := s.st
		s.mu.Unlock()
		return st, nil
	}
	changes := s.changes
	s.mu.Unlock()
	st, err := readState(ctx, s.db)
	if err != nil {
		return st, err
	}
	s.noteState(st, changes)
	return st, nil
}

// Changed says the content may have changed in another process (pagegen's notification
// of a publish elsewhere): the next request reads the master ref from the database
// rather than trust, for up to RefCheckInterval, what this instance read before, so the
// page cache this notification purged is refilled with the new version at once.
func (s *Service) Changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changes++
	s.stAt = time.Time{}
}

// noteState records a state read from the database, begun when the Changed count was
// changes, and drops snapshots it outdates.
func (s *Service) noteState(st repoState, changes uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st, s.stAt = st, time.Now()
	if changes != s.changes {
		s.stAt = time.Time{}
	}
	if s.master != nil && s.master.ref != st.master {
		s.master = nil
	}
	for _, v := range []*draftView{&s.preview, &s.relPreview} {
		if v.snap != nil && v.rev != st.revision {
			v.snap = nil
		}
	}
}

// draftView is a snapshot of drafts over published documents, as of a revision: of
// every draft (release "") or of one release's documents.
type draftView struct {
	snap    *snapshot
	release string
	rev     int64
}

// previewRef is what a preview token is: its expiry, and the release it previews ("":
// every draft).
type previewRef struct {
	expires time.Time
	release string
}

// refCandidates lists the spellings a ref may arrive in: as sent; URL-decoded once (the
// client copies the preview cookie verbatim); and the preview URL inside the JSON cookie
// the hosted Prismic toolbar writes ({"repo.prismic.io":{"preview":"…"}}).
func refCandidates(ref string) []string {
	out := []string{ref}
	add := func(r string) {
		if r != "" && len(out) < 6 {
			for _, o := range out {
				if o == r {
					return
				}
			}
			out = append(out, r)
		}
	}
	if u, err := url.QueryUnescape(ref); err == nil {
		add(u)
	}
	for _, r := range append([]string(nil), out...) {
		if strings.HasPrefix(strings.TrimSpace(r), "{") {
			var cookie map[string]map[string]any
			if json.Unmarshal([]byte(r), &cookie) == nil {
				for _, v := range cookie {
					if p, ok := v["preview"].(string); ok {
						add(p)
					}
				}
			}
		}
	}
	return out
}

// snapshotFor resolves a ref to the snapshot it sees and the ref's canonical spelling.
func (s *Service) snapshotFor(ctx context.Context, ref string) (*snapshot, string, error) {
	if ref == "" {
		return nil, "", invalidf("The 'ref' parameter is required")
	}
	if len(ref) > 2048 {
		st, err := s.state(ctx, false)
		if err != nil {
			return nil, "", err
		}
		return nil, "", refNotFound(st.master)
	}
	st, err := s.state(ctx, false)
	if err != nil {
		return nil, "", err
	}
	cands := refCandidates(ref)
	for _, r := range cands {
		if r == st.master {
			snap, err := s.masterSnapshot(ctx, r)
			return snap, r, err
		}
	}
	for _, r := range cands {
		kind, pv, err := s.lookupRef(ctx, r)
		if err != nil {
			return nil, "", err
		}
		switch kind {
		case "preview":
			if !s.now().Before(pv.expires) {
				return nil, "", errPreviewExpired
			}
			snap, err := s.previewSnapshot(ctx, pv.release)
			return snap, r, err
		case "master":
			// Either an old master, or a new one another instance published since our
			// last look at the state.
			st, err := s.state(ctx, true)
			if err != nil {
				return nil, "", err
			}
			if r == st.master {
				snap, err := s.masterSnapshot(ctx, r)
				return snap, r, err
			}
			return nil, "", refExpired(st.master)
		}
	}
	st, err = s.state(ctx, true)
	if err != nil {
		return nil, "", err
	}
	return nil, "", refNotFound(st.master)
}

// isPreviewRef reports whether ref is a preview token (expired or not); the HTTP layer
// lets preview refs through without the access token.
func (s *Service) isPreviewRef(ctx context.Context, ref string) bool {
	for _, r := range refCandidates(ref) {
		if kind, _, err := s.lookupRef(ctx, r); err == nil && kind == "preview" {
			return true
		}
	}
	return false
}

const maxCachedPreviews = 1024

func (s *Service) lookupRef(ctx context.Context, ref string) (string, previewRef, error) {
	s.mu.Lock()
	pv, ok := s.previews[ref]
	s.mu.Unlock()
	if ok {
		return "preview", pv, nil
	}
	kind, exp, release, err := lookupRef(ctx, s.db, ref)
	pv = previewRef{expires: exp, release: release}
	if err == nil && kind == "preview" {
		s.mu.Lock()
		if len(s.previews) >= maxCachedPreviews {
			s.previews = map[string]previewRef{}
		}
		s.previews[ref] = pv
		s.mu.Unlock()
	}
	return kind, pv, err
}

// masterSnapshot returns the snapshot of the current master, loading it if needed. It
// answers 410 if the master moved on before the load finished.
func (s *Service) masterSnapshot(ctx context.Context, ref string) (*snapshot, error) {
	if snap := s.cachedMaster(ref); snap != nil {
		return snap, nil
	}
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	if snap := s.cachedMaster(ref); snap != nil {
		return snap, nil
	}
	snap, st, err := s.load(ctx, false)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.st.revision <= st.revision {
		s.master = snap
	}
	s.mu.Unlock()
	if snap.ref != ref {
		return nil, refExpired(snap.ref)
	}
	return snap, nil
}

func (s *Service) cachedMaster(ref string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.master != nil && s.master.ref == ref {
		return s.master
	}
	return nil
}

// previewSnapshot returns drafts over published documents as of the current revision:
// every draft, or with a release only its documents' (adding or removing a document of
// a release raises the revision too). Each of the two keeps the last one loaded.
func (s *Service) previewSnapshot(ctx context.Context, release string) (*snapshot, error) {
	st, err := s.state(ctx, false)
	if err != nil {
		return nil, err
	}
	view := &s.preview
	if release != "" {
		view = &s.relPreview
	}
	cached := func() *snapshot {
		s.mu.Lock()
		defer s.mu.Unlock()
		if view.snap != nil && view.release == release && view.rev == st.revision {
			return view.snap
		}
		return nil
	}
	if snap := cached(); snap != nil {
		return snap, nil
	}
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	if snap := cached(); snap != nil {
		return snap, nil
	}
	snap, loaded, err := s.loadOf(ctx, true, release)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.st.revision <= loaded.revision {
		*view = draftView{snap: snap, release: release, rev: loaded.revision}
	}
	s.mu.Unlock()
	return snap, nil
}

// load reads documents between two reads of the state; if the state moved in between,
// it tries again, so the snapshot always matches the state it is filed under.
func (s *Service) load(ctx context.Context, withDrafts bool) (*snapshot, repoState, error) {
	return s.loadOf(ctx, withDrafts, "")
}

// loadOf is load; with a release, only its documents' drafts are seen.
func (s *Service) loadOf(ctx context.Context, withDrafts bool, release string) (*snapshot, repoState, error) {
	for attempt := 0; attempt < 5; attempt++ {
		s.mu.Lock()
		changes := s.changes
		s.mu.Unlock()
		before, err := readState(ctx, s.db)
		if err != nil {
			return nil, before, err
		}
		rows, err := loadRowsOf(ctx, s.db, withDrafts, release)
		if err != nil {
			return nil, before, err
		}
		after, err := readState(ctx, s.db)
		if err != nil {
			return nil, before, err
		}
		if before != after && (withDrafts || before.master != after.master) {
			continue
		}
		snap, err := buildSnapshot(before.master, withDrafts, rows, s.opts.MasterLanguage)
		if err != nil {
			return nil, before, err
		}
		s.noteState(after, changes)
		return snap, after, nil
	}
	return nil, repoState{}, fmt.Errorf("content: the repository kept changing while loading a snapshot")
}

// Publish stores documents as published and moves the master ref once for the batch.
// Publication dates are set by the service: first_publication_date is kept for a
// document published before. A document's draft is consumed. It returns the new
// master ref.
func (s *Service) Publish(ctx context.Context, docs ...Document) (string, error) {
	if err := normalizeBatch(docs); err != nil {
		return "", err
	}
	return s.write(ctx, docs, modePublish)
}

// Import stores documents as published exactly as given, publication dates included
// (now when absent), in one transaction that moves the master ref once. Drafts are left
// alone. Documents not in the batch are kept.
func (s *Service) Import(ctx context.Context, docs []Document) (string, error) {
	if err := normalizeBatch(docs); err != nil {
		return "", err
	}
	return s.write(ctx, docs, modeImport)
}

func (s *Service) write(ctx context.Context, docs []Document, mode publishMode) (string, error) {
	ref, err := writeDocuments(ctx, s.db, docs, mode, s.now())
	if err != nil {
		return "", err
	}
	if _, err := s.state(ctx, true); err != nil {
		return "", err
	}
	return ref, nil
}

func normalizeBatch(docs []Document) error {
	seen := map[string]int{}
	for i := range docs {
		if err := docs[i].normalize(); err != nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("content: document %d (%s): %v", i+1, docName(docs[i]), err)}
		}
		if j, dup := seen[docs[i].ID]; dup {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("content: documents %d and %d have the same id %s", j+1, i+1, docs[i].ID)}
		}
		seen[docs[i].ID] = i
	}
	return nil
}

func docName(d Document) string {
	switch {
	case d.ID != "":
		return d.ID
	case d.UID != "":
		return d.Type + "/" + d.UID
	}
	return "no id"
}

// Unpublish withdraws the published versions of documents (drafts stay) and moves the
// master ref. Links to them become isBroken.
func (s *Service) Unpublish(ctx context.Context, ids ...string) (string, error) {
	ref, err := unpublish(ctx, s.db, ids, s.now())
	if err != nil {
		return "", err
	}
	if _, err := s.state(ctx, true); err != nil {
		return "", err
	}
	return ref, nil
}

// SaveDraft stores a draft version of a document (creating it unpublished if new). Only
// preview refs see drafts. It returns the document's ID.
func (s *Service) SaveDraft(ctx context.Context, doc Document) (string, error) {
	if err := doc.normalize(); err != nil {
		return "", &Error{Kind: KindInvalid, Message: fmt.Sprintf("content: draft %s: %v", docName(doc), err)}
	}
	if err := saveDraft(ctx, s.db, doc, s.now()); err != nil {
		return "", err
	}
	if _, err := s.state(ctx, true); err != nil {
		return "", err
	}
	return doc.ID, nil
}

// DefaultPreviewTTL is how long a preview token lives unless told otherwise; it matches
// the lifetime of the io.prismic.preview cookie.
const DefaultPreviewTTL = 30 * time.Minute

// CreatePreview issues a preview token: a ref that sees drafts over published documents
// until it expires. Use it as ?token= on the site's /preview route.
func (s *Service) CreatePreview(ctx context.Context, ttl time.Duration) (string, error) {
	if ttl <= 0 {
		ttl = DefaultPreviewTTL
	}
	now := s.now()
	token := "preview-" + newRef() + newRef()
	if err := insertPreview(ctx, s.db, token, now, now.Add(ttl), ""); err != nil {
		return "", err
	}
	return token, nil
}

// CreateReleasePreview issues a preview token that sees the drafts of one release's
// documents over the published site: the site as it will be once the release is out.
func (s *Service) CreateReleasePreview(ctx context.Context, release string, ttl time.Duration) (string, error) {
	if ttl <= 0 {
		ttl = DefaultPreviewTTL
	}
	now := s.now()
	token := "preview-" + newRef() + newRef()
	if err := insertPreview(ctx, s.db, token, now, now.Add(ttl), release); err != nil {
		return "", err
	}
	return token, nil
}

// RepositoryInfo describes the repository at the current master ref.
type RepositoryInfo struct {
	MasterRef      string
	Types          []string
	Tags           []string
	Languages      []string
	MasterLanguage string
}

// Repository returns the current master ref and what its documents use.
func (s *Service) Repository(ctx context.Context) (*RepositoryInfo, error) {
	st, err := s.state(ctx, false)
	if err != nil {
		return nil, err
	}
	snap, err := s.masterSnapshot(ctx, st.master)
	// The master moved while we looked (publishes in quick succession can move it more
	// than once): look again at the newest, a bounded number of times.
	for try := 0; try < 20; try++ {
		if e, ok := AsError(err); !ok || e.Kind != KindRefExpired {
			break
		}
		if st, err = s.state(ctx, true); err != nil {
			return nil, err
		}
		snap, err = s.masterSnapshot(ctx, st.master)
	}
	if err != nil {
		return nil, err
	}
	langs := snap.langs
	if len(langs) == 0 {
		langs = []string{snap.masterLang}
	}
	return &RepositoryInfo{
		MasterRef:      snap.ref,
		Types:          append([]string{}, snap.types...),
		Tags:           append([]string{}, snap.tags...),
		Languages:      append([]string{}, langs...),
		MasterLanguage: snap.masterLang,
	}, nil
}

// Export returns every published document in the export shape, sorted by ID, with
// alternate_languages recomputed from the documents.
func (s *Service) Export(ctx context.Context) ([]Document, error) {
	rows, err := loadRows(ctx, s.db, false)
	if err != nil {
		return nil, err
	}
	snap, err := buildSnapshot("", false, rows, s.opts.MasterLanguage)
	if err != nil {
		return nil, err
	}
	out := make([]Document, 0, len(rows))
	for _, r := range rows {
		d := snap.byID[r.ID]
		out = append(out, Document{
			ID: r.ID, UID: r.UID, Type: r.Type, Lang: r.Lang, Tags: r.Tags,
			FirstPublicationDate: r.First, LastPublicationDate: r.Last,
			AlternateLanguages: alternatesOf(d),
			Data:               json.RawMessage(r.Data),
		})
	}
	return out, nil
}
