-- Migration 8: turn notices (docs/storage.md, "Turn notices").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- A player who is not connected when his seat becomes awaited is told by e-mail and/or a
-- webhook of his own. The notice is written in the transaction of the action that caused it
-- (the outbox), and a sender delivers it afterwards with retries: nothing acknowledged is lost.

-- One row per account that set anything up. The e-mail address is private to its owner.
CREATE TABLE notice_settings (
  account_id         INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  -- The confirmed address: notices go only here.
  email              TEXT CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254),
  -- An address given but not yet confirmed, with the hash of its single-use token (the token
  -- itself is only in the confirmation e-mail) and when that e-mail was sent.
  email_pending      TEXT CHECK (email_pending IS NULL OR length(email_pending) BETWEEN 3 AND 254),
  confirm_token_hash TEXT UNIQUE,
  confirm_expires_at INTEGER,
  confirm_sent_at    INTEGER,
  -- The token of every e-mail's one-click unsubscribe link. Kept in the clear, since each
  -- e-mail carries it: a leaked database lets somebody turn e-mails off, nothing more.
  unsubscribe_token  TEXT UNIQUE,
  webhook_url        TEXT CHECK (webhook_url IS NULL OR length(webhook_url) BETWEEN 8 AND 2000),
  email_on           INTEGER NOT NULL DEFAULT 0 CHECK (email_on IN (0, 1)),
  webhook_on         INTEGER NOT NULL DEFAULT 0 CHECK (webhook_on IN (0, 1)),
  -- At most one e-mail per this many hours (0: one per notice).
  digest_hours       INTEGER NOT NULL DEFAULT 0 CHECK (digest_hours BETWEEN 0 AND 168),
  last_email_at      INTEGER,
  CHECK ((email_pending IS NULL) = (confirm_token_hash IS NULL))
) STRICT;

-- The outbox: one notice per game, role and awaited turn (the action after which the role
-- became awaited; 0 for the game's start), so a retried commit cannot write two.
CREATE TABLE notices (
  id         INTEGER PRIMARY KEY,
  game_id    INTEGER NOT NULL REFERENCES games (id),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- What the notice says, taken from the recipient's own view only.
  content    TEXT NOT NULL CHECK (json_valid(content)),
  created_at INTEGER NOT NULL,
  UNIQUE (game_id, role, seq)
) STRICT;

-- Each channel's delivery of a notice, chosen from the settings when the notice was written.
CREATE TABLE notice_deliveries (
  notice_id       INTEGER NOT NULL REFERENCES notices (id) ON DELETE CASCADE,
  channel         TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
  -- pending: to be sent at next_attempt_at; sent; failed: given up; dropped: no longer needed
  -- (the player acted, or turned the channel off) or folded into another e-mail (digest).
  state           TEXT NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'sent', 'failed', 'dropped')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  last_error      TEXT,
  done_at         INTEGER,
  PRIMARY KEY (notice_id, channel)
) STRICT, WITHOUT ROWID;

CREATE INDEX notice_deliveries_due ON notice_deliveries (state, next_attempt_at);
CREATE INDEX notices_by_game ON notices (game_id, role);
