// Package members is the room for what a signed-in member keeps in the account area:
// bookmarks, reading lists, saved searches and search history, each with a JSON API
// under /api/.
//
// Every row belongs to one user, and every query names that user: another member's
// item answers 404, exactly like an item that does not exist. The room learns who is
// signed in through the CurrentUser interface it declares (the auth room implements
// it); the rows go with the account through the schema's ON DELETE CASCADE.
package members
