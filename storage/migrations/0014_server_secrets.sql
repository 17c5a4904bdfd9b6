-- Migration 14: the server's own secrets, kept with the data they protect (docs/storage.md,
-- "Server secrets"), so that a backup restored elsewhere keeps them.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- `invite_key`: the HMAC key invitation links are derived from (docs/protocol.md, "Invitation
-- links"). Created on first use, never changed: changing it would break every such link.
CREATE TABLE server_secrets (
  name       TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
