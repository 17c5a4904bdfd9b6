-- Migration 7: a game keeps only its latest snapshot.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- Only a game's latest snapshot is ever read (Store::latest_snapshot). The ones before it, one
-- for each turn of the game, were dead weight, and each holds the game's log so far, so they
-- grew with the game: after a load run of about 300,000 actions at 100 games they took 114 MB
-- of a 172 MB file, which is 50 MB with this migration (bench/RESULTS.md, session 19). Now a
-- snapshot deletes the game's older ones in the statement that inserts it, and the next
-- snapshot reuses their pages: the file holds one per game. A cache loses nothing by this: the
-- log is the truth.

DELETE FROM snapshots
WHERE seq < (SELECT max(seq) FROM snapshots AS newer WHERE newer.game_id = snapshots.game_id);

CREATE TRIGGER snapshots_keep_latest
AFTER INSERT ON snapshots
BEGIN
  DELETE FROM snapshots WHERE game_id = NEW.game_id AND seq < NEW.seq;
END;
