package main

import (
	"net/http"

	"lineage/internal/content"
	"lineage/internal/httpx"
	"lineage/internal/iiif"
	"lineage/internal/server"
	staffroom "lineage/internal/staff"
)

// Access levels of the table's rows; each room's handler or adapter enforces its row's
// level and TestRouteAccess holds the table to it.
const (
	public    = httpx.Public
	signedIn  = httpx.SignedIn
	owner     = httpx.Owner
	staff     = httpx.Staff
	admin     = httpx.Admin
	stripeSig = httpx.Stripe
)

// routes is the HTTP API: every route of every room, who may call it, and the middleware
// and JSON fallback of each room (docs/decisions/013-one-error-contract-and-route-table.md).
func (a *app) routes() []httpx.Room {
	session := a.accounts.Middleware
	acc, mem, ms, tr, ct, im, pay, rs := a.accounts, a.members, a.membership, a.trees, a.content, a.images, a.payments, a.research
	nl := a.newsletter
	ev := a.events
	st := a.staff
	return []httpx.Room{
		{
			// Prismic's API, answered in Prismic's shapes (errors included) for its client.
			Name: "content",
			Routes: []httpx.Route{
				{Pattern: "GET " + content.APIPath, Handler: httpx.Plain(ct.ServeAPI), Access: public},
				{Pattern: "GET " + content.APIPath + "/{$}", Handler: httpx.Plain(ct.ServeAPI), Access: public},
				{Pattern: "GET " + content.APIPath + "/documents/search", Handler: httpx.Plain(ct.ServeSearch), Access: public},
				{Pattern: "GET " + content.APIPath + "/tags", Handler: httpx.Plain(ct.ServeTags), Access: public},
				{Pattern: content.APIPath + "/", Handler: httpx.Plain(ct.ServeNoEndpoint), Access: public},
				{Pattern: "/media/", Handler: httpx.Plain(ct.ServeMedia), Access: public},
			},
		},
		{
			// The studio's writing side of the content room (staff; model edits admins).
			Name:     "studio",
			Session:  session,
			Fallback: []string{content.StudioPrefix + "/"},
			Routes: []httpx.Route{
				{Pattern: "GET " + content.StudioPrefix + "/models", Handler: ct.Staff(ct.GetModels), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/models/{id}", Handler: ct.Staff(ct.GetModel), Access: staff},
				{Pattern: "PUT " + content.StudioPrefix + "/models/{id}", Handler: ct.Admin(ct.PutModel), Access: admin},
				{Pattern: "DELETE " + content.StudioPrefix + "/models/{id}", Handler: ct.Admin(ct.DeleteModel), Access: admin},
				{Pattern: "GET " + content.StudioPrefix + "/slices/{id}", Handler: ct.Staff(ct.GetSlice), Access: staff},
				{Pattern: "PUT " + content.StudioPrefix + "/slices/{id}", Handler: ct.Admin(ct.PutSlice), Access: admin},
				{Pattern: "DELETE " + content.StudioPrefix + "/slices/{id}", Handler: ct.Admin(ct.DeleteSlice), Access: admin},
				{Pattern: "GET " + content.StudioPrefix + "/documents", Handler: ct.Staff(ct.ListStudioDocuments), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/documents", Handler: ct.Staff(ct.PostDocument), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/documents/{id}", Handler: ct.Staff(ct.GetStudioDocument), Access: staff},
				{Pattern: "PUT " + content.StudioPrefix + "/documents/{id}", Handler: ct.Staff(ct.PutDocument), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/duplicate", Handler: ct.Staff(ct.PostDuplicate), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/publish", Handler: ct.Staff(ct.PostPublish), Access: staff, ChangesPages: true},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/unpublish", Handler: ct.Staff(ct.PostUnpublish), Access: staff, ChangesPages: true},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/archive", Handler: ct.Staff(ct.PostArchive), Access: staff, ChangesPages: true},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/unarchive", Handler: ct.Staff(ct.PostUnarchive), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/documents/{id}/versions", Handler: ct.Staff(ct.GetVersions), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/documents/{id}/versions/{vid}", Handler: ct.Staff(ct.GetVersionHandler), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/documents/{id}/versions/{vid}/restore", Handler: ct.Staff(ct.PostRestore), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/uid-check", Handler: ct.Staff(ct.GetUIDCheck), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/links", Handler: ct.Staff(ct.GetLinks), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/tags", Handler: ct.Staff(ct.GetStudioTags), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/preview", Handler: ct.Staff(ct.PostPreview), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/releases", Handler: ct.Staff(ct.GetReleases), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/releases", Handler: ct.Staff(ct.PostRelease), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/releases/{id}", Handler: ct.Staff(ct.GetReleaseHandler), Access: staff},
				{Pattern: "PATCH " + content.StudioPrefix + "/releases/{id}", Handler: ct.Staff(ct.PatchRelease), Access: staff},
				{Pattern: "DELETE " + content.StudioPrefix + "/releases/{id}", Handler: ct.Staff(ct.DeleteReleaseHandler), Access: staff},
				{Pattern: "PUT " + content.StudioPrefix + "/releases/{id}/documents/{doc}", Handler: ct.Staff(ct.PutReleaseDocument), Access: staff},
				{Pattern: "DELETE " + content.StudioPrefix + "/releases/{id}/documents/{doc}", Handler: ct.Staff(ct.DeleteReleaseDocument), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/releases/{id}/publish", Handler: ct.Staff(ct.PostPublishRelease), Access: staff, ChangesPages: true},
				{Pattern: "GET " + content.StudioPrefix + "/media", Handler: ct.Staff(ct.GetMediaList), Access: staff},
				{Pattern: "POST " + content.StudioPrefix + "/media", Handler: ct.Staff(ct.PostMedia), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/media/{id}", Handler: ct.Staff(ct.GetMediaItem), Access: staff},
				{Pattern: "PATCH " + content.StudioPrefix + "/media/{id}", Handler: ct.Staff(ct.PatchMedia), Access: staff},
				{Pattern: "GET " + content.StudioPrefix + "/webhooks", Handler: ct.Admin(ct.GetWebhooks), Access: admin},
				{Pattern: "POST " + content.StudioPrefix + "/webhooks/test", Handler: ct.Admin(ct.PostTestWebhooks), Access: admin},
			},
		},
		{
			Name:    "auth",
			Session: session,
			Fallback: []string{"/sanctum/csrf-cookie", "/api/user", "/api/user/", "/api/register", "/api/email/",
				"/api/forgot-password", "/api/reset-password", "/api/tokens", "/api/tokens/", "/api/oidc", "/api/oidc/"},
			Routes: []httpx.Route{
				{Pattern: "GET /sanctum/csrf-cookie", Handler: acc.CSRFCookie, Access: public},
				{Pattern: "POST /login", Handler: acc.Login, Access: public},
				{Pattern: "POST /logout", Handler: acc.Logout, Access: signedIn},
				{Pattern: "GET /api/user", Handler: acc.GetUser, Access: signedIn},
				{Pattern: "PATCH /api/user", Handler: acc.UpdateProfile, Access: signedIn},
				{Pattern: "DELETE /api/user", Handler: acc.DeleteAccount, Access: signedIn},
				{Pattern: "GET /api/user/data", Handler: acc.ExportData, Access: signedIn},
				{Pattern: "PUT /api/user/password", Handler: acc.ChangePassword, Access: signedIn},
				{Pattern: "PUT /api/user/email", Handler: acc.ChangeEmail, Access: signedIn},
				{Pattern: "POST /api/register", Handler: acc.Register, Access: public},
				{Pattern: "POST /api/email/verify", Handler: acc.VerifyEmail, Access: public},
				{Pattern: "POST /api/email/verification-notification", Handler: acc.ResendVerification, Access: public},
				{Pattern: "POST /api/forgot-password", Handler: acc.ForgotPassword, Access: public},
				{Pattern: "POST /api/reset-password", Handler: acc.ResetPassword, Access: public},
				{Pattern: "POST /api/tokens", Handler: acc.CreateToken, Access: public},
				{Pattern: "POST /api/tokens/refresh", Handler: acc.RefreshToken, Access: public},
				{Pattern: "DELETE /api/tokens/current", Handler: acc.DeleteCurrentToken, Access: signedIn},
				{Pattern: "GET /api/oidc", Handler: acc.OIDCInfo, Access: public},
				{Pattern: "GET /api/oidc/redirect", Handler: acc.OIDCRedirect, Access: public},
				{Pattern: "POST /api/oidc/callback", Handler: acc.OIDCCallback, Access: public},
			},
		},
		{
			Name:    "members",
			Session: session,
			Fallback: []string{"/api/bookmarks", "/api/bookmarks/", "/api/reading-lists", "/api/reading-lists/",
				"/api/saved-searches", "/api/saved-searches/", "/api/search-history", "/api/search-history/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/bookmarks", Handler: mem.SignedIn(mem.ListBookmarks), Access: signedIn},
				{Pattern: "POST /api/bookmarks", Handler: mem.SignedIn(mem.AddBookmark), Access: signedIn},
				{Pattern: "DELETE /api/bookmarks/{id}", Handler: mem.SignedIn(mem.DeleteBookmark), Access: signedIn},

				{Pattern: "GET /api/reading-lists", Handler: mem.SignedIn(mem.ListReadingLists), Access: signedIn},
				{Pattern: "POST /api/reading-lists", Handler: mem.SignedIn(mem.CreateReadingList), Access: signedIn},
				{Pattern: "GET /api/reading-lists/{id}", Handler: mem.SignedIn(mem.GetReadingList), Access: signedIn},
				{Pattern: "PATCH /api/reading-lists/{id}", Handler: mem.SignedIn(mem.RenameReadingList), Access: signedIn},
				{Pattern: "DELETE /api/reading-lists/{id}", Handler: mem.SignedIn(mem.DeleteReadingList), Access: signedIn},
				{Pattern: "POST /api/reading-lists/{id}/items", Handler: mem.SignedIn(mem.AddListItem), Access: signedIn},
				{Pattern: "DELETE /api/reading-lists/{id}/items/{item}", Handler: mem.SignedIn(mem.RemoveListItem), Access: signedIn},
				{Pattern: "PUT /api/reading-lists/{id}/order", Handler: mem.SignedIn(mem.ReorderList), Access: signedIn},

				{Pattern: "GET /api/saved-searches", Handler: mem.SignedIn(mem.ListSavedSearches), Access: signedIn},
				{Pattern: "POST /api/saved-searches", Handler: mem.SignedIn(mem.CreateSavedSearch), Access: signedIn},
				{Pattern: "GET /api/saved-searches/{id}", Handler: mem.SignedIn(mem.GetSavedSearch), Access: signedIn},
				{Pattern: "PATCH /api/saved-searches/{id}", Handler: mem.SignedIn(mem.UpdateSavedSearch), Access: signedIn},
				{Pattern: "DELETE /api/saved-searches/{id}", Handler: mem.SignedIn(mem.DeleteSavedSearch), Access: signedIn},

				{Pattern: "GET /api/search-history", Handler: mem.SignedIn(mem.ListHistory), Access: signedIn},
				{Pattern: "POST /api/search-history", Handler: mem.SignedIn(mem.RecordHistory), Access: signedIn},
				{Pattern: "DELETE /api/search-history", Handler: mem.SignedIn(mem.ClearHistory), Access: signedIn},
				{Pattern: "DELETE /api/search-history/{id}", Handler: mem.SignedIn(mem.DeleteHistoryEntry), Access: signedIn},
			},
		},
		{
			Name:    "membership",
			Session: session,
			Fallback: []string{"/api/membership", "/api/membership/",
				"/api/admin/members", "/api/admin/members/", "/api/admin/members.csv", "/api/admin/membership/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/membership/plans", Handler: ms.Public(ms.GetPlans), Access: public},
				{Pattern: "GET /api/membership/plans/{slug}", Handler: ms.Public(ms.GetPlan), Access: public},
				{Pattern: "GET /api/membership", Handler: ms.SignedIn(ms.GetMine), Access: signedIn},
				{Pattern: "POST /api/membership/join", Handler: ms.SignedIn(ms.PostJoin), Access: signedIn},
				{Pattern: "POST /api/membership/cancel-renewal", Handler: ms.SignedIn(ms.PostCancelRenewal), Access: signedIn},
				{Pattern: "POST /api/membership/renew", Handler: ms.SignedIn(ms.PostRenew), Access: signedIn},
				{Pattern: "GET /api/membership/receipts/{number}", Handler: ms.SignedIn(ms.GetReceipt), Access: signedIn},
				{Pattern: "POST /api/membership/household", Handler: ms.SignedIn(ms.PostHousehold), Access: signedIn},
				{Pattern: "DELETE /api/membership/household/{user_id}", Handler: ms.SignedIn(ms.DeleteHousehold), Access: signedIn},
				{Pattern: "GET /api/membership/gift-aid", Handler: ms.SignedIn(ms.GetGiftAid), Access: signedIn},
				{Pattern: "POST /api/membership/gift-aid", Handler: ms.SignedIn(ms.PostGiftAid), Access: signedIn},
				{Pattern: "POST /api/membership/gift-aid/cancel", Handler: ms.SignedIn(ms.PostGiftAidCancel), Access: signedIn},
				{Pattern: "POST /api/membership/marketing-consent", Handler: ms.SignedIn(ms.PostMarketingConsent), Access: signedIn},

				{Pattern: "GET /api/admin/members", Handler: ms.Admin(ms.AdminList), Access: admin},
				{Pattern: "GET /api/admin/members.csv", Handler: ms.Admin(ms.AdminExport), Access: admin},
				{Pattern: "POST /api/admin/members/import", Handler: ms.Admin(ms.AdminImport), Access: admin},
				{Pattern: "GET /api/admin/members/{id}", Handler: ms.Admin(ms.AdminGet), Access: admin},
				{Pattern: "POST /api/admin/members/{id}/payments", Handler: ms.Admin(ms.AdminPayment), Access: admin},
				{Pattern: "POST /api/admin/members/{id}/complimentary", Handler: ms.Admin(ms.AdminComplimentary), Access: admin},
				{Pattern: "POST /api/admin/members/{id}/plan", Handler: ms.Admin(ms.AdminPlan), Access: admin},
				{Pattern: "GET /api/admin/membership/plans", Handler: ms.Admin(ms.AdminPlans), Access: admin},
				{Pattern: "POST /api/admin/membership/plans", Handler: ms.Admin(ms.AdminSavePlan), Access: admin, ChangesPages: true},
				{Pattern: "PUT /api/admin/membership/plans/{slug}", Handler: ms.Admin(ms.AdminSavePlan), Access: admin, ChangesPages: true},
			},
		},
		{
			// Under the membership room's paths, but the payments room's handler: a room of
			// its own, so that the membership room's 404s and 405s stay its own.
			Name:    "payments",
			Session: session,
			Routes:  []httpx.Route{{Pattern: "POST /api/membership/portal", Handler: pay.OpenPortal, Access: signedIn}},
		},
		{
			// Stripe has no session: its signature is the authentication.
			Name:   "payments",
			Routes: []httpx.Route{{Pattern: "POST /api/stripe/webhook", Handler: pay.Webhook, Access: stripeSig}},
		},
		{
			// Event bookings: what changes places left or an event's state purges the
			// page cache (the event pages show them to visitors).
			Name:     "events",
			Session:  session,
			Fallback: []string{"/api/events/", "/api/bookings", "/api/bookings/", "/api/admin/events/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/events/booking-states", Handler: ev.Public(ev.GetStates), Access: public},
				{Pattern: "GET /api/events/{uid}/booking", Handler: ev.Public(ev.GetEventBooking), Access: public},
				{Pattern: "POST /api/events/{uid}/bookings", Handler: ev.Public(ev.PostBooking), Access: public, ChangesPages: true},
				{Pattern: "POST /api/bookings/confirm", Handler: ev.Public(ev.PostConfirm), Access: public, ChangesPages: true},
				{Pattern: "POST /api/bookings/offers/accept", Handler: ev.Public(ev.PostAcceptOffer), Access: public, ChangesPages: true},
				{Pattern: "GET /api/bookings", Handler: ev.SignedIn(ev.GetMine), Access: signedIn},
				// The booking's account, staff, or a visitor with the booking's key (?key=).
				{Pattern: "GET /api/bookings/{ref}", Handler: ev.Public(ev.GetBooking), Access: public},
				{Pattern: "POST /api/bookings/{ref}/cancel", Handler: ev.Public(ev.PostCancel), Access: public, ChangesPages: true},
				{Pattern: "GET /api/bookings/{ref}/ics", Handler: ev.Public(ev.GetICS), Access: public},

				{Pattern: "GET /api/admin/events/{uid}/booking-settings", Handler: ev.Staff(ev.AdminGetSettings), Access: staff},
				{Pattern: "PUT /api/admin/events/{uid}/booking-settings", Handler: ev.Staff(ev.AdminPutSettings), Access: staff, ChangesPages: true},
				{Pattern: "GET /api/admin/events/{uid}/attendees", Handler: ev.Staff(ev.AdminAttendees), Access: staff},
				{Pattern: "GET /api/admin/events/{uid}/attendees.csv", Handler: ev.Staff(ev.AdminAttendeesCSV), Access: staff},
				{Pattern: "POST /api/admin/events/{uid}/attendees/{ref}/check-in", Handler: ev.Staff(ev.AdminCheckIn), Access: staff},
				{Pattern: "POST /api/admin/events/{uid}/message", Handler: ev.Staff(ev.AdminMessage), Access: staff},
				{Pattern: "POST /api/admin/events/{uid}/cancel", Handler: ev.Staff(ev.AdminCancel), Access: staff, ChangesPages: true},
			},
		},
		{
			Name:     "trees",
			Session:  session,
			Fallback: []string{"/api/trees", "/api/trees/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/trees", Handler: tr.ListTrees, Access: public},
				{Pattern: "GET /api/trees/search", Handler: tr.SearchPeople, Access: public},
				{Pattern: "GET /api/trees/uploads", Handler: tr.ListOwnTrees, Access: signedIn},
				{Pattern: "POST /api/trees/uploads", Handler: tr.Upload, Access: signedIn, ChangesPages: true},
				{Pattern: "GET /api/trees/{slug}", Handler: tr.GetTree, Access: public},
				{Pattern: "DELETE /api/trees/{slug}", Handler: tr.DeleteTree, Access: owner, ChangesPages: true},
				{Pattern: "GET /api/trees/{slug}/surnames", Handler: tr.ListSurnames, Access: public},
				{Pattern: "GET /api/trees/{slug}/people", Handler: tr.ListPeople, Access: public},
				{Pattern: "GET /api/trees/{slug}/people/{id}", Handler: tr.GetPerson, Access: public},
				{Pattern: "GET /api/trees/{slug}/people/{id}/{section}", Handler: tr.GetPersonSection, Access: public},
				{Pattern: "GET /api/trees/{slug}/graph", Handler: tr.GetGraph, Access: public},
				{Pattern: "POST /api/trees/{slug}/publish", Handler: st.Audited(staffroom.ActionTreePublish, "tree:", published(false), published(true), tr.Publish), Access: staff, ChangesPages: true},
				{Pattern: "POST /api/trees/{slug}/unpublish", Handler: st.Audited(staffroom.ActionTreeUnpublish, "tree:", published(true), published(false), tr.Unpublish), Access: staff, ChangesPages: true},
				{Pattern: "POST /api/trees/{slug}/access", Handler: st.AuditedTreeAccess(tr.SetTreeAccess), Access: staff, ChangesPages: true},
			},
		},
		{
			Name:     "research",
			Session:  session,
			Fallback: []string{"/api/research/", "/api/search"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/research/search", Handler: rs.GetSearch, Access: public},
				{Pattern: "GET /api/research/count", Handler: rs.GetCount, Access: public},
				{Pattern: "GET /api/research/records/{id}", Handler: rs.GetRecord, Access: public},
				{Pattern: "GET /api/research/collections", Handler: rs.ListCollections, Access: public},
				{Pattern: "GET /api/research/collections/{slug}", Handler: rs.GetCollection, Access: public},
				{Pattern: "GET /api/research/places", Handler: rs.ListPlaces, Access: public},
				{Pattern: "GET /api/research/vocabulary", Handler: rs.GetVocabulary, Access: public},
				{Pattern: "GET /api/search", Handler: rs.GetGlobal, Access: public},
			},
		},
		{
			// IIIF's URL grammar, read by the image server itself; errors in IIIF's plain
			// text. Public scans are served without a session, members-only ones behind it.
			Name:   "iiif",
			Routes: []httpx.Route{{Pattern: iiif.Prefix, Handler: httpx.Plain(im.ServeIIIF), Access: public}},
		},
		{
			Name:     "images",
			Session:  session,
			Fallback: []string{"/api/images", "/api/images/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/images", Handler: im.ListImages, Access: public},
				{Pattern: "GET /api/images/{slug...}", Handler: im.GetImageItem, Access: public},
			},
		},
		{
			Name:     "newsletter",
			Session:  session,
			Fallback: []string{"/api/newsletter/", "/api/admin/newsletter/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/newsletter/lists", Handler: nl.GetLists, Access: public},
				{Pattern: "POST /api/newsletter/subscribe", Handler: nl.PostSubscribe, Access: public},
				{Pattern: "POST /api/newsletter/confirm", Handler: nl.PostConfirm, Access: public},
				{Pattern: "GET /api/newsletter/preferences", Handler: nl.GetPreferences, Access: public},
				{Pattern: "PUT /api/newsletter/preferences", Handler: nl.PutPreferences, Access: public},
				{Pattern: "POST /api/newsletter/unsubscribe", Handler: nl.PostUnsubscribe, Access: public},
				{Pattern: "GET /api/newsletter/me", Handler: nl.SignedIn(nl.GetMe), Access: signedIn},
				{Pattern: "PUT /api/newsletter/me", Handler: nl.SignedIn(nl.PutMe), Access: signedIn},
				{Pattern: "GET /api/newsletter/alerts", Handler: nl.SignedIn(nl.GetAlerts), Access: signedIn},
				{Pattern: "PUT /api/newsletter/alerts/{id}", Handler: nl.SignedIn(nl.PutAlert), Access: signedIn},
				{Pattern: "DELETE /api/newsletter/alerts/{id}", Handler: nl.SignedIn(nl.DeleteAlertHandler), Access: signedIn},
				{Pattern: "GET /api/newsletter/editions", Handler: nl.GetArchive, Access: public},
				{Pattern: "GET /api/newsletter/editions/{id}", Handler: nl.GetArchived, Access: public},

				{Pattern: "GET /api/admin/newsletter/lists", Handler: nl.Admin(nl.AdminGetLists), Access: admin},
				// The sign-up forms on public pages list the lists.
				{Pattern: "POST /api/admin/newsletter/lists", Handler: nl.Admin(nl.AdminPostList), Access: admin, ChangesPages: true},
				{Pattern: "PUT /api/admin/newsletter/lists/{slug}", Handler: nl.Admin(nl.AdminPutList), Access: admin, ChangesPages: true},
				{Pattern: "GET /api/admin/newsletter/documents", Handler: nl.Staff(nl.AdminGetDocuments), Access: staff},
				{Pattern: "GET /api/admin/newsletter/editions", Handler: nl.Staff(nl.AdminGetEditions), Access: staff},
				{Pattern: "POST /api/admin/newsletter/editions", Handler: nl.Staff(nl.AdminPostEdition), Access: staff},
				{Pattern: "GET /api/admin/newsletter/editions/{id}", Handler: nl.Staff(nl.AdminGetEdition), Access: staff},
				{Pattern: "PATCH /api/admin/newsletter/editions/{id}", Handler: nl.Staff(nl.AdminPatchEdition), Access: staff},
				{Pattern: "GET /api/admin/newsletter/editions/{id}/preview", Handler: nl.Staff(nl.AdminPreview), Access: staff},
				{Pattern: "POST /api/admin/newsletter/editions/{id}/test", Handler: nl.Staff(nl.AdminTest), Access: staff},
				// Sending puts the edition in the public archive (/newsletter).
				{Pattern: "POST /api/admin/newsletter/editions/{id}/send", Handler: nl.Staff(nl.AdminSend), Access: staff, ChangesPages: true},
				{Pattern: "POST /api/admin/newsletter/editions/{id}/cancel", Handler: nl.Staff(nl.AdminCancel), Access: staff},
				{Pattern: "GET /api/admin/newsletter/editions/{id}/recipients", Handler: nl.Staff(nl.AdminRecipients), Access: staff},
			},
		},
		{
			// RFC 8058's one-click unsubscribe: mail providers POST it with no cookie and
			// no CSRF token, so no session middleware; the signed token is the authority.
			Name: "newsletter",
			Routes: []httpx.Route{
				{Pattern: "POST /api/newsletter/one-click", Handler: nl.PostOneClick, Access: public},
				{Pattern: "GET /api/newsletter/one-click", Handler: nl.GetOneClick, Access: public},
			},
		},
		{
			// The studio's staff tools (docs/studio-staff.md); the content studio is its own room.
			Name:     "staff",
			Session:  session,
			Fallback: []string{"/api/studio/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/studio/people", Handler: st.Admin(st.ListPeople), Access: admin},
				{Pattern: "GET /api/studio/people/{id}", Handler: st.Admin(st.GetPerson), Access: admin},
				{Pattern: "PUT /api/studio/people/{id}/role", Handler: st.Admin(st.PutRole), Access: admin},
				{Pattern: "POST /api/studio/people/{id}/disable", Handler: st.Admin(st.PostDisable), Access: admin},
				{Pattern: "POST /api/studio/people/{id}/enable", Handler: st.Admin(st.PostEnable), Access: admin},
				{Pattern: "POST /api/studio/people/{id}/password-reset", Handler: st.Admin(st.PostPasswordReset), Access: admin},

				{Pattern: "GET /api/studio/audit", Handler: st.Admin(st.ListAudit), Access: admin},
				{Pattern: "GET /api/studio/audit.csv", Handler: st.Admin(st.ExportAudit), Access: admin},

				{Pattern: "GET /api/studio/records/uploads", Handler: st.Staff(st.ListRecordsUploads), Access: staff},
				{Pattern: "POST /api/studio/records/uploads", Handler: st.Staff(st.PostRecordsUpload), Access: staff},
				{Pattern: "GET /api/studio/records/uploads/{id}", Handler: st.Staff(st.GetRecordsUpload), Access: staff},
				{Pattern: "DELETE /api/studio/records/uploads/{id}", Handler: st.Staff(st.DeleteRecordsUpload), Access: staff},
				{Pattern: "POST /api/studio/records/uploads/{id}/dry-run", Handler: st.Staff(st.PostRecordsDryRun), Access: staff},
				// The records appear when the job is done; the job, not this answer, tells
				// the page caches (staff Options.PagesChanged).
				{Pattern: "POST /api/studio/records/uploads/{id}/import", Handler: st.Staff(st.PostRecordsImport), Access: staff},
				{Pattern: "GET /api/studio/records/mappings", Handler: st.Staff(st.ListMappings), Access: staff},
				{Pattern: "PUT /api/studio/records/mappings/{name}", Handler: st.Staff(st.PutMapping), Access: staff},
				{Pattern: "DELETE /api/studio/records/mappings/{name}", Handler: st.Staff(st.DeleteMapping), Access: staff},

				{Pattern: "GET /api/studio/jobs", Handler: st.Staff(st.ListJobs), Access: staff},
				{Pattern: "GET /api/studio/jobs/{id}", Handler: st.Staff(st.GetJob), Access: staff},
				{Pattern: "GET /api/studio/jobs/{id}/events", Handler: st.Staff(st.JobEvents), Access: staff},
				{Pattern: "POST /api/studio/jobs/{id}/cancel", Handler: st.Staff(st.CancelJob), Access: staff},

				{Pattern: "POST /api/studio/scans/uploads", Handler: st.Staff(st.PostScansUpload), Access: staff},

				{Pattern: "GET /api/studio/trees", Handler: st.Staff(st.ListTreeQueue), Access: staff},
				{Pattern: "POST /api/studio/trees/uploads", Handler: st.Staff(st.PostTreeUpload), Access: staff, ChangesPages: true},
				{Pattern: "POST /api/studio/trees/{slug}/publish", Handler: st.Staff(st.PostTreePublish), Access: staff, ChangesPages: true},
				{Pattern: "POST /api/studio/trees/{slug}/unpublish", Handler: st.Staff(st.PostTreeUnpublish), Access: staff, ChangesPages: true},

				{Pattern: "GET /api/studio/staff/summary", Handler: st.Staff(st.GetSummary), Access: staff},
			},
		},
		{
			// Addresses people guess for the site's pages, sent on to the real ones.
			Name:   "aliases",
			Routes: pageAliasRoutes(),
		},
	}
}

// published is a tree's state in the audit log.
func published(p bool) map[string]bool { return map[string]bool{"published": p} }

// pageAliases are the addresses people type for pages the site has under other names
// (web/app/routes.ts), and where a GET of one is sent. Only GET (and HEAD): POST /login
// is the auth room's sign-in.
var pageAliases = []struct{ from, to string }{
	{"/login", "/sign-in"},
	{"/log-in", "/sign-in"},
	{"/signin", "/sign-in"},
	{"/logon", "/sign-in"},
	{"/logout", "/sign-out"},
	{"/log-out", "/sign-out"},
	{"/signout", "/sign-out"},
	{"/signup", "/register"},
	{"/sign-up", "/register"},
	{"/account", "/user-account"},
	{"/my-account", "/user-account"},
	{"/profile", "/user-account"},
	{"/join", "/subscribe"},
	{"/membership", "/subscribe"},
	{"/events", "/sog-events"},
	{"/admin", "/admin/members"},
}

// pageAliasRoutes are pageAliases as the table's rows: a permanent redirect that keeps
// the query (/login?redirect=… still reaches the sign-in page with it).
func pageAliasRoutes() []httpx.Route {
	out := make([]httpx.Route, 0, len(pageAliases))
	for _, a := range pageAliases {
		to := a.to
		out = append(out, httpx.Route{Pattern: "GET " + a.from, Access: public, Handler: httpx.Plain(func(w http.ResponseWriter, r *http.Request) {
			target := to
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
		})})
	}
	return out
}

// frontDoorMounts are the table's routes and fallbacks, as the front door registers
// them.
func (a *app) frontDoorMounts() []server.Mount {
	var out []server.Mount
	for _, rm := range a.routes() {
		out = append(out, rm.Mounts()...)
	}
	return out
}
