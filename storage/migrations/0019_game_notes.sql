-- Migration 19: each seated player's private notes on a game (docs/storage.md, Schema;
-- docs/protocol.md, "Private notes").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per seat that wrote notes. Read and written only by that seat's player through
-- GET/PUT /api/games/{id}/notes: never part of a view, a record, an export or a bundle.
-- The limit is protocol::kMaxNotesBytes (the API refuses longer text first).
CREATE TABLE game_notes (
  game_id    INTEGER NOT NULL REFERENCES games (id),
  role       TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  text       TEXT NOT NULL CHECK (length(CAST(text AS BLOB)) <= 10000),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (game_id, role)
) STRICT, WITHOUT ROWID;
