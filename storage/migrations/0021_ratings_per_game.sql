-- Migration 21: ratings are kept per game (docs/ratings.md), and a tournament is played in one
-- game (docs/tournaments.md).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- A rating says how well an account plays one game: a rating earned in one says nothing of
-- the other. Each account now has a rating per game kind (games.kind); the ratings earned before
-- there was a second game were all earned in Hammer of the Scots, the only game then served.
-- The history needs no column: its game_id names the game, and the game its kind.

CREATE TABLE ratings_v21 (
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL CHECK (deviation > 0),
  volatility REAL NOT NULL CHECK (volatility > 0),
  games INTEGER NOT NULL CHECK (games > 0),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, kind)
) STRICT;
INSERT INTO ratings_v21 (account_id, kind, rating, deviation, volatility, games, updated_at)
  SELECT account_id, 'hots', rating, deviation, volatility, games, updated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_v21 RENAME TO ratings;
CREATE INDEX ratings_by_rating ON ratings(kind, rating DESC, account_id);

-- Every game of a tournament is of its kind; those created before were all Hammer of the Scots.
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'hots';
