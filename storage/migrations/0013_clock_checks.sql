-- Migration 13: when the clock sweep looks at a running clock next (docs/storage.md, "Clocks,
-- vacations and rematches").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- `check_at` is never later than the moment the clock's time could run out (a vacation taken
-- later only moves that moment on), NULL while the clock is stopped or the computer plays its
-- seat: the sweep reads only the clocks whose `check_at` has passed, through this index, so an
-- idle server does no work per game. A clock running before this migration is looked at once.
ALTER TABLE game_clocks ADD COLUMN check_at INTEGER;
UPDATE game_clocks SET check_at = running_since WHERE running_since IS NOT NULL;
CREATE INDEX game_clocks_to_check ON game_clocks (check_at) WHERE check_at IS NOT NULL;
