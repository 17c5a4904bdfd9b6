-- Migration 21 on PostgreSQL, the twin of storage/migrations/0021_ratings_per_game.sql: ratings
-- are kept per game (docs/ratings.md), and a tournament is played in one game
-- (docs/tournaments.md).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- Every rating earned before there was a second game was earned in Hammer of the Scots; the
-- default only fills those rows and is dropped, so that a new rating names its game.

ALTER TABLE ratings ADD COLUMN kind text NOT NULL DEFAULT 'hots';
ALTER TABLE ratings ALTER COLUMN kind DROP DEFAULT;
ALTER TABLE ratings DROP CONSTRAINT ratings_pkey;
ALTER TABLE ratings ADD PRIMARY KEY (account_id, kind);
DROP INDEX ratings_by_rating;
CREATE INDEX ratings_by_rating ON ratings (kind, rating DESC, account_id);

-- Every game of a tournament is of its kind; those created before were all Hammer of the Scots.
ALTER TABLE tournaments ADD COLUMN kind text NOT NULL DEFAULT 'hots';
