-- +goose Up
-- The account area's collections (internal/members). Each row belongs to one user and
-- goes with the account. Times are Unix seconds, as in 00003_auth.sql.

CREATE TABLE bookmarks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url        TEXT    NOT NULL,                        -- a local path of the site
    title      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (user_id, url)
);

CREATE TABLE reading_lists (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX reading_lists_user ON reading_lists (user_id);

CREATE TABLE reading_list_items (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    list_id    INTEGER NOT NULL REFERENCES reading_lists (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    url        TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (list_id, url)
);
CREATE INDEX reading_list_items_order ON reading_list_items (list_id, position);

-- params is a JSON object of the search page's query parameters (string or list of strings).
CREATE TABLE saved_searches (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    path       TEXT    NOT NULL,
    params     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX saved_searches_user ON saved_searches (user_id);

CREATE TABLE search_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    path       TEXT    NOT NULL,
    params     TEXT    NOT NULL,
    summary    TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX search_history_user ON search_history (user_id, id);

-- +goose Down
DROP TABLE search_history;
DROP TABLE saved_searches;
DROP TABLE reading_list_items;
DROP TABLE reading_lists;
DROP TABLE bookmarks;
