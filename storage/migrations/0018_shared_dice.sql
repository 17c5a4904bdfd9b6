-- Migration 18: dice nobody can choose (docs/records.md, "Dice"; docs/storage.md, "Dice").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- A game set up from the server's secret and one contribution per seat: `play_seed` is
-- SHA-256(seed ‖ Scotland's contribution ‖ England's), written once, when both contributions
-- are revealed and the game starts. NULL in games started before this migration, whose seed is
-- the server's secret alone. `dice_deadline` is set when both seats are taken: a game whose
-- contributions are not all revealed by then is cancelled.
ALTER TABLE games ADD COLUMN play_seed TEXT CHECK (play_seed IS NULL OR length(play_seed) = 64);
ALTER TABLE games ADD COLUMN dice_deadline INTEGER;

CREATE TRIGGER games_play_seed_is_written_once
BEFORE UPDATE OF play_seed ON games
WHEN OLD.play_seed IS NOT NULL AND NEW.play_seed IS NOT OLD.play_seed
BEGIN
  SELECT RAISE(ABORT, 'games: the play seed is written once');
END;

-- One row per seat that committed: the commitment (hex SHA-256 of the 32 contribution bytes)
-- first, the contribution (64 hex) later, once the other seat has committed too. A computer
-- seat's contribution is the server's, committed when the seat is taken.
CREATE TABLE game_dice (
  game_id      INTEGER NOT NULL REFERENCES games (id),
  role         TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  commitment   TEXT NOT NULL CHECK (length(commitment) = 64),
  contribution TEXT CHECK (contribution IS NULL OR length(contribution) = 64),
  committed_at INTEGER NOT NULL,
  revealed_at  INTEGER,
  by_server    INTEGER NOT NULL DEFAULT 0 CHECK (by_server IN (0, 1)),
  PRIMARY KEY (game_id, role)
) STRICT;

-- A commitment never changes, and a contribution is revealed once.
CREATE TRIGGER game_dice_commitment_is_immutable
BEFORE UPDATE OF game_id, role, commitment, committed_at, by_server ON game_dice
BEGIN
  SELECT RAISE(ABORT, 'game_dice: a commitment never changes');
END;
CREATE TRIGGER game_dice_revealed_once
BEFORE UPDATE OF contribution, revealed_at ON game_dice
WHEN OLD.revealed_at IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'game_dice: a contribution is revealed once');
END;
