-- +goose Up
-- Mail with more than plain text (internal/mail): an HTML alternative, a calendar
-- invitation (RFC 6047) and list headers (RFC 2369, RFC 8058), kept in the outbox with
-- the message so that a restart sends exactly what was enqueued. rejected marks a
-- message the mail server refused for good (a 5xx answer): given up at once, and
-- counted per address by the lists that suppress addresses that bounce.
ALTER TABLE mail_outbox ADD COLUMN body_html TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN calendar_method TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN calendar TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN headers TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN rejected INTEGER NOT NULL DEFAULT 0;
CREATE INDEX mail_outbox_rejected ON mail_outbox (to_addr) WHERE rejected = 1;

-- +goose Down
DROP INDEX mail_outbox_rejected;
ALTER TABLE mail_outbox DROP COLUMN rejected;
ALTER TABLE mail_outbox DROP COLUMN headers;
ALTER TABLE mail_outbox DROP COLUMN calendar;
ALTER TABLE mail_outbox DROP COLUMN calendar_method;
ALTER TABLE mail_outbox DROP COLUMN body_html;
