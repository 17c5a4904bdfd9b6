-- Migration 16: a seat's wait that its own action ended can resume where it was (docs/storage.md,
-- "Clocks, vacations and rematches").
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- When a seat's own action ends its wait (a card chosen), `paused_since` and `paused_bank_ms`
-- keep when that wait began and the bank it began with. If the seat's own next action makes it
-- awaited again (the card taken back) before anybody else acted, the wait resumes from those
-- two: taking a card back neither refills the bank nor earns an increment, and the time between
-- is charged. Both NULL otherwise.
ALTER TABLE game_clocks ADD COLUMN paused_since INTEGER;
ALTER TABLE game_clocks ADD COLUMN paused_bank_ms INTEGER;
