-- Migration 3: whether observers (accounts without a seat) may write in a game's chat.
-- NEVER EDIT THIS FILE once it has landed: databases in the field already ran it. Change the
-- schema with a new numbered migration (docs/storage.md, "Migrations").
--
-- Chosen when the game is created; every game made before it keeps the old rule (read only).
ALTER TABLE games ADD COLUMN observer_chat INTEGER NOT NULL DEFAULT 0
  CHECK (observer_chat IN (0, 1));

-- Like the options, it is part of what players agreed to when they sat down.
CREATE TRIGGER games_observer_chat_is_immutable
BEFORE UPDATE OF observer_chat ON games
WHEN NEW.observer_chat IS NOT OLD.observer_chat
BEGIN
  SELECT RAISE(ABORT, 'games: observer_chat is immutable');
END;
