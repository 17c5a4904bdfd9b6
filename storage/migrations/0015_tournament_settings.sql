-- Migration 15: a tournament's time control, whether its games pause for vacations, and who
-- starts its rounds (docs/storage.md, "Tournaments"; docs/tournaments.md).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- `time_control` is the JSON every game of the tournament is created with (server/
-- time_control.h), NULL for none: the per-round deadline alone then. `vacation` 0: the
-- organiser forbade vacations, the games' clocks neither pause for one nor take one.
-- `rounds_by_hand` 1: a round starts only when the organiser starts it, not as soon as the
-- round before has ended.
ALTER TABLE tournaments ADD COLUMN time_control TEXT
  CHECK (time_control IS NULL OR json_valid(time_control));
ALTER TABLE tournaments ADD COLUMN vacation INTEGER NOT NULL DEFAULT 1 CHECK (vacation IN (0, 1));
ALTER TABLE tournaments ADD COLUMN rounds_by_hand INTEGER NOT NULL DEFAULT 0
  CHECK (rounds_by_hand IN (0, 1));
