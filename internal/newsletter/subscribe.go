package newsletter

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Sign-up limits.
const (
	ConfirmFor      = 48 * time.Hour   // a confirmation link works this long
	ResendAfter     = 15 * time.Minute // an address gets at most one confirmation mail in this time
	SignupsPerIP    = 10               // sign-ups one address (IP) may make …
	SignupIPWindow  = time.Hour        // … in this time
	maxWording      = 1000
	maxSource       = 500
	maxListsPerForm = 20
)

// subscriber is one address.
type subscriber struct {
	ID          int64
	Email       string
	UserID      int64
	ConfirmedAt int64
	SentAt      int64 // the last confirmation mail
	Suppressed  int64
}

const subscriberCols = `id, email, COALESCE(user_id, 0), confirmed_at, confirm_sent_at, suppressed_at`

func scanSubscriber(r store.Row) (*subscriber, error) {
	x := &subscriber{}
	err := r.Scan(&x.ID, &x.Email, &x.UserID, &x.ConfirmedAt, &x.SentAt, &x.Suppressed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return x, err
}

func (s *Service) subscriberByEmail(ctx context.Context, q queryer, email string) (*subscriber, error) {
	return scanSubscriber(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+subscriberCols+` FROM newsletter_subscribers WHERE email = ?`), addressKey(email)))
}

func (s *Service) subscriberByID(ctx context.Context, q queryer, id int64) (*subscriber, error) {
	return scanSubscriber(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+subscriberCols+` FROM newsletter_subscribers WHERE id = ?`), id))
}

var errBadToken = httpx.Invalid("token", "This link is not valid: use the link in your latest email.")

// subscriberByToken returns the subscriber a preferences token names, or errBadToken.
func (s *Service) subscriberByToken(ctx context.Context, tok string) (*subscriber, error) {
	id, sig, ok := ParsePreferencesToken(tok)
	if !ok {
		return nil, errBadToken
	}
	sub, err := s.subscriberByID(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		return nil, errBadToken
	}
	want, err := s.PreferencesToken(ctx, sub.ID, sub.Email)
	if err != nil {
		return nil, err
	}
	_, wantSig, _ := ParsePreferencesToken(want)
	if !hmac.Equal(sig, wantSig) {
		return nil, errBadToken
	}
	return sub, nil
}

// Signup is the sign-up form.
type Signup struct {
	Email   string   `json:"email"`
	Lists   []string `json:"lists"`
	Source  string   `json:"source"`  // the page the form was on
	Wording string   `json:"wording"` // the consent words the form showed
}

// consentText checks the source page and the wording shown.
func consentText(fe *httpx.FieldErrors, source, wording string) (string, string) {
	w, err := textfield.MultiLine(wording, maxWording)
	if err != nil || w == "" {
		fe.Add("wording", "The consent wording shown with the form is required (at most %d characters).", maxWording)
	}
	src, err := textfield.SingleLine(source, maxSource)
	if err == nil && src != "" {
		if u, perr := url.Parse(src); perr != nil || !strings.HasPrefix(src, "/") || strings.HasPrefix(src, "//") || u.Host != "" {
			err = errors.New("not a path")
		}
	}
	if err != nil {
		fe.Add("source", "The source must be a page of this site, like /about-us.")
	}
	return src, w
}

// chosenLists resolves the slugs a form named, for v.
func (s *Service) chosenLists(ctx context.Context, fe *httpx.FieldErrors, v Viewer, slugs []string, required bool) []*List {
	if len(slugs) == 0 && required {
		fe.Add("lists", "Choose at least one list.")
		return nil
	}
	if len(slugs) > maxListsPerForm {
		fe.Add("lists", "Choose at most %d lists.", maxListsPerForm)
		return nil
	}
	all, err := s.Lists(ctx)
	if err != nil {
		fe.Add("lists", "The lists could not be read; try again.")
		return nil
	}
	var out []*List
	seen := map[string]bool{}
	for _, slug := range slugs {
		if seen[slug] {
			continue
		}
		seen[slug] = true
		var found *List
		for _, l := range all {
			if l.Slug == slug {
				found = l
			}
		}
		switch {
		case found == nil:
			fe.Add("lists", "The list %q does not exist.", textfield.Escape(slug))
		case !found.open(v):
			fe.Add("lists", "The %s is for members only: sign in as a member to subscribe.", found.Name)
		default:
			out = append(out, found)
		}
	}
	return out
}

// Subscribe records a sign-up. An address that is not yet confirmed (or lists it has
// not confirmed) gets a confirmation mail, at most one per ResendAfter; a signed-in
// account's own verified address is subscribed at once. It returns "subscribed" for
// that, and "pending" for every other sign-up, whatever the address's state.
func (s *Service) Subscribe(ctx context.Context, v Viewer, in Signup, ip string) (string, error) {
	// The secret is created, if need be, before the transaction that signs with it.
	if _, err := s.installationSecret(ctx); err != nil {
		return "", err
	}
	var fe httpx.FieldErrors
	email, err := ParseAddress(in.Email)
	if err != nil {
		fe.Add("email", "%s", err.Error())
	}
	lists := s.chosenLists(ctx, &fe, v, in.Lists, true)
	source, wording := consentText(&fe, in.Source, in.Wording)
	if err := fe.Err(); err != nil {
		return "", err
	}
	now := s.now()
	if ip != "" {
		var n int
		if err := s.db.QueryRowContext(ctx, s.db.Rebind(
			`SELECT COUNT(DISTINCT subscriber_id) FROM newsletter_consents WHERE ip = ? AND action = 'requested' AND created_at > ?`),
			ip, now.Add(-SignupIPWindow).Unix()).Scan(&n); err != nil {
			return "", err
		}
		if n >= SignupsPerIP {
			return "", &httpx.Error{Code: httpx.ETOOMANY, Message: "Too many sign-ups from your network: try again in an hour.", RetryAfter: SignupIPWindow}
		}
	}
	own := v.ID != 0 && v.Verified && addressKey(email) == addressKey(v.Email)
	var token string
	var pending []*List
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		sub, err := s.ensureSubscriber(ctx, tx, email, v, own)
		if err != nil {
			return err
		}
		for _, l := range lists {
			status, err := s.subscriptionStatus(ctx, tx, sub.ID, l.ID)
			if err != nil {
				return err
			}
			if status == "subscribed" {
				continue
			}
			action, to := "requested", "pending"
			if own || (sub.ConfirmedAt > 0 && v.ID != 0 && sub.UserID == v.ID) {
				action, to = "confirmed", "subscribed"
			} else {
				pending = append(pending, l)
			}
			if err := s.setSubscription(ctx, tx, sub.ID, l.ID, to, action, source, wording, ip); err != nil {
				return err
			}
		}
		if len(pending) == 0 || sub.SentAt > now.Add(-ResendAfter).Unix() {
			return nil // nothing to confirm, or a link went out moments ago and still works
		}
		tok, stored, err := s.newConfirmToken(ctx)
		if err != nil {
			return err
		}
		if _, err := s.exec(ctx, tx, `UPDATE newsletter_subscribers SET confirm_hash = ?, confirm_expires = ?, confirm_sent_at = ? WHERE id = ?`,
			stored, now.Add(ConfirmFor).Unix(), now.Unix(), sub.ID); err != nil {
			return err
		}
		token = tok
		_, err = s.opt.Outbox.EnqueueTx(ctx, tx, s.confirmationMail(sub.Email, token, pending))
		return err
	})
	if err != nil {
		return "", err
	}
	if token != "" {
		s.opt.Outbox.Wake()
	}
	if len(pending) == 0 && own {
		return "subscribed", nil
	}
	// To anyone else the answer is the same whether or not the address was subscribed
	// already: a sign-up form must not tell who is on a list.
	return "pending", nil
}

// ensureSubscriber finds or adds the address; an account's own verified address is
// confirmed and linked to it (so that deleting the account deletes it).
func (s *Service) ensureSubscriber(ctx context.Context, tx *sql.Tx, email string, v Viewer, own bool) (*subscriber, error) {
	now := s.now().Unix()
	sub, err := s.subscriberByEmail(ctx, tx, email)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		var id int64
		if err := tx.QueryRowContext(ctx, s.db.Rebind(
			`INSERT INTO newsletter_subscribers (email, created_at) VALUES (?, ?) RETURNING id`), addressKey(email), now).Scan(&id); err != nil {
			return nil, err
		}
		sub = &subscriber{ID: id, Email: addressKey(email)}
	}
	if own && (sub.ConfirmedAt == 0 || sub.UserID != v.ID) {
		if sub.ConfirmedAt == 0 {
			sub.ConfirmedAt = now
		}
		sub.UserID = v.ID
		if _, err := s.exec(ctx, tx, `UPDATE newsletter_subscribers SET confirmed_at = ?, user_id = ? WHERE id = ?`, sub.ConfirmedAt, v.ID, sub.ID); err != nil {
			return nil, err
		}
	}
	return sub, nil
}

func (s *Service) subscriptionStatus(ctx context.Context, q queryer, subID, listID int64) (string, error) {
	var st string
	err := q.QueryRowContext(ctx, s.db.Rebind(`SELECT status FROM newsletter_subscriptions WHERE subscriber_id = ? AND list_id = ?`), subID, listID).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return st, err
}

// setSubscription sets one list's status and records the consent given or withdrawn.
func (s *Service) setSubscription(ctx context.Context, tx *sql.Tx, subID, listID int64, status, action, source, wording, ip string) error {
	now := s.now().Unix()
	if _, err := s.exec(ctx, tx, `INSERT INTO newsletter_subscriptions (subscriber_id, list_id, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (list_id, subscriber_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
		subID, listID, status, now, now); err != nil {
		return err
	}
	_, err := s.exec(ctx, tx, `INSERT INTO newsletter_consents (subscriber_id, list_id, action, source, wording, ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		subID, listID, action, source, wording, ip, now)
	return err
}

var errConfirmToken = httpx.Invalid("token", "This confirmation link has expired or was already used. Sign up again to get a new one.")

// Confirmed is the answer of a confirmation.
type Confirmed struct {
	Email            string  `json:"email"`
	Lists            []*List `json:"lists"`
	PreferencesToken string  `json:"preferences_token"`
}

// Confirm uses a confirmation token: once, before it expires. The address is then
// confirmed and its pending lists subscribed, each consent recorded with the words
// and page of the sign-up it confirms.
func (s *Service) Confirm(ctx context.Context, token string) (*Confirmed, error) {
	if token == "" || len(token) > 100 {
		return nil, errConfirmToken
	}
	stored, err := s.confirmHash(ctx, token)
	if err != nil {
		return nil, err
	}
	now := s.now().Unix()
	var sub *subscriber
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		sub, err = scanSubscriber(tx.QueryRowContext(ctx, s.db.Rebind(
			`SELECT `+subscriberCols+` FROM newsletter_subscribers WHERE confirm_hash = ? AND confirm_expires > ?`), stored, now))
		if err != nil {
			return err
		}
		if sub == nil {
			return errConfirmToken
		}
		res, err := s.exec(ctx, tx, `UPDATE newsletter_subscribers SET confirm_hash = '', confirm_expires = 0,
			confirmed_at = CASE WHEN confirmed_at = 0 THEN ? ELSE confirmed_at END WHERE id = ? AND confirm_hash = ?`, now, sub.ID, stored)
		// No row: the token was used at the same moment by another request.
		if err := store.Changed(res, err, errConfirmToken); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.db.Rebind(`SELECT list_id FROM newsletter_subscriptions WHERE subscriber_id = ? AND status = 'pending'`), sub.ID)
		ids, err := store.Collect(rows, err, store.Scalar[int64])
		if err != nil {
			return err
		}
		for _, id := range ids {
			var source, wording string
			err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT source, wording FROM newsletter_consents
				WHERE subscriber_id = ? AND list_id = ? AND action = 'requested' ORDER BY id DESC LIMIT 1`), sub.ID, id).Scan(&source, &wording)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if err := s.setSubscription(ctx, tx, sub.ID, id, "subscribed", "confirmed", source, wording, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.preferencesOf(ctx, sub)
}

// preferencesOf is a subscriber's lists as their preferences page shows them: every
// public list and every list they have a subscription to, each with subscribed set.
func (s *Service) preferencesOf(ctx context.Context, sub *subscriber) (*Confirmed, error) {
	all, err := s.Lists(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT list_id, status FROM newsletter_subscriptions WHERE subscriber_id = ?`), sub.ID)
	status, err := store.CollectMap(rows, err, store.Pair[int64, string])
	if err != nil {
		return nil, err
	}
	out := &Confirmed{Email: sub.Email, Lists: []*List{}}
	for _, l := range all {
		st, has := status[l.ID]
		if l.Audience != "public" && !has {
			continue
		}
		on := st == "subscribed"
		l.Subscribed = &on
		out.Lists = append(out.Lists, l)
	}
	if out.PreferencesToken, err = s.PreferencesToken(ctx, sub.ID, sub.Email); err != nil {
		return nil, err
	}
	return out, nil
}

// Preferences returns the subscriber a preferences token names, with their lists.
func (s *Service) Preferences(ctx context.Context, token string) (*Confirmed, error) {
	sub, err := s.subscriberByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	return s.preferencesOf(ctx, sub)
}

const preferencesWording = "Chosen on the newsletter preferences page."

// SetPreferences makes the subscriber's lists exactly want (slugs): lists left out are
// unsubscribed; lists added are subscribed at once when the address is confirmed
// (the token came to it in a mail), and only public lists or those held already.
func (s *Service) SetPreferences(ctx context.Context, token string, want []string) (*Confirmed, error) {
	sub, err := s.subscriberByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	return s.setLists(ctx, sub, Viewer{}, want, "/newsletter/preferences", preferencesWording)
}

func (s *Service) setLists(ctx context.Context, sub *subscriber, v Viewer, want []string, source, wording string) (*Confirmed, error) {
	cur, err := s.preferencesOf(ctx, sub)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, l := range cur.Lists {
		if *l.Subscribed {
			held[l.Slug] = true
		}
	}
	var fe httpx.FieldErrors
	var add []string
	for _, slug := range want {
		if !held[slug] {
			add = append(add, slug)
		}
	}
	adding := s.chosenLists(ctx, &fe, v, add, false)
	if len(adding) > 0 && sub.ConfirmedAt == 0 {
		fe.Add("lists", "Confirm your address first: use the link in the email we sent you.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	wanted := map[string]bool{}
	for _, slug := range want {
		wanted[slug] = true
	}
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, l := range adding {
			if err := s.setSubscription(ctx, tx, sub.ID, l.ID, "subscribed", "confirmed", source, wording, ""); err != nil {
				return err
			}
		}
		return s.withdraw(ctx, tx, sub.ID, func(slug string) bool { return !wanted[slug] }, source)
	})
	if err != nil {
		return nil, err
	}
	return s.preferencesOf(ctx, sub)
}

// withdraw unsubscribes the subscriber from every list held or pending that drop
// selects, recording the withdrawal.
func (s *Service) withdraw(ctx context.Context, tx *sql.Tx, subID int64, drop func(slug string) bool, source string) error {
	rows, err := tx.QueryContext(ctx, s.db.Rebind(`SELECT l.id, l.slug FROM newsletter_subscriptions x JOIN newsletter_lists l ON l.id = x.list_id
		WHERE x.subscriber_id = ? AND x.status <> 'unsubscribed'`), subID)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			rows.Close()
			return err
		}
		if drop(slug) {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.setSubscription(ctx, tx, subID, id, "unsubscribed", "withdrawn", source, "", ""); err != nil {
			return err
		}
	}
	return nil
}

// Unsubscribe takes the subscriber a token names off one list (slug) or all ("").
// It is done when it returns: the next batch of any edition no longer includes them.
func (s *Service) Unsubscribe(ctx context.Context, token, slug, source string) (*Confirmed, error) {
	sub, err := s.subscriberByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if slug != "" {
		if _, err := s.List(ctx, slug); err != nil {
			return nil, httpx.Invalid("list", "The list %q does not exist.", textfield.Escape(slug))
		}
	}
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		return s.withdraw(ctx, tx, sub.ID, func(l string) bool { return slug == "" || l == slug }, source)
	})
	if err != nil {
		return nil, err
	}
	return s.preferencesOf(ctx, sub)
}

// Mine is the signed-in account's subscriber, found by its address and linked to the
// account when the address is verified; nil when there is none yet.
func (s *Service) mine(ctx context.Context, v Viewer, create bool) (*subscriber, error) {
	sub, err := s.subscriberByEmail(ctx, s.db, v.Email)
	if err != nil {
		return nil, err
	}
	if sub == nil && !create {
		return nil, nil
	}
	if !v.Verified {
		return sub, nil
	}
	if sub == nil || sub.UserID != v.ID || sub.ConfirmedAt == 0 {
		err = s.db.InTx(ctx, func(tx *sql.Tx) error {
			sub, err = s.ensureSubscriber(ctx, tx, v.Email, v, true)
			return err
		})
	}
	return sub, err
}

// Me is the signed-in account's lists.
func (s *Service) Me(ctx context.Context, v Viewer) (*Confirmed, error) {
	sub, err := s.mine(ctx, v, false)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		sub = &subscriber{Email: addressKey(v.Email)}
	}
	out, err := s.preferencesOf(ctx, sub)
	if err != nil {
		return nil, err
	}
	if sub.ID == 0 {
		out.PreferencesToken = ""
	}
	// A member sees the members' lists open to them too.
	all, err := s.Lists(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range all {
		if l.Audience == "public" || !l.open(v) {
			continue
		}
		shown := false
		for _, x := range out.Lists {
			shown = shown || x.Slug == l.Slug
		}
		if !shown {
			off := false
			l.Subscribed = &off
			out.Lists = append(out.Lists, l)
		}
	}
	return out, nil
}

// SetMine sets the signed-in account's lists; its address is proven once verified.
func (s *Service) SetMine(ctx context.Context, v Viewer, want []string, source, wording string) (*Confirmed, error) {
	if !v.Verified {
		return nil, httpx.Invalid("email", "Verify your email address first: use the link we sent when you registered.")
	}
	var fe httpx.FieldErrors
	if source == "" {
		source = "/user-account"
	}
	if wording == "" {
		wording = "Chosen in the account area."
	}
	source, wording = consentText(&fe, source, wording)
	if err := fe.Err(); err != nil {
		return nil, err
	}
	sub, err := s.mine(ctx, v, true)
	if err != nil {
		return nil, err
	}
	return s.setLists(ctx, sub, v, want, source, wording)
}

func (s *Service) confirmationMail(to, token string, lists []*List) mail.Message {
	link := s.abs("/newsletter/confirm?token=" + url.QueryEscape(token))
	var names []string
	for _, l := range lists {
		names = append(names, l.Name)
	}
	what := strings.Join(names, ", ")
	text := fmt.Sprintf("Someone, we hope you, asked for %s from %s to be sent to this address.\n\n"+
		"To confirm, open this link within %d hours:\n%s\n\n"+
		"If it was not you, ignore this message: nothing will be sent to you.\n", what, s.opt.SocietyName, int(ConfirmFor.Hours()), link)
	html := emailPage(s.opt.SocietyName, "Confirm your subscription",
		`<p style="margin:0 0 16px">Someone, we hope you, asked for <strong>`+esc(what)+`</strong> from `+esc(s.opt.SocietyName)+` to be sent to this address.</p>`+
			`<p style="margin:0 0 16px"><a href="`+esc(link)+`" style="display:inline-block;background:#1d4e89;color:#ffffff;padding:12px 20px;border-radius:4px;text-decoration:none;font-weight:bold">Confirm my subscription</a></p>`+
			fmt.Sprintf(`<p style="margin:0 0 16px">The link works for %d hours. If it was not you, ignore this message: nothing will be sent to you.</p>`, int(ConfirmFor.Hours())), "")
	return mail.Message{
		To:      to,
		Subject: "Confirm your subscription to " + s.opt.SocietyName,
		Text:    wrapLines(text),
		HTML:    html,
		Headers: []mail.Header{{Name: "Auto-Submitted", Value: "auto-generated"}},
	}
}
