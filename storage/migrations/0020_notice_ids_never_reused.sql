-- Migration 20: a notice's id is never given to another notice (docs/storage.md, "Turn
-- notices").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- Receivers drop a repeated notice by its id (the webhook's Blockfog-Notice-Id header, the
-- e-mail's Message-ID), so an id must name one notice for ever. Without AUTOINCREMENT SQLite
-- gives a new row the largest id in the table plus one: the id of a deleted notice when it was
-- the newest. That happens at a game's start, whose notice replaces the one telling a player
-- to roll the dice (server/play/dice.h); a sender still delivering the deleted notice then
-- marked the new one sent, and a receiver took the new one for a repeat.
--
-- Both tables are rebuilt, the deliveries' first so that dropping the old notices cascades to
-- nothing; RENAME points the new deliveries' foreign key at the renamed notices table.

CREATE TABLE notices_v20 (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  game_id    INTEGER NOT NULL REFERENCES games (id),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  content    TEXT NOT NULL CHECK (json_valid(content)),
  created_at INTEGER NOT NULL,
  UNIQUE (game_id, role, seq)
) STRICT;
INSERT INTO notices_v20 (id, game_id, role, seq, account_id, content, created_at)
  SELECT id, game_id, role, seq, account_id, content, created_at FROM notices;

CREATE TABLE notice_deliveries_v20 (
  notice_id       INTEGER NOT NULL REFERENCES notices_v20 (id) ON DELETE CASCADE,
  channel         TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
  state           TEXT NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'sent', 'failed', 'dropped')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  last_error      TEXT,
  done_at         INTEGER,
  PRIMARY KEY (notice_id, channel)
) STRICT, WITHOUT ROWID;
INSERT INTO notice_deliveries_v20
  SELECT notice_id, channel, state, attempts, next_attempt_at, last_error, done_at
  FROM notice_deliveries;

DROP TABLE notice_deliveries;
DROP TABLE notices;
ALTER TABLE notices_v20 RENAME TO notices;
ALTER TABLE notice_deliveries_v20 RENAME TO notice_deliveries;

CREATE INDEX notice_deliveries_due ON notice_deliveries (state, next_attempt_at);
CREATE INDEX notices_by_game ON notices (game_id, role);
