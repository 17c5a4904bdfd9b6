-- Migration 22, game leases: on SQLite only the fence an action was written under
-- (docs/multi-node.md, section 2).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- On PostgreSQL this migration also makes the tables of game leases (nodes, game_leases, the
-- fence sequence, db_now_ms): several nodes share that database and each game has one writer,
-- the holder of its lease. An SQLite database is only ever served by one process, so it has no
-- leases and its actions are written with no fence (NULL). The column is here all the same so
-- that both backends have the same actions table at the same version number, and one INSERT
-- serves both.

ALTER TABLE actions ADD COLUMN fence INTEGER CHECK (fence IS NULL OR fence >= 1);
