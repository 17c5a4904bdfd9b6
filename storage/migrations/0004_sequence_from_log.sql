-- Migration 4: an action's place in the log is checked against the log itself.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- Until now the games row kept `next_seq`, advanced with every appended action: each action
-- then changed two pages (its game's part of the log and the games row), and each commit wrote
-- both to the WAL. The log's primary key (game_id, seq) already orders each game's actions, so
-- the same rules are checked against the game's last action instead, and the counter goes.
-- Unchanged: the log of a game is 1..n without gaps, appended only while the game is active,
-- and a snapshot never runs ahead of it.

DROP TRIGGER actions_in_sequence;
DROP TRIGGER games_next_seq_follows_log;
DROP TRIGGER snapshots_match_log;
ALTER TABLE games DROP COLUMN next_seq;

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
