package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// OIDCConfig configures sign-in through an external OpenID Connect provider (the
// society's membership system). The provider must allow the redirect URI
// <public URL>/veryconnect-auth.
type OIDCConfig struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	Name         string   // shown on the sign-in button; default "your society account"
	Scopes       []string // default openid, email, profile
	// TrustEmail treats the provider's email claim as verified even without
	// email_verified: only for a first-party provider that checks addresses itself.
	TrustEmail bool
	// HTTPClient talks to the provider; nil means a client with a 10 s timeout.
	HTTPClient *http.Client
}

// OIDCFromEnv reads LINEAGE_OIDC_ISSUER, LINEAGE_OIDC_CLIENT_ID,
// LINEAGE_OIDC_CLIENT_SECRET, LINEAGE_OIDC_NAME, LINEAGE_OIDC_SCOPES (space separated)
// and LINEAGE_OIDC_TRUST_EMAIL (true/false). It returns nil when no issuer is set.
func OIDCFromEnv(getenv func(string) string) (*OIDCConfig, error) {
	issuer := getenv("LINEAGE_OIDC_ISSUER")
	if issuer == "" {
		return nil, nil
	}
	c := &OIDCConfig{
		Issuer:       issuer,
		ClientID:     getenv("LINEAGE_OIDC_CLIENT_ID"),
		ClientSecret: getenv("LINEAGE_OIDC_CLIENT_SECRET"),
		Name:         getenv("LINEAGE_OIDC_NAME"),
		Scopes:       strings.Fields(getenv("LINEAGE_OIDC_SCOPES")),
	}
	if c.ClientID == "" {
		return nil, errors.New("LINEAGE_OIDC_ISSUER is set but LINEAGE_OIDC_CLIENT_ID is not")
	}
	switch strings.ToLower(getenv("LINEAGE_OIDC_TRUST_EMAIL")) {
	case "", "false", "0", "no":
	case "true", "1", "yes":
		c.TrustEmail = true
	default:
		return nil, fmt.Errorf("LINEAGE_OIDC_TRUST_EMAIL must be true or false")
	}
	return c, nil
}

// oidcClient holds the provider's discovered configuration. Discovery happens on
// first use, not at start, so that the site starts while the provider is down.
type oidcClient struct {
	cfg         OIDCConfig
	redirectURL string

	mu       sync.Mutex
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
}

func newOIDCClient(cfg OIDCConfig, publicURL string) *oidcClient {
	if cfg.Name == "" {
		cfg.Name = "your society account"
	}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = []string{oidc.ScopeOpenID, "email", "profile"}
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	return &oidcClient{cfg: cfg, redirectURL: publicURL + OIDCReturnPage}
}

func (c *oidcClient) ctx(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, c.cfg.HTTPClient)
}

func (c *oidcClient) ready() (*oauth2.Config, *oidc.IDTokenVerifier, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.oauth != nil {
		return c.oauth, c.verifier, nil
	}
	// The provider keeps this context for fetching signing keys later, so it must
	// outlive the request.
	p, err := oidc.NewProvider(c.ctx(context.Background()), c.cfg.Issuer)
	if err != nil {
		return nil, nil, err
	}
	c.oauth = &oauth2.Config{
		ClientID: c.cfg.ClientID, ClientSecret: c.cfg.ClientSecret,
		Endpoint: p.Endpoint(), RedirectURL: c.redirectURL, Scopes: c.cfg.Scopes,
	}
	c.verifier = p.Verifier(&oidc.Config{ClientID: c.cfg.ClientID})
	return c.oauth, c.verifier, nil
}

const oidcFlowTTL = 10 * time.Minute

// OIDCInfo serves GET /api/oidc: whether external sign-in is offered, and under which name.
func (s *Service) OIDCInfo(w http.ResponseWriter, r *http.Request) error {
	out := map[string]any{"enabled": s.oidc != nil}
	if s.oidc != nil {
		out["name"] = s.oidc.cfg.Name
		out["redirect_url"] = "/api/oidc/redirect"
	}
	httpx.JSON(w, http.StatusOK, out)
	return nil
}

func (s *Service) oidcUnavailable(err error) error {
	s.log.Error("auth: openid provider unreachable", "issuer", s.oidc.cfg.Issuer, "err", err)
	return errorf(httpx.EUNAVAILABLE, "External sign-in is not available at the moment. Please try again later.")
}

// OIDCRedirect serves GET /api/oidc/redirect?redirect=/wanted/path: a top-level browser navigation. It
// binds state, nonce and a PKCE verifier to the browser's session and sends the
// browser to the provider, which returns it to /veryconnect-auth.
func (s *Service) OIDCRedirect(w http.ResponseWriter, r *http.Request) error {
	if s.oidc == nil {
		return errorf(httpx.ENOTFOUND, "External sign-in is not configured.")
	}
	oc, _, err := s.oidc.ready()
	if err != nil {
		return s.oidcUnavailable(err)
	}
	ctx := r.Context()
	st := stateFrom(ctx)
	if st.session == nil {
		se, err := s.newSession(ctx, r, 0, "", false)
		if err != nil {
			return err
		}
		st.setSession(se, nil)
	}
	state, nonce, verifier := randomToken(32), randomToken(32), oauth2.GenerateVerifier()
	returnTo := SafeRedirect(r.URL.Query().Get("redirect"), "/")
	_, err = s.sdb.ExecContext(ctx, s.sdb.Rebind(
		`INSERT INTO oidc_flows (state_hash, session_id, nonce, code_verifier, return_to, expires_at) VALUES (?, ?, ?, ?, ?, ?)`),
		sha256Hex(state), st.session.id, nonce, verifier, returnTo, s.now().Add(oidcFlowTTL).Unix())
	if err != nil {
		return fmt.Errorf("auth: store oidc flow: %w", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, oc.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), http.StatusFound)
	return nil
}

// oidcClaims are the ID token claims used to find or create the account.
type oidcClaims struct {
	Email             string   `json:"email"`
	EmailVerified     flexBool `json:"email_verified"`
	Name              string   `json:"name"`
	GivenName         string   `json:"given_name"`
	FamilyName        string   `json:"family_name"`
	PreferredUsername string   `json:"preferred_username"`
}

// displayName is the first of the provider's names that is a valid one-line name;
// the provider is trusted with the address, not with what its users typed.
func (c oidcClaims) displayName() string {
	for _, n := range []string{c.Name, c.GivenName + " " + c.FamilyName, c.PreferredUsername} {
		if n, err := textfield.SingleLine(n, MaxNameLen); err == nil && n != "" {
			return n
		}
	}
	return ""
}

// OIDCCallback serves POST /api/oidc/callback {code, state} (or {error, error_description}): called by the
// /veryconnect-auth page with the browser's cookies. On success the session is signed
// in (new id) and the answer names where to go: {"redirect": "/wanted", "user": {…}}.
func (s *Service) OIDCCallback(w http.ResponseWriter, r *http.Request) error {
	if s.oidc == nil {
		return errorf(httpx.ENOTFOUND, "External sign-in is not configured.")
	}
	var in struct {
		Code             string `json:"code"`
		State            string `json:"state"`
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	st := stateFrom(ctx)
	expired := invalid("state", "This sign-in has expired or was started in another browser. Please try again.")
	if st.session == nil || in.State == "" {
		return expired
	}
	var nonce, verifier, returnTo string
	var exp int64
	err := s.sdb.QueryRowContext(ctx, s.sdb.Rebind(
		`SELECT nonce, code_verifier, return_to, expires_at FROM oidc_flows WHERE state_hash = ? AND session_id = ?`),
		sha256Hex(in.State), st.session.id).Scan(&nonce, &verifier, &returnTo, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return expired
	}
	if err != nil {
		return err
	}
	// One use only, whatever happens next.
	res, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM oidc_flows WHERE state_hash = ?`), sha256Hex(in.State))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 || s.now().Unix() >= exp {
		return expired
	}
	if in.Error != "" {
		s.log.Info("auth: external sign-in refused", "error", in.Error, "description", in.ErrorDescription)
		return invalid("code", "The sign-in was cancelled or refused by "+s.oidc.cfg.Name+".")
	}
	if in.Code == "" {
		return invalid("code", "The code field is required.")
	}
	oc, verify, err := s.oidc.ready()
	if err != nil {
		return s.oidcUnavailable(err)
	}
	refused := invalid("code", "The sign-in could not be completed. Please try again.")
	tok, err := oc.Exchange(s.oidc.ctx(ctx), in.Code, oauth2.VerifierOption(verifier))
	if err != nil {
		s.log.Warn("auth: oidc code exchange failed", "err", err)
		return refused
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		s.log.Warn("auth: oidc token response without id_token")
		return refused
	}
	idt, err := verify.Verify(s.oidc.ctx(ctx), raw)
	if err != nil {
		s.log.Warn("auth: oidc id token rejected", "err", err)
		return refused
	}
	if idt.Nonce != nonce {
		s.log.Warn("auth: oidc nonce mismatch")
		return refused
	}
	var claims oidcClaims
	if err := idt.Claims(&claims); err != nil {
		s.log.Warn("auth: oidc claims", "err", err)
		return refused
	}
	u, err := s.linkIdentity(ctx, idt.Issuer, idt.Subject, claims)
	if err != nil {
		return err
	}
	if err := s.signIn(nil, r, u, false); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"redirect": SafeRedirect(returnTo, "/"), "user": u})
	return nil
}

// linkIdentity finds the account of a provider identity: by an earlier link, else by
// a verified email address (linking it), else a new account. An address the provider
// has not verified never links to or creates an account.
func (s *Service) linkIdentity(ctx context.Context, issuer, subject string, c oidcClaims) (*User, error) {
	var userID int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT user_id FROM user_identities WHERE issuer = ? AND subject = ?`), issuer, subject).Scan(&userID)
	if err == nil {
		return s.UserByID(ctx, userID)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	email := normalizeEmail(c.Email)
	if !textfield.Email(email) || !(bool(c.EmailVerified) || s.oidc.cfg.TrustEmail) {
		return nil, invalid("email", "Your "+s.oidc.cfg.Name+" has no verified email address, so it cannot be used to sign in here.")
	}
	u, err := s.UserByEmail(ctx, email)
	switch {
	case err == ErrNotFound:
		u, err = s.CreateUser(ctx, NewUser{Email: email, Name: c.displayName(), Verified: true})
		if errors.Is(err, ErrEmailTaken) {
			u, err = s.UserByEmail(ctx, email)
		}
		if err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	case !u.Verified():
		// Someone registered this address without proving it. The provider has now
		// proved who owns it: that registration's password and sessions must not
		// survive into the owner's account.
		if err := s.updateUser(ctx, `password_hash = '', email_verified_at = ?`, u.ID, s.now().Unix()); err != nil {
			return nil, err
		}
		if err := s.endSessions(ctx, u.ID, ""); err != nil {
			return nil, err
		}
		if u, err = s.UserByID(ctx, u.ID); err != nil {
			return nil, err
		}
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(
		`INSERT INTO user_identities (issuer, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?)`),
		issuer, subject, u.ID, email, s.now().Unix())
	if err != nil && !store.IsUniqueViolation(err) {
		return nil, fmt.Errorf("auth: link identity: %w", err)
	}
	s.log.Info("auth: external identity linked", "user", u.ID, "issuer", issuer)
	return u, nil
}
