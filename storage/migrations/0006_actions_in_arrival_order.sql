-- Migration 6: the action log stored in the order the actions arrived.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- Until now the log was a WITHOUT ROWID table keyed by (game_id, seq): each game's rows lay
-- together, so a group commit of k games' actions wrote k nearly full leaf pages, and every few
-- actions a game's page, wedged between other games' pages, had to be rebalanced with them.
-- Under load that was ~2 WAL frames of 4 KiB per action (and as many pages for the
-- checkpoint to copy back). Rows now go to the end of the table in arrival order, where a group
-- commit's actions share a page, and a small unique index on (game_id, seq) finds a game's
-- log: about one index page per action instead (bench/RESULTS.md, session 9).
--
-- Nothing else changes: the same columns and checks, (game_id, seq) unique, the log
-- append-only, each action right after its game's last.

CREATE TABLE actions_by_arrival (
  id         INTEGER PRIMARY KEY,  -- arrival order; never read, only appended after
  game_id    INTEGER NOT NULL REFERENCES games (id),
  seq        INTEGER NOT NULL CHECK (seq >= 1),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  action     TEXT NOT NULL CHECK (json_valid(action)),
  applied_at INTEGER NOT NULL,
  state_hash TEXT NOT NULL CHECK (length(state_hash) > 0),  -- of the state after the action
  v_scotland INTEGER CHECK (v_scotland IS NULL OR v_scotland >= 0),
  v_england  INTEGER CHECK (v_england IS NULL OR v_england >= 0),
  v_observer INTEGER CHECK (v_observer IS NULL OR v_observer >= 0)
) STRICT;

INSERT INTO actions_by_arrival (game_id, seq, role, action, applied_at, state_hash, v_scotland,
                                v_england, v_observer)
SELECT game_id, seq, role, action, applied_at, state_hash, v_scotland, v_england, v_observer
FROM actions ORDER BY game_id, seq;  -- the games so far stay together, as before

-- The old table's triggers go with it; the snapshots' one names it, so it goes first.
DROP TRIGGER snapshots_match_log;
DROP TABLE actions;
ALTER TABLE actions_by_arrival RENAME TO actions;

CREATE UNIQUE INDEX actions_by_game ON actions (game_id, seq);

-- Append-only: a stored action is evidence. No UPDATE, no DELETE, no gap in seq.
CREATE TRIGGER actions_no_update
BEFORE UPDATE ON actions
BEGIN
  SELECT RAISE(ABORT, 'actions are append-only: UPDATE refused');
END;

CREATE TRIGGER actions_no_delete
BEFORE DELETE ON actions
BEGIN
  SELECT RAISE(ABORT, 'actions are append-only: DELETE refused');
END;

CREATE TRIGGER actions_in_sequence
BEFORE INSERT ON actions
BEGIN
  SELECT RAISE(ABORT, 'actions: the game is not active')
  WHERE (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'active';
  SELECT RAISE(ABORT, 'actions: seq must follow the game''s last action')
  WHERE NEW.seq IS NOT
        coalesce((SELECT max(seq) FROM actions WHERE game_id = NEW.game_id), 0) + 1;
END;

CREATE TRIGGER snapshots_match_log
BEFORE INSERT ON snapshots
BEGIN
  SELECT RAISE(ABORT, 'snapshots: seq is beyond the action log')
  WHERE NEW.seq > coalesce((SELECT max(seq) FROM actions WHERE game_id = NEW.game_id), 0);
  SELECT RAISE(ABORT, 'snapshots: state_hash differs from the action log')
  WHERE NEW.seq > 0
    AND NEW.state_hash IS NOT (SELECT state_hash FROM actions
                               WHERE game_id = NEW.game_id AND seq = NEW.seq);
END;
