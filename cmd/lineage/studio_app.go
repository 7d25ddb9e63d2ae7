package main

import (
	"net/http"
	"os"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/content"
)

// releaseCheckEvery is how often serve publishes due releases and retries webhooks: a
// release scheduled for a time appears within this of it.
const releaseCheckEvery = 5 * time.Second

// contentOptions are the content room's options, the studio's included: who is signed
// in (the session), and the webhooks of LINEAGE_CONTENT_WEBHOOK_URL.
func contentOptions(cfg config.Config) (content.Options, error) {
	hooks, err := content.WebhooksFromEnv(os.Getenv)
	if err != nil {
		return content.Options{}, err
	}
	return content.Options{PublicURL: cfg.PublicURL, DataDir: cfg.DataDir, AccessToken: cfg.ContentToken,
		Editor: studioEditor, Webhooks: hooks}, nil
}

// studioEditor tells the studio who is signed in.
func studioEditor(r *http.Request) content.Editor {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return content.Editor{}
	}
	return content.Editor{ID: u.ID, Name: u.Name, Staff: u.Role == auth.RoleEditor || u.Role == auth.RoleAdmin, Admin: u.Role == auth.RoleAdmin}
}
