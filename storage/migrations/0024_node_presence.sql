-- Migration 24, who is connected at which node and which login sessions ended, shared between
-- nodes: nothing on SQLite (docs/multi-node.md, section 4).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").
--
-- On PostgreSQL this migration makes online_players and ended_sessions, through which the nodes
-- sharing one database learn which players have a client at another node and which sessions
-- another node ended. An SQLite database is served by one process, which knows both already.
-- This file keeps the version numbers of both backends the same.

SELECT 1;
