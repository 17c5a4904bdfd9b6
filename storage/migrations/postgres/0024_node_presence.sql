-- Migration 24 on PostgreSQL, the twin of storage/migrations/0024_node_presence.sql: what the
-- nodes sharing one database tell each other of their players' connections and of the login
-- sessions they ended (docs/multi-node.md, section 4).
-- NEVER EDIT THIS FILE once it has landed (docs/storage.md, "Migrations").

-- One row per node and account with at least one client (a WebSocket at any game) at that
-- node: the lobby's "online" at every node. Each node writes only its own rows, at most once a
-- second; a row counts only while its node's heartbeat lasts. UNLOGGED, as game_summaries: a
-- crash of PostgreSQL empties it, and every node writes its rows again within its next full
-- pass, which also deletes the rows of nodes that died.
CREATE UNLOGGED TABLE online_players (
  node_id    text   NOT NULL,
  account_id bigint NOT NULL,
  PRIMARY KEY (node_id, account_id)
);

-- Login sessions ended (a logout, or a login that evicted an account's oldest sessions), kept a
-- minute: every node closes its WebSockets opened with one of them within about a second.
-- Logged: written in the transaction that deletes the session.
CREATE TABLE ended_sessions (
  token_hash text   PRIMARY KEY,
  ended_at   bigint NOT NULL  -- database time, ms
);
CREATE INDEX ended_sessions_by_time ON ended_sessions (ended_at);
