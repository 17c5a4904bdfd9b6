#pragma once

// Several nodes on one database (docs/multi-node.md, section 4), beside the lobby summaries
// (summary_sharing.h) and as often: each pass writes which accounts arrived at this node (a
// first client at any game) or left it (the last one closed), reads which accounts have a
// client at another live node (the lobby's "online", Presence::online), and closes this node's
// WebSockets of login sessions another node ended (a logout there, or a login that evicted old
// sessions: storage/node_presence.h). Every tenth pass writes all this node's online accounts
// again (after a crash of PostgreSQL, or under a new node id after a lapsed heartbeat) and
// forgets old ended sessions. Started only with leases.

#include <chrono>

#include "server/periodic/summary_sharing.h"

namespace blockfog::server {

class DbWorker;
class NodeLeases;
class Presence;
class SessionSockets;

// How far back each pass reads ended sessions again, beyond the last read: a session ended by
// a transaction that committed late carries the database's time of its statement.
inline constexpr std::int64_t kEndedSessionsOverlapMs = 5000;

void start_presence_sharing(DbWorker& db, NodeLeases& leases, Presence& presence,
                            SessionSockets& sockets,
                            std::chrono::milliseconds every = kSummarySharingEvery);

}  // namespace blockfog::server
