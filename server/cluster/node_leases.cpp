#include "server/cluster/node_leases.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"

namespace blockfog::server {

std::string default_node_name() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) return "node";
  std::string name(host.data());
  name = name.substr(0, name.find('.'));  // the first label: the rest is the domain
  std::replace_if(
      name.begin(), name.end(),
      [](char ch) { return !(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-'); }, '_');
  if (name.size() > 63) name.resize(63);
  return name.empty() ? "node" : name;
}

NodeLeases::NodeLeases(DbWorker& db, std::string name)
    : db_(db), name_(name.empty() ? default_node_name() : std::move(name)) {
  db.call([this](storage::Store& store) { register_anew(store); });
  db.every(kRenewEvery, [this](storage::Store& store) { renew(store); });
}

NodeLeases::~NodeLeases() { db_.stop(); }

namespace {
std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

bool NodeLeases::heartbeat_current() const {
  const auto at = renewed_at_ms_.load();
  return !released_ && at > 0 && steady_ms() - at < storage::kLeaseMs;
}

void NodeLeases::register_anew(storage::Store& store) {
  // A new id at every registration: a restarted (or lapsed) node never mistakes the leases of
  // its former self for its own.
  node_id_ = name_ + "/" + random_hex(8);
  const auto sent = steady_ms();
  storage::register_node(store, node_id_, name_);
  renewed_at_ms_ = sent;
  log_info("node " + node_id_ + " registered");
}

void NodeLeases::renew(storage::Store& store) {
  if (released_) return;
  try {
    // Its own savepoint: on PostgreSQL a failed statement would fail the group around it.
    storage::Transaction transaction(store.database());
    const auto sent = steady_ms();
    const bool renewed = storage::renew_node(store, node_id_);
    if (!renewed) {
      log_warn("node " + node_id_ +
               ": its heartbeat had lapsed, so its games may have moved; letting go of every "
               "game and registering anew");
      if (on_lapse_) on_lapse_();
      register_anew(store);
    }
    transaction.commit();
    if (renewed) renewed_at_ms_ = sent;
  } catch (const storage::StorageError& e) {
    log_error_throttled("heartbeat", "node " + node_id_ + ": heartbeat not renewed: " + e.what());
  }
}

std::optional<storage::GameLease> NodeLeases::take(storage::Store& store, std::int64_t game_id) {
  const auto fence = storage::take_game_lease(store, game_id, node_id_);
  if (!fence) return std::nullopt;
  return storage::GameLease{node_id_, *fence};
}

std::optional<Elsewhere> locate_game(storage::Store& store, std::int64_t game_id) {
  const auto holder = storage::game_lease_holder(store, game_id);
  if (!holder) return std::nullopt;
  if (holder->heartbeat_age_ms > NodeLeases::kStaleHeartbeatMs) {
    return Elsewhere{"", std::max<std::int64_t>(holder->expires_in_ms, 1)};
  }
  return Elsewhere{holder->name, 0};
}

protocol::MovedMessage moved_message(std::int64_t game_id, const std::optional<Elsewhere>& where) {
  protocol::MovedMessage moved;
  if (where && !where->name.empty()) {
    moved.ws = "/n/" + where->name + "/ws/games/" + std::to_string(game_id);
  } else {
    moved.retry_ms = where ? where->retry_ms : 0;
  }
  return moved;
}

void NodeLeases::release(DbWorker& db) {
  db.post([this](storage::Store& store) {
    released_ = true;
    try {
      storage::Transaction transaction(store.database());  // see renew
      storage::release_node(store, node_id_);
      transaction.commit();
      log_info("node " + node_id_ + ": leases released");
    } catch (const storage::StorageError& e) {
      log_error(std::string("node ") + node_id_ + ": leases not released: " + e.what());
    }
  });
}

}  // namespace blockfog::server
