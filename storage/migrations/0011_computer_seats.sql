-- Migration 10: seats the computer plays (docs/storage.md, "Computer seats"; docs/ai.md).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- A seat of a game played by the computer opponent (ai/): the seat of a game created against
-- the computer (`stand_in` 0; its seats row holds the computer's own account), or the seat of
-- a player whose clock ran out and who, like his opponent, allowed the computer to stand in
-- for him (`stand_in` 1; the seats row still holds his account). `since` is when the computer
-- took the seat. A computer game is never rated.
CREATE TABLE computer_seats (
  game_id  INTEGER NOT NULL REFERENCES games (id),
  role     TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  level    TEXT NOT NULL CHECK (level IN ('easy', 'normal', 'hard')),
  stand_in INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1)),
  since    INTEGER NOT NULL,
  PRIMARY KEY (game_id, role)
) STRICT, WITHOUT ROWID;

-- Each seat whose player allowed the computer to stand in for him if his time runs out (asked
-- when he creates or joins the game). The stand-in needs both seats' rows.
CREATE TABLE stand_in_consents (
  game_id INTEGER NOT NULL REFERENCES games (id),
  role    TEXT NOT NULL CHECK (role IN ('scotland', 'england')),
  PRIMARY KEY (game_id, role)
) STRICT, WITHOUT ROWID;
