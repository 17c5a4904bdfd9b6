-- Migration 17: the server's Ed25519 signing keys (docs/records.md, "Signatures";
-- docs/storage.md, "Server secrets"), kept with the data whose records they sign.
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per key the server ever signed with. The current key is the one not retired (at most
-- one); a rotation retires it and adds a new one in one transaction. Retired keys stay, so that
-- records signed with them stay verifiable: GET /api/server-key serves every public key.
-- `key_id` is the hex of the first 16 bytes of SHA-256(public key); keys are 32 bytes in hex.
CREATE TABLE signing_keys (
  key_id      TEXT PRIMARY KEY CHECK (length(key_id) = 32),
  public_key  TEXT NOT NULL CHECK (length(public_key) = 64),
  private_key TEXT NOT NULL CHECK (length(private_key) = 64),
  created_at  INTEGER NOT NULL,
  retired_at  INTEGER
) STRICT;
CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys (retired_at IS NULL)
  WHERE retired_at IS NULL;
