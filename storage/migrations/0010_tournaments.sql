-- Migration 10: tournaments run by organisers (docs/storage.md, "Tournaments";
-- docs/tournaments.md).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per tournament. `rounds` is the Swiss number of rounds as set; for the other
-- formats it is set at the start from the number of players. `round_deadline_ms` is how long
-- each round has; `deadline_at` is the current round's (moved by the organiser's extensions).
CREATE TABLE tournaments (
  id                INTEGER PRIMARY KEY,
  name              TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description       TEXT NOT NULL CHECK (length(description) <= 4000),
  organiser         INTEGER NOT NULL REFERENCES accounts (id),
  scenario          TEXT NOT NULL,
  options           TEXT NOT NULL CHECK (json_valid(options)),
  format            TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss', 'single_elimination')),
  rounds            INTEGER NOT NULL CHECK (rounds >= 0),
  sides             TEXT NOT NULL CHECK (sides IN ('swapped', 'lot')),
  round_deadline_ms INTEGER NOT NULL CHECK (round_deadline_ms > 0),
  rated             INTEGER NOT NULL CHECK (rated IN (0, 1)),
  registration_opens_at  INTEGER NOT NULL,
  registration_closes_at INTEGER NOT NULL CHECK (registration_closes_at > registration_opens_at),
  max_players       INTEGER NOT NULL CHECK (max_players BETWEEN 2 AND 256),
  status            TEXT NOT NULL DEFAULT 'registering'
                    CHECK (status IN ('registering', 'running', 'finished')),
  current_round     INTEGER NOT NULL DEFAULT 0 CHECK (current_round >= 0),
  deadline_at       INTEGER,
  created_at        INTEGER NOT NULL,
  started_at        INTEGER,
  finished_at       INTEGER
) STRICT;
CREATE INDEX tournaments_by_status ON tournaments (status, id);

-- The registered players. `seed` (from 1) is set at the start, in order of registration;
-- `removed_at` when the organiser removed the player (he is paired no more).
CREATE TABLE tournament_players (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  account_id    INTEGER NOT NULL REFERENCES accounts (id),
  registered_at INTEGER NOT NULL,
  seed          INTEGER,
  removed_at    INTEGER,
  PRIMARY KEY (tournament_id, account_id)
) STRICT;

-- The games of each round: ordinary stored games. `lot` is the random byte (hex) that chose
-- the sides when the tournament's sides are by lot, else NULL.
CREATE TABLE tournament_games (
  game_id       INTEGER PRIMARY KEY REFERENCES games (id),
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  round         INTEGER NOT NULL CHECK (round >= 1),
  lot           TEXT
) STRICT;
CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round);

-- A bye: the player scores a won pairing without playing.
CREATE TABLE tournament_byes (
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  round         INTEGER NOT NULL CHECK (round >= 1),
  account_id    INTEGER NOT NULL REFERENCES accounts (id),
  PRIMARY KEY (tournament_id, round, account_id)
) STRICT;

-- What the organiser did (and the server's own steps, author NULL), shown to everyone.
CREATE TABLE tournament_log (
  id            INTEGER PRIMARY KEY,
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  author        INTEGER REFERENCES accounts (id),
  action        TEXT NOT NULL,
  detail        TEXT NOT NULL,
  created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX tournament_log_by_tournament ON tournament_log (tournament_id, id);
