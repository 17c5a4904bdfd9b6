#pragma once

// The WebSockets opened with each login session, so that ending a session (logout) also
// closes its sockets: a socket must not go on acting for a session that no longer exists.
// Thread-safe; holds the sockets weakly.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/play/room.h"

namespace blockfog::server {

class SessionSockets {
 public:
  // `session` is the session token's hash (as the store keeps it).
  void add(const std::string& session, const std::weak_ptr<RoomClient>& socket);
  // Closes every live socket of `session`; returns how many.
  std::size_t close_all(const std::string& session);
  std::size_t tracked_sessions() const;

 private:
  void sweep();  // drops the sessions whose sockets are all gone

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<std::weak_ptr<RoomClient>>> sockets_;
  std::size_t adds_since_sweep_ = 0;
};

}  // namespace blockfog::server
