-- Migration 5: snapshots hold the engine's binary form of the state, not its JSON.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- A snapshot is written whenever the turn passes. As JSON a late-game state (its whole log)
-- took ~19 KiB, checked by json_valid on insert and then copied again by each WAL checkpoint:
-- under load that was a tenth of the server's work per action. The engine's binary form
-- (core::Game::write_snapshot; for Hammer of the Scots it starts with "hots-bin-1") is a third
-- of the size and read back by GameModule::from_snapshot.
--
-- Snapshots are a cache (the log is the truth: every state is the replay of its log), so the
-- JSON ones are dropped rather than converted; nothing else refers to them.

DROP TABLE snapshots;  -- and its trigger snapshots_match_log

CREATE TABLE snapshots (
  game_id    INTEGER NOT NULL REFERENCES games (id),
  seq        INTEGER NOT NULL CHECK (seq >= 0),  -- the state after action seq
  state      BLOB NOT NULL CHECK (length(state) > 0),
  state_hash TEXT NOT NULL CHECK (length(state_hash) > 0),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (game_id, seq)
) STRICT;

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
