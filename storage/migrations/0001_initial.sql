-- Migration 1: the initial schema.
-- NEVER EDIT THIS FILE once it has landed: databases in the field already ran it. Change the
-- schema with a new numbered migration (docs/storage.md, "Migrations").
--
-- Times are INTEGER milliseconds since the Unix epoch, supplied by the caller.
-- Hashes and the seed are lowercase hex TEXT.

CREATE TABLE accounts (
  id            INTEGER PRIMARY KEY,
  -- NOCASE folds ASCII only; the server restricts user names to ASCII.
  username      TEXT NOT NULL COLLATE NOCASE UNIQUE
                CHECK (length(username) BETWEEN 1 AND 64),
  -- The server's KDF string (algorithm, parameters, salt, hash); opaque here.
  password_hash TEXT NOT NULL CHECK (length(password_hash) > 0),
  created_at    INTEGER NOT NULL
) STRICT;

-- Only a hash of the cookie token is stored, so a leaked database logs nobody in.
CREATE TABLE sessions (
  token_hash TEXT NOT NULL PRIMARY KEY CHECK (length(token_hash) > 0),
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

CREATE TABLE games (
  id                INTEGER PRIMARY KEY,
  kind              TEXT NOT NULL DEFAULT 'hots',
  rules_version     TEXT NOT NULL,
  scenario          TEXT NOT NULL,
  options           TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
  -- Secret until the game ends; seed_sha256 is published when it starts.
  seed              TEXT NOT NULL
                    CHECK (length(seed) BETWEEN 2 AND 256 AND seed NOT GLOB '*[^0-9a-f]*'),
  seed_sha256       TEXT NOT NULL
                    CHECK (length(seed_sha256) = 64 AND seed_sha256 NOT GLOB '*[^0-9a-f]*'),
  status            TEXT NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'active', 'finished', 'aborted')),
  visibility        TEXT NOT NULL CHECK (visibility IN ('public', 'invite')),
  invite_token_hash TEXT UNIQUE,
  created_by        INTEGER NOT NULL REFERENCES accounts (id),
  created_at        INTEGER NOT NULL,
  started_at        INTEGER,
  finished_at       INTEGER,
  result            TEXT CHECK (result IS NULL OR json_valid(result)),
  -- The seq the next appended action must carry; actions are numbered from 1, and snapshot 0
  -- is the state right after setup.
  next_seq          INTEGER NOT NULL DEFAULT 1 CHECK (next_seq >= 1),
  CHECK ((visibility = 'invite') = (invite_token_hash IS NOT NULL))
) STRICT;

CREATE INDEX games_by_status ON games (status, visibility, created_at);
CREATE INDEX games_by_creator ON games (created_by);

-- What a replay depends on never changes after creation.
CREATE TRIGGER games_setup_is_immutable
BEFORE UPDATE OF kind, rules_version, scenario, options, seed, seed_sha256, created_by, created_at
ON games
BEGIN
  SELECT RAISE(ABORT, 'games: kind, rules_version, scenario, options and seed are immutable');
END;

-- A finished or aborted game is a record (tournaments verify it): nothing about it changes.
CREATE TRIGGER games_finished_is_read_only
BEFORE UPDATE ON games
WHEN OLD.status IN ('finished', 'aborted')
BEGIN
  SELECT RAISE(ABORT, 'games: a finished or aborted game cannot be changed');
END;

CREATE TRIGGER games_status_moves_forward
BEFORE UPDATE OF status ON games
WHEN NEW.status IS NOT OLD.status
 AND NOT (OLD.status = 'open' AND NEW.status IN ('active', 'aborted'))
 AND NOT (OLD.status = 'active' AND NEW.status IN ('finished', 'aborted'))
BEGIN
  SELECT RAISE(ABORT, 'games: status moves only open -> active -> finished, or to aborted');
END;

CREATE TABLE seats (
  game_id    INTEGER NOT NULL REFERENCES games (id),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  joined_at  INTEGER NOT NULL,
  PRIMARY KEY (game_id, role),
  UNIQUE (game_id, account_id)  -- nobody plays both sides
) STRICT, WITHOUT ROWID;

CREATE INDEX seats_by_account ON seats (account_id);

-- The game's truth: seed + scenario + options + this log reproduce every state.
CREATE TABLE actions (
  game_id    INTEGER NOT NULL REFERENCES games (id),
  seq        INTEGER NOT NULL CHECK (seq >= 1),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  action     TEXT NOT NULL CHECK (json_valid(action)),
  applied_at INTEGER NOT NULL,
  state_hash TEXT NOT NULL CHECK (length(state_hash) > 0),  -- of the state after the action
  PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

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
  SELECT RAISE(ABORT, 'actions: seq must equal the game''s next_seq')
  WHERE NEW.seq IS NOT (SELECT next_seq FROM games WHERE id = NEW.game_id);
END;

-- next_seq and the action log move together: one step, and only past an appended action.
CREATE TRIGGER games_next_seq_follows_log
BEFORE UPDATE OF next_seq ON games
WHEN NEW.next_seq IS NOT OLD.next_seq
BEGIN
  SELECT RAISE(ABORT, 'games: next_seq advances by one, past an appended action')
  WHERE NEW.next_seq IS NOT OLD.next_seq + 1
     OR NOT EXISTS (SELECT 1 FROM actions WHERE game_id = OLD.id AND seq = OLD.next_seq);
END;

-- A cache: any snapshot can be deleted and rebuilt by replaying the log from an earlier one.
CREATE TABLE snapshots (
  game_id    INTEGER NOT NULL REFERENCES games (id),
  seq        INTEGER NOT NULL CHECK (seq >= 0),  -- the state after action seq
  state      TEXT NOT NULL CHECK (json_valid(state)),
  state_hash TEXT NOT NULL CHECK (length(state_hash) > 0),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (game_id, seq)
) STRICT;

-- A snapshot never runs ahead of the log, and agrees with it on the state's hash.
CREATE TRIGGER snapshots_match_log
BEFORE INSERT ON snapshots
BEGIN
  SELECT RAISE(ABORT, 'snapshots: seq is beyond the action log')
  WHERE NEW.seq >= (SELECT next_seq FROM games WHERE id = NEW.game_id);
  SELECT RAISE(ABORT, 'snapshots: state_hash differs from the action log')
  WHERE NEW.seq > 0
    AND NEW.state_hash IS NOT (SELECT state_hash FROM actions
                               WHERE game_id = NEW.game_id AND seq = NEW.seq);
END;

CREATE TABLE chat (
  id         INTEGER PRIMARY KEY,  -- increasing: clients ask for messages since an id
  game_id    INTEGER NOT NULL REFERENCES games (id),
  account_id INTEGER REFERENCES accounts (id),  -- NULL for system messages
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england', 'observer', 'system')),
  text       TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
  created_at INTEGER NOT NULL,
  CHECK ((role = 'system') = (account_id IS NULL))
) STRICT;

CREATE INDEX chat_by_game ON chat (game_id, id);

-- Login throttling: failures per key (an account name or an address) in a window that opens
-- at the first failure and lasts as long as the caller says.
CREATE TABLE failed_logins (
  key          TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL CHECK (count >= 1)
) STRICT, WITHOUT ROWID;
