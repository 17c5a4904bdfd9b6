-- Migration 9: time controls, game clocks, vacations and rematch offers (docs/storage.md,
-- "Clocks, vacations and rematches").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- The game's time control as the lobby describes it (server/time_control.h), or NULL: none.
ALTER TABLE games ADD COLUMN time_control TEXT
  CHECK (time_control IS NULL OR json_valid(time_control));

-- One row per seat of a started game with a time control. `bank_ms` is what the role had left
-- when its last wait ended (live: its remaining time; correspondence: its bank on top of the
-- time per turn). `running_since` is when its current wait began, NULL while it is not awaited:
-- the time left now is recomputed from these two and the stored vacations, so a restart
-- neither loses nor adds time.
CREATE TABLE game_clocks (
  game_id       INTEGER NOT NULL REFERENCES games (id),
  role          TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  bank_ms       INTEGER NOT NULL,
  running_since INTEGER,
  PRIMARY KEY (game_id, role)
) STRICT;

-- A player's vacation: [starts_at, ends_at) in whole days. It pauses the clocks of every
-- correspondence game of the player. `automatic` when taken because a clock would have run out.
CREATE TABLE vacations (
  id         INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  starts_at  INTEGER NOT NULL,
  ends_at    INTEGER NOT NULL CHECK (ends_at > starts_at),
  automatic  INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX vacations_of_account ON vacations (account_id, starts_at);

-- At most one rematch offer per finished game.
CREATE TABLE rematches (
  game_id     INTEGER PRIMARY KEY REFERENCES games (id),
  offered_by  INTEGER NOT NULL REFERENCES accounts (id),
  state       TEXT NOT NULL CHECK (state IN ('offered', 'accepted', 'declined')),
  new_game_id INTEGER REFERENCES games (id),
  created_at  INTEGER NOT NULL,
  CHECK ((state = 'accepted') = (new_game_id IS NOT NULL))
) STRICT;
