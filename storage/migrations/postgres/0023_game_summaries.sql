-- Migration 23 on PostgreSQL, the twin of storage/migrations/0023_game_summaries.sql: the lobby
-- summaries of the games each node holds, for the lobbies of the other nodes
-- (docs/multi-node.md, section 4).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per game and node that held it and wrote a summary of it: what its room knows and
-- the store does not (whose turn it is, the view versions), written at most once a second. A
-- row counts only while its node holds the game's lease; each node writes only its own rows,
-- so that no node ever waits on a row another (perhaps paused) node has locked. UNLOGGED: not
-- worth the WAL. A crash of PostgreSQL empties it; every node writes all its summaries again
-- within its next full pass, which also deletes the rows that no longer count.
CREATE UNLOGGED TABLE game_summaries (
  game_id    bigint NOT NULL,
  node_id    text   NOT NULL,
  status     text   NOT NULL CHECK (status IN ('open', 'active', 'finished', 'aborted')),
  awaiting   text   NOT NULL,  -- roles, comma-separated, in the room's order
  v_scotland bigint NOT NULL,
  v_england  bigint NOT NULL,
  v_observer bigint NOT NULL,
  updated_at bigint NOT NULL,  -- database time, ms
  PRIMARY KEY (game_id, node_id)
);
