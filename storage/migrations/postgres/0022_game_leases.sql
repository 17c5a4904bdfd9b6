-- Migration 22 on PostgreSQL, the twin of storage/migrations/0022_game_leases.sql: game
-- leases with a fencing number, so that several nodes share one database with one writer per
-- game (docs/multi-node.md, section 2).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per running server process: its heartbeat. A node's games stay its own for as long
-- as this row's expires_at lies ahead of the database's clock.
CREATE TABLE nodes (
  node_id    text PRIMARY KEY CHECK (length(node_id) > 0),  -- name '/' random hex, new each start
  name       text NOT NULL CHECK (length(name) > 0),         -- the path prefix /n/<name>/
  started_at bigint NOT NULL,
  expires_at bigint NOT NULL                                 -- database time, ms
);

-- Fences grow with every take, for ever, even when lease rows of old games are deleted.
CREATE SEQUENCE game_lease_fence;

CREATE TABLE game_leases (
  game_id    bigint PRIMARY KEY REFERENCES games (id),
  node_id    text   NOT NULL,
  fence      bigint NOT NULL,
  expires_at bigint  -- NULL: held while its node's heartbeat lasts; else released at this time
);
CREATE INDEX game_leases_by_node ON game_leases (node_id);

-- The one clock leases are judged by: the database's (the nodes' clocks may disagree).
CREATE FUNCTION db_now_ms() RETURNS bigint LANGUAGE sql VOLATILE
  AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

-- The fence each action was written under: never read by the server; it lets a test or an
-- operator prove that one holder wrote each stretch of a game's log.
ALTER TABLE actions ADD COLUMN fence bigint CHECK (fence IS NULL OR fence >= 1);
