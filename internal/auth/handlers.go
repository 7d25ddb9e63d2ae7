package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Pages of the web app that mailed links and external sign-in lead to.
const (
	VerifyEmailPage   = "/verify-email"     // ?token=… (email verification and email change)
	ResetPasswordPage = "/reset-password"   // ?token=…&email=…
	OIDCReturnPage    = "/veryconnect-auth" // the provider's redirect_uri
)

// requireUser returns the signed-in user or the 401 error.
func (s *Service) requireUser(r *http.Request) (*User, error) {
	if u := UserFrom(r.Context()); u != nil {
		return u, nil
	}
	return nil, s.unauthenticated(r)
}

// userInput returns the signed-in user (or the 401) and reads the request's input
// into dst.
func (s *Service) userInput(r *http.Request, dst any) (*User, error) {
	u, err := s.requireUser(r)
	if err != nil {
		return nil, err
	}
	return u, decodeInput(r, dst)
}

// checkPassword adds field's error to fe unless given is u's password; an account
// without one (signed in through the society's sign-in service) is not asked.
func (s *Service) checkPassword(ctx context.Context, fe *httpx.FieldErrors, u *User, field, required, given string) {
	if !u.HasPassword {
		return
	}
	if given == "" {
		fe.Add(field, "%s", required)
	} else if !s.verifyPassword(ctx, u, given) {
		fe.Add(field, "The password is incorrect.")
	}
}

// CSRFCookie serves GET /sanctum/csrf-cookie: 204, and a session (with its CSRF token) if there is none.
func (s *Service) CSRFCookie(w http.ResponseWriter, r *http.Request) error {
	st := stateFrom(r.Context())
	if st.session == nil {
		se, err := s.newSession(r.Context(), r, 0, "", false)
		if err != nil {
			return err
		}
		st.setSession(se, nil)
	}
	return httpx.NoContent(w, nil)
}

type credentials struct {
	Email    string   `json:"email"`
	Password string   `json:"password"`
	Remember flexBool `json:"remember"`
	Name     string   `json:"name"` // token name, POST /api/tokens only
}

// checkCredentials validates a sign-in attempt with throttling and returns the user.
func (s *Service) checkCredentials(ctx context.Context, r *http.Request, in credentials) (*User, error) {
	var fe httpx.FieldErrors
	in.Email = normalizeEmail(in.Email)
	if in.Email == "" {
		fe.Add("email", "The email field is required.")
	} else if !textfield.Email(in.Email) {
		fe.Add("email", "The email field must be a valid email address.")
	}
	if in.Password == "" {
		fe.Add("password", "The password field is required.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	key := loginKey(in.Email, clientIP(r))
	if locked, wait, err := s.tooMany(ctx, key, loginMaxAttempts); err != nil {
		return nil, err
	} else if locked {
		secs := int((wait + time.Second - 1) / time.Second)
		e := invalid("email", fmt.Sprintf("Too many login attempts. Please try again in %d seconds.", secs))
		e.RetryAfter = wait
		return nil, e
	}
	u, err := s.UserByEmail(ctx, in.Email)
	if err != nil && err != ErrNotFound {
		return nil, err
	}
	if !s.verifyPassword(ctx, u, in.Password) {
		if _, err := s.hit(ctx, key, loginDecay); err != nil {
			return nil, err
		}
		return nil, invalid("email", msgBadCredentials)
	}
	if !u.Verified() {
		return nil, invalid("email", msgNotVerified)
	}
	if u.DisabledAt != nil {
		return nil, invalid("email", msgDisabled)
	}
	if err := s.clearHits(ctx, key); err != nil {
		return nil, err
	}
	return u, nil
}

// Login serves POST /login: Sanctum's session sign-in. 204 with a new session id; the CSRF token
// stays the same.
func (s *Service) Login(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	st := stateFrom(ctx)
	if st.session == nil {
		// No session cookie: there is no CSRF token this request could have matched.
		return &httpx.Error{Code: httpx.ECSRF, Message: msgCSRF}
	}
	if st.session.userID != 0 && st.user != nil {
		// Laravel's "guest" middleware: a signed-in user is sent home.
		http.Redirect(w, r, "/", http.StatusFound)
		return nil
	}
	var in credentials
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	u, err := s.checkCredentials(ctx, r, in)
	if err != nil {
		return err
	}
	return s.signIn(w, r, u, bool(in.Remember))
}

// signIn replaces the request's session with a new one for u (a new id against
// session fixation, the same CSRF token) and answers 204.
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, u *User, remember bool) error {
	if u.DisabledAt != nil {
		return invalid("email", msgDisabled)
	}
	ctx := r.Context()
	st := stateFrom(ctx)
	csrf := ""
	if st.session != nil {
		csrf = st.session.csrf
		if err := s.deleteSession(ctx, st.session.id); err != nil {
			return err
		}
	}
	se, err := s.newSession(ctx, r, u.ID, csrf, remember)
	if err != nil {
		return err
	}
	st.setSession(se, u)
	if w != nil {
		return httpx.NoContent(w, nil)
	}
	return nil
}

// startGuestSession ends the request's session and starts a guest one with a new CSRF
// token, as Laravel's logout does (invalidate and regenerateToken).
func (s *Service) startGuestSession(r *http.Request) error {
	ctx := r.Context()
	st := stateFrom(ctx)
	if st.session != nil {
		if err := s.deleteSession(ctx, st.session.id); err != nil {
			return err
		}
	}
	se, err := s.newSession(ctx, r, 0, "", false)
	if err != nil {
		return err
	}
	st.setSession(se, nil)
	return nil
}

// Logout serves POST /logout: 204 with a new guest session and CSRF token; 401 without a signed-in
// session.
func (s *Service) Logout(w http.ResponseWriter, r *http.Request) error {
	st := stateFrom(r.Context())
	if st.session == nil || st.session.userID == 0 {
		return errUnauthenticated()
	}
	return httpx.NoContent(w, s.startGuestSession(r))
}

// GetUser serves GET /api/user
func (s *Service) GetUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.requireUser(r)
	return httpx.Reply(w, http.StatusOK, u, err)
}

// MaxNameLen is the longest display name, in characters.
const MaxNameLen = 255

// maxTokenNameLen is the longest label of an API token, in characters.
const maxTokenNameLen = 100

// msgNameControl is the 422 message for a name with a line break or control character.
const msgNameControl = "The name field must be a single line without control characters."

// validName checks a display name (textfield.SingleLine) and returns it trimmed. A
// name goes into the greeting of every mail to the account and into `lineage user
// list`, so it must be one line.
func validName(fe *httpx.FieldErrors, name string) string {
	name, err := textfield.SingleLine(name, MaxNameLen)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		fe.Add("name", "The name field must not be greater than 255 characters.")
	case err != nil:
		fe.Add("name", msgNameControl)
	case name == "":
		fe.Add("name", "The name field is required.")
	}
	return name
}

func validNewPassword(fe *httpx.FieldErrors, pw, confirmation string) {
	switch {
	case pw == "":
		fe.Add("password", "The password field is required.")
	case utf8.RuneCountInString(pw) < 8:
		fe.Add("password", "The password field must be at least 8 characters.")
	case len(pw) > 1000:
		fe.Add("password", "The password field must not be greater than 1000 characters.")
	case pw != confirmation:
		fe.Add("password", "The password field confirmation does not match.")
	}
}

// UpdateProfile serves PATCH /api/user {name}
func (s *Service) UpdateProfile(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name string `json:"name"`
	}
	u, err := s.userInput(r, &in)
	if err != nil {
		return err
	}
	var fe httpx.FieldErrors
	name := validName(&fe, in.Name)
	if err := fe.Err(); err != nil {
		return err
	}
	if err := s.updateUser(r.Context(), `name = ?`, u.ID, name); err != nil {
		return err
	}
	u, err = s.UserByID(r.Context(), u.ID)
	return httpx.Reply(w, http.StatusOK, u, err)
}

type message struct {
	Message string `json:"message"`
	Email   string `json:"email,omitempty"`
}

// Register serves POST /api/register {name, email, password, password_confirmation}: 201; the account
// can sign in once the mailed link is followed.
func (s *Service) Register(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name                 string `json:"name"`
		Email                string `json:"email"`
		Password             string `json:"password"`
		PasswordConfirmation string `json:"password_confirmation"`
	}
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	in.Email = normalizeEmail(in.Email)
	var fe httpx.FieldErrors
	in.Name = validName(&fe, in.Name)
	switch {
	case in.Email == "":
		fe.Add("email", "The email field is required.")
	case !textfield.Email(in.Email):
		fe.Add("email", "The email field must be a valid email address.")
	default:
		if _, err := s.UserByEmail(ctx, in.Email); err == nil {
			fe.Add("email", "The email has already been taken.")
		} else if err != ErrNotFound {
			return err
		}
	}
	validNewPassword(&fe, in.Password, in.PasswordConfirmation)
	if err := fe.Err(); err != nil {
		return err
	}
	// Each registration mails a stranger's address: limit them per client address.
	key := "register:" + clientIP(r)
	if locked, wait, err := s.tooMany(ctx, key, registerMax); err != nil {
		return err
	} else if locked {
		e := invalid("email", "Too many registrations from your address. Please try again later.")
		e.RetryAfter = wait
		return e
	}
	if _, err := s.hit(ctx, key, registerDecay); err != nil {
		return err
	}
	u, err := s.CreateUser(ctx, NewUser{Email: in.Email, Name: in.Name, Password: in.Password})
	if errors.Is(err, ErrEmailTaken) {
		return invalid("email", "The email has already been taken.")
	}
	if err != nil {
		return err
	}
	if err := s.sendVerification(ctx, u); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusCreated, message{
		Message: "Thanks for registering. We have emailed you a link to verify your email address.",
		Email:   u.Email,
	})
	return nil
}

func (s *Service) enqueue(ctx context.Context, to, subject, text string) error {
	if s.opt.Mailer == nil {
		return errors.New("auth: no mailer configured")
	}
	return s.opt.Mailer.Enqueue(ctx, mail.Message{To: to, Subject: subject, Text: text})
}

func (s *Service) sendVerification(ctx context.Context, u *User) error {
	token, err := s.newLink(ctx, u.ID, purposeVerify, "", s.opt.VerifyLinkTTL)
	if err != nil {
		return err
	}
	link := s.opt.PublicURL + VerifyEmailPage + "?token=" + token
	return s.enqueue(ctx, u.Email, "Verify your email address", verifyText(u.Name, link, s.opt.VerifyLinkTTL))
}

// VerifyEmail serves POST /api/email/verify {token}: confirms a registration or an email change.
func (s *Service) VerifyEmail(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token string `json:"token"`
	}
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	l, err := s.useLink(ctx, in.Token, purposeVerify, purposeChange)
	if errors.Is(err, errBadLink) {
		return invalid("token", "This link is invalid or has expired.")
	}
	if err != nil {
		return err
	}
	now := s.now().Unix()
	switch l.purpose {
	case purposeVerify:
		err = s.updateUser(ctx, `email_verified_at = COALESCE(email_verified_at, ?)`, l.userID, now)
	case purposeChange:
		err = s.updateUser(ctx, `email = ?, email_verified_at = ?`, l.userID, l.newEmail, now)
		if errors.Is(err, ErrEmailTaken) {
			return invalid("email", "The email has already been taken.")
		}
	}
	if err != nil {
		return err
	}
	u, err := s.UserByID(ctx, l.userID)
	if err != nil {
		return err
	}
	if st := stateFrom(ctx); st.user != nil && st.user.ID == u.ID {
		st.user = u
	}
	httpx.JSON(w, http.StatusOK, message{Message: "Your email address is verified.", Email: u.Email})
	return nil
}

// emailInput reads the body {email} of a request that mails a link; the address comes
// back normalized.
func emailInput(r *http.Request) (string, error) {
	var in struct {
		Email string `json:"email"`
	}
	err := decodeInput(r, &in)
	return normalizeEmail(in.Email), err
}

// accountAt returns the account with a valid address, nil when none has it; an
// address that is not valid is a 422.
func (s *Service) accountAt(ctx context.Context, email string) (*User, error) {
	if !textfield.Email(email) {
		return nil, invalid("email", "The email field must be a valid email address.")
	}
	u, err := s.UserByEmail(ctx, email)
	if err == ErrNotFound {
		return nil, nil
	}
	return u, err
}

// mailAllowed spends the one mail per address and purpose per minute.
func (s *Service) mailAllowed(ctx context.Context, kind, email string) (bool, error) {
	n, err := s.hit(ctx, "mail:"+kind+":"+email, mailDecay)
	return n <= 1, err
}

// ResendVerification serves POST /api/email/verification-notification {email}: 202 whatever the address, so
// that the answer does not tell which addresses have accounts.
func (s *Service) ResendVerification(w http.ResponseWriter, r *http.Request) error {
	email, err := emailInput(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if u := UserFrom(ctx); u != nil && email == "" {
		email = u.Email
	}
	u, err := s.accountAt(ctx, email)
	if err != nil {
		return err
	}
	if u != nil && !u.Verified() {
		if ok, err := s.mailAllowed(ctx, "verify", email); err != nil {
			return err
		} else if ok {
			if err := s.sendVerification(ctx, u); err != nil {
				return err
			}
		}
	}
	httpx.JSON(w, http.StatusAccepted, message{Message: "If an account with that address is waiting to be verified, we have emailed it a new link."})
	return nil
}

// ForgotPassword serves POST /api/forgot-password {email}: 202 whatever the address.
func (s *Service) ForgotPassword(w http.ResponseWriter, r *http.Request) error {
	email, err := emailInput(r)
	if err != nil {
		return err
	}
	if email == "" {
		return invalid("email", "The email field is required.")
	}
	ctx := r.Context()
	u, err := s.accountAt(ctx, email)
	if err != nil {
		return err
	}
	if u != nil {
		ok, err := s.mailAllowed(ctx, "reset", email)
		if err != nil {
			return err
		}
		if ok {
			token, err := s.newLink(ctx, u.ID, purposeReset, "", s.opt.ResetLinkTTL)
			if err != nil {
				return err
			}
			link := s.opt.PublicURL + ResetPasswordPage + "?token=" + token + "&email=" + urlQueryEscape(u.Email)
			if err := s.enqueue(ctx, u.Email, "Reset your password", resetText(u.Name, link, s.opt.ResetLinkTTL)); err != nil {
				return err
			}
		}
	}
	httpx.JSON(w, http.StatusAccepted, message{Message: "If an account uses that address, we have emailed it a link to reset the password."})
	return nil
}

// ResetPassword serves POST /api/reset-password {token, password, password_confirmation}
func (s *Service) ResetPassword(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token                string `json:"token"`
		Password             string `json:"password"`
		PasswordConfirmation string `json:"password_confirmation"`
	}
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	var fe httpx.FieldErrors
	if in.Token == "" {
		fe.Add("token", "The token field is required.")
	}
	validNewPassword(&fe, in.Password, in.PasswordConfirmation)
	if err := fe.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	l, err := s.useLink(ctx, in.Token, purposeReset)
	if errors.Is(err, errBadLink) {
		return invalid("token", "This password reset link is invalid or has expired.")
	}
	if err != nil {
		return err
	}
	if err := s.SetPassword(ctx, l.userID, in.Password, ""); err != nil {
		return err
	}
	// Following the link proved the mailbox works.
	if err := s.updateUser(ctx, `email_verified_at = COALESCE(email_verified_at, ?)`, l.userID, s.now().Unix()); err != nil {
		return err
	}
	u, err := s.UserByID(ctx, l.userID)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, message{Message: "Your password has been reset. You can now sign in.", Email: u.Email})
	return nil
}

// ChangePassword serves PUT /api/user/password {current_password, password, password_confirmation}: every
// other session and every API token of the user ends; this session gets a new id.
func (s *Service) ChangePassword(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		CurrentPassword      string `json:"current_password"`
		Password             string `json:"password"`
		PasswordConfirmation string `json:"password_confirmation"`
	}
	u, err := s.userInput(r, &in)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var fe httpx.FieldErrors
	s.checkPassword(ctx, &fe, u, "current_password", "The current password field is required.", in.CurrentPassword)
	validNewPassword(&fe, in.Password, in.PasswordConfirmation)
	if err := fe.Err(); err != nil {
		return err
	}
	st := stateFrom(ctx)
	keep := ""
	if st.session != nil && st.session.userID == u.ID {
		keep = st.session.id
	}
	if err := s.SetPassword(ctx, u.ID, in.Password, keep); err != nil {
		return err
	}
	if keep != "" {
		fresh, err := s.UserByID(ctx, u.ID)
		if err != nil {
			return err
		}
		if err := s.signIn(nil, r, fresh, st.session.remember); err != nil {
			return err
		}
	}
	httpx.JSON(w, http.StatusOK, message{Message: "Your password has been changed."})
	return nil
}

// ChangeEmail serves PUT /api/user/email {email, password}: mails a confirmation link to the new address
// (and a notice to the old one); the address changes when the link is followed.
func (s *Service) ChangeEmail(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	u, err := s.userInput(r, &in)
	if err != nil {
		return err
	}
	ctx := r.Context()
	email := normalizeEmail(in.Email)
	var fe httpx.FieldErrors
	switch {
	case email == "":
		fe.Add("email", "The email field is required.")
	case !textfield.Email(email):
		fe.Add("email", "The email field must be a valid email address.")
	case email == u.Email:
		fe.Add("email", "That is already your email address.")
	default:
		if _, err := s.UserByEmail(ctx, email); err == nil {
			fe.Add("email", "The email has already been taken.")
		} else if err != ErrNotFound {
			return err
		}
	}
	s.checkPassword(ctx, &fe, u, "password", "The password field is required.", in.Password)
	if err := fe.Err(); err != nil {
		return err
	}
	token, err := s.newLink(ctx, u.ID, purposeChange, email, s.opt.VerifyLinkTTL)
	if err != nil {
		return err
	}
	link := s.opt.PublicURL + VerifyEmailPage + "?token=" + token
	if err := s.enqueue(ctx, email, "Confirm your new email address", changeText(u.Name, link, s.opt.VerifyLinkTTL)); err != nil {
		return err
	}
	if err := s.enqueue(ctx, u.Email, "Your email address is being changed", changeNoticeText(u.Name, email)); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusAccepted, message{
		Message: "We have emailed a confirmation link to the new address. Your address changes when you follow it.",
		Email:   email,
	})
	return nil
}

// DeleteAccount serves DELETE /api/user {password} (or {confirm: <email>} for an account without a
// password): deletes the account and everything it owns.
func (s *Service) DeleteAccount(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Password string `json:"password"`
		Confirm  string `json:"confirm"`
	}
	u, err := s.userInput(r, &in)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var fe httpx.FieldErrors
	s.checkPassword(ctx, &fe, u, "password", "The password field is required.", in.Password)
	if !u.HasPassword && normalizeEmail(in.Confirm) != u.Email {
		fe.Add("confirm", "Type your email address to confirm.")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	st := stateFrom(ctx)
	if err := s.DeleteUser(ctx, u.ID); err != nil {
		return err
	}
	s.log.Info("account deleted", "user", u.ID)
	if st.session != nil {
		// The session went with the account; the browser gets a guest session.
		st.session = nil
		if err := s.startGuestSession(r); err != nil {
			return err
		}
	}
	st.user = nil
	return httpx.NoContent(w, nil)
}

// ExportData serves GET /api/user/data: everything stored about the user, as one JSON download.
func (s *Service) ExportData(w http.ResponseWriter, r *http.Request) error {
	u, err := s.requireUser(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	out, err := s.exportAccount(ctx, u)
	if err != nil {
		return err
	}
	for _, e := range s.exporters {
		parts, err := e.ExportUserData(ctx, u.ID)
		if err != nil {
			return err
		}
		for k, v := range parts {
			out[k] = v
		}
	}
	w.Header().Set("Content-Disposition", `attachment; filename="lineage-my-data.json"`)
	httpx.JSON(w, http.StatusOK, out)
	return nil
}

func (s *Service) exportAccount(ctx context.Context, u *User) (map[string]any, error) {
	type sessionOut struct {
		CreatedAt  time.Time `json:"created_at"`
		LastSeenAt time.Time `json:"last_seen_at"`
		IP         string    `json:"ip"`
		UserAgent  string    `json:"user_agent"`
	}
	type tokenOut struct {
		Name      string     `json:"name"`
		CreatedAt time.Time  `json:"created_at"`
		LastUsed  *time.Time `json:"last_used_at"`
	}
	type identityOut struct {
		Issuer    string    `json:"issuer"`
		Subject   string    `json:"subject"`
		Email     string    `json:"email"`
		CreatedAt time.Time `json:"created_at"`
	}
	rows, err := s.sdb.QueryContext(ctx, s.sdb.Rebind(
		`SELECT created_at, last_seen_at, ip, user_agent FROM sessions WHERE user_id = ? ORDER BY created_at`), u.ID)
	sessions, err := store.Collect(rows, err, func(r store.Row) (o sessionOut, err error) {
		var c, l int64
		err = r.Scan(&c, &l, &o.IP, &o.UserAgent)
		o.CreatedAt, o.LastSeenAt = store.Time(c), store.Time(l)
		return o, err
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT name, created_at, last_used_at FROM api_tokens WHERE user_id = ? ORDER BY id`), u.ID)
	tokens, err := store.Collect(rows, err, func(r store.Row) (o tokenOut, err error) {
		var c int64
		var lu sql.NullInt64
		err = r.Scan(&o.Name, &c, &lu)
		o.CreatedAt, o.LastUsed = store.Time(c), store.TimeOrNil(lu)
		return o, err
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT issuer, subject, email, created_at FROM user_identities WHERE user_id = ? ORDER BY created_at`), u.ID)
	ids, err := store.Collect(rows, err, func(r store.Row) (o identityOut, err error) {
		var c int64
		err = r.Scan(&o.Issuer, &o.Subject, &o.Email, &c)
		o.CreatedAt = store.Time(c)
		return o, err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"exported_at":         s.now().UTC(),
		"user":                u,
		"sessions":            sessions,
		"api_tokens":          tokens,
		"external_identities": ids,
	}, nil
}

// CreateToken serves POST /api/tokens {email, password, name?}: 201 with an access and refresh token.
func (s *Service) CreateToken(w http.ResponseWriter, r *http.Request) error {
	var in credentials
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	name, err := textfield.SingleLine(in.Name, maxTokenNameLen)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		return invalid("name", "The name field must not be greater than 100 characters.")
	case err != nil:
		return invalid("name", msgNameControl)
	}
	u, err := s.checkCredentials(r.Context(), r, in)
	if err != nil {
		return err
	}
	p, err := s.IssueTokens(r.Context(), u.ID, name)
	return httpx.Reply(w, http.StatusCreated, p, err)
}

// RefreshToken serves POST /api/tokens/refresh {refresh_token}
func (s *Service) RefreshToken(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		RefreshToken string `json:"refresh_token"`
	}
	if err := decodeInput(r, &in); err != nil {
		return err
	}
	if in.RefreshToken == "" {
		return invalid("refresh_token", "The refresh token field is required.")
	}
	p, err := s.RefreshTokens(r.Context(), in.RefreshToken)
	return httpx.Reply(w, http.StatusOK, p, err)
}

// DeleteCurrentToken serves DELETE /api/tokens/current: revokes the bearer token of the request.
func (s *Service) DeleteCurrentToken(w http.ResponseWriter, r *http.Request) error {
	st := stateFrom(r.Context())
	if st.tokenID == 0 || st.user == nil {
		return s.unauthenticated(r)
	}
	if err := s.RevokeToken(r.Context(), st.user.ID, st.tokenID); err != nil && err != ErrNotFound {
		return err
	}
	return httpx.NoContent(w, nil)
}
