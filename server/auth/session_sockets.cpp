#include "server/auth/session_sockets.h"

#include <algorithm>
#include <iterator>

namespace blockfog::server {

void SessionSockets::add(const std::string& session, const std::weak_ptr<RoomClient>& socket) {
  std::lock_guard lock(mutex_);
  auto& list = sockets_[session];
  std::erase_if(list, [](const auto& s) { return s.expired(); });
  list.push_back(socket);
  if (++adds_since_sweep_ >= 1024) sweep();
}

std::size_t SessionSockets::close_all(const std::string& session) {
  std::vector<std::shared_ptr<RoomClient>> live;
  {
    std::lock_guard lock(mutex_);
    const auto it = sockets_.find(session);
    if (it == sockets_.end()) return 0;
    for (const auto& s : it->second) {
      if (auto socket = s.lock()) live.push_back(std::move(socket));
    }
    sockets_.erase(it);
  }
  for (const auto& socket : live) socket->close();
  return live.size();
}

std::size_t SessionSockets::tracked_sessions() const {
  std::lock_guard lock(mutex_);
  return sockets_.size();
}

void SessionSockets::sweep() {
  adds_since_sweep_ = 0;
  for (auto it = sockets_.begin(); it != sockets_.end();) {
    std::erase_if(it->second, [](const auto& s) { return s.expired(); });
    it = it->second.empty() ? sockets_.erase(it) : std::next(it);
  }
}

}  // namespace blockfog::server
