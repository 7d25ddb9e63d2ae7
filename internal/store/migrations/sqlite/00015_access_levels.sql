-- +goose Up
-- Access levels (internal/access): a collection or scan item is public, registered,
-- members or scopes:<scope>,…; access_level holds the level's text. The integer
-- access column stays (0 public, 1 anything else) so that SQL can tell open from
-- restricted without parsing; an empty access_level means the level access says
-- (0 public, 1 members), which is what every row written before this column has.
ALTER TABLE collections ADD COLUMN access_level TEXT NOT NULL DEFAULT '';
ALTER TABLE iiif_items ADD COLUMN access_level TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE iiif_items DROP COLUMN access_level;
ALTER TABLE collections DROP COLUMN access_level;
