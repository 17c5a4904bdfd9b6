-- Migration 23, lobby summaries shared between nodes: nothing on SQLite
-- (docs/multi-node.md, section 4).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- On PostgreSQL this migration makes game_summaries, where each node writes whose turn it is in
-- the games it holds, for the lobbies of the other nodes. An SQLite database is served by one
-- process, which knows every room it serves, so it needs no such table. This file keeps the
-- version numbers of both backends the same.

SELECT 1;
