-- Ratings (docs/ratings.md): whether a game counts for ratings, each account's current
-- Glicko-2 rating, and its history, one row per account per rated game.
-- NEVER EDIT THIS FILE once it has landed: databases in the field already ran it. Change the
-- schema with a new numbered migration (docs/storage.md, "Migrations").

-- Chosen when the game is created (games made before it are unrated).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- Like the options, it is part of what players agreed to when they sat down.
CREATE TRIGGER games_rated_is_immutable
BEFORE UPDATE OF rated ON games
WHEN NEW.rated IS NOT OLD.rated
BEGIN
  SELECT RAISE(ABORT, 'games: rated is immutable');
END;

-- The rating after the account's latest rated game; no row: never rated (1500, 350, 0.06).
CREATE TABLE ratings (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
  rating REAL NOT NULL,
  deviation REAL NOT NULL CHECK (deviation > 0),
  volatility REAL NOT NULL CHECK (volatility > 0),
  games INTEGER NOT NULL CHECK (games > 0),
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX ratings_by_rating ON ratings(rating DESC, account_id);

-- Written in the transaction that finishes the game; `id` is the order ratings changed in.
CREATE TABLE rating_history (
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games(id),
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  role TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  opponent_id INTEGER NOT NULL REFERENCES accounts(id),
  score REAL NOT NULL CHECK (score IN (0.0, 0.5, 1.0)),
  rating_before REAL NOT NULL,
  deviation_before REAL NOT NULL,
  volatility_before REAL NOT NULL,
  rating_after REAL NOT NULL,
  deviation_after REAL NOT NULL,
  volatility_after REAL NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (game_id, account_id)
) STRICT;
CREATE INDEX rating_history_by_account ON rating_history(account_id, id);

-- History is never rewritten.
CREATE TRIGGER rating_history_is_append_only
BEFORE UPDATE ON rating_history
BEGIN
  SELECT RAISE(ABORT, 'rating_history: rows are never changed');
END;
