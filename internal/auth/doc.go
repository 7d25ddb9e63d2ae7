// Package auth is the room for accounts and signing in: users and roles, argon2id
// passwords, database-backed browser sessions with Laravel-Sanctum-compatible CSRF
// protection, bearer tokens for API clients, sign-in throttling, registration with email
// verification, password reset and email change by mailed one-time links, and sign-in
// through an external OpenID Connect provider.
//
// Service.Middleware loads the session or bearer token of every request it wraps and
// enforces CSRF on state-changing requests that carry the session cookie; other rooms
// (members, paywalled content) wrap their handlers with it and ask UserID or UserFrom who
// is signed in. The HTTP contract is documented for the web app in docs/auth.md.
package auth
