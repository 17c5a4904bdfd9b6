#include "tests/server/acting_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "tests/server/db_peek.h"

namespace blockfog::server::testing {

using nlohmann::json;

ActingClient::ActingClient(const NodePorts& nodes, int home_port, std::int64_t game_id,
                           std::string scot_cookie, std::string eng_cookie, std::uint64_t seed)
    : nodes_(nodes),
      port_(home_port),
      game_id_(game_id),
      cookies_{std::move(scot_cookie), std::move(eng_cookie)},
      rng_(seed) {}

void ActingClient::begin() {
  thread_ = std::thread([this] {
    while (!stop_) step();
  });
}

void ActingClient::finish() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  seats_[0].reset();
  seats_[1].reset();
}

std::vector<SentAction> ActingClient::acknowledged() const {
  std::lock_guard lock(mutex_);
  return acknowledged_;
}

std::vector<SentAction> ActingClient::refused() const {
  std::lock_guard lock(mutex_);
  return refused_;
}

std::vector<SentAction> ActingClient::unanswered() const {
  std::lock_guard lock(mutex_);
  return unanswered_;
}

std::vector<json> ActingClient::other_answers() const {
  std::lock_guard lock(mutex_);
  return other_answers_;
}

std::size_t ActingClient::reconnections() const {
  std::lock_guard lock(mutex_);
  return opened_ > 2 ? opened_ - 2 : 0;
}

std::vector<std::string> ActingClient::versions_back() const {
  std::lock_guard lock(mutex_);
  return versions_back_;
}

void ActingClient::saw_version(std::size_t i) {
  const auto version = seats_[i]->seq;
  std::lock_guard lock(mutex_);
  if (version < seen_version_[i]) {
    versions_back_.push_back(seats_[i]->role + " was shown version " + std::to_string(version) +
                             " after " + std::to_string(seen_version_[i]));
  }
  seen_version_[i] = std::max(seen_version_[i], version);
}

namespace {

std::size_t sent_since(const std::vector<SentAction>& list, ActingClient::Clock::time_point from) {
  return static_cast<std::size_t>(
      std::count_if(list.begin(), list.end(), [from](const auto& a) { return a.sent >= from; }));
}

}  // namespace

std::size_t ActingClient::acknowledged_since(Clock::time_point from) const {
  std::lock_guard lock(mutex_);
  return sent_since(acknowledged_, from);
}

std::size_t ActingClient::refused_since(Clock::time_point from) const {
  std::lock_guard lock(mutex_);
  return sent_since(refused_, from);
}

std::size_t ActingClient::refused_upgrades_since(Clock::time_point from) const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(refused_upgrades_.begin(), refused_upgrades_.end(),
                                                [from](const auto& at) { return at >= from; }));
}

void ActingClient::step() {
  if (over_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return;
  }
  if (!seats_[0] || !seats_[1]) {
    reconnect();
    return;
  }
  std::vector<std::pair<std::size_t, json>> choices;
  for (std::size_t i = 0; i < 2; ++i) {
    for (const auto& a : seats_[i]->view.at("legal_actions")) choices.emplace_back(i, a);
  }
  if (choices.empty()) {
    over_ = true;
    return;
  }
  const auto& [index, action] =
      choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng_)];
  Connection& seat = *seats_[index];
  const std::string ref = "r" + std::to_string(++refs_);
  SentAction sent{seat.role, action, Clock::now(), {}};
  seat.send_action(action, seat.seq, ref);
  bool answered = false;
  while (seat.read_one()) {
    if (seat.last.at("type") == "moved") break;
    if (seat.last.value("ref", "") == ref) {
      answered = true;
      break;
    }
  }
  sent.answered = Clock::now();
  if (!answered) {
    std::lock_guard lock(mutex_);
    unanswered_.push_back(sent);
    drop();
    return;
  }
  const std::string type = seat.last.at("type");
  if (type == "view" || type == "view_patch") {
    if (!seat.last.value("stale", false)) {
      std::lock_guard lock(mutex_);
      acknowledged_.push_back(sent);
    }
    saw_version(index);
    // The other seat's view catches up before the next choice.
    if (!seats_[1 - index]->barrier()) {
      drop();
      return;
    }
    saw_version(1 - index);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (seat.last.value("code", "") == "storage_unavailable") {
      refused_.push_back(sent);
    } else {
      other_answers_.push_back(seat.last);
    }
  }
  // A client waits a moment before trying again ("try again later").
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

void ActingClient::drop() {
  seats_[0].reset();
  seats_[1].reset();
}

void ActingClient::reconnect() {
  // Short attempts, so that finish() is not kept waiting while the database is away.
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  for (std::size_t i = 0; i < 2 && !stop_; ++i) {
    if (!seats_[i]) {
      std::vector<Clock::time_point> unavailable;
      seats_[i] = open_following_moves(nodes_, port_, game_id_, cookies_[i],
                                       i == 0 ? "?patches=1" : "", deadline, nullptr, &unavailable);
      {
        std::lock_guard lock(mutex_);
        refused_upgrades_.insert(refused_upgrades_.end(), unavailable.begin(), unavailable.end());
        if (seats_[i]) ++opened_;
      }
      if (seats_[i]) saw_version(i);
    }
  }
  if (seats_[0] && seats_[1]) return;
  // Nothing served here within the attempt: the next attempt goes to the next node.
  auto next = nodes_.begin();
  for (auto it = nodes_.begin(); it != nodes_.end(); ++it) {
    if (it->second == port_) next = std::next(it) == nodes_.end() ? nodes_.begin() : std::next(it);
  }
  if (next != nodes_.end()) port_ = next->second;
}

ActingClients start_acting_clients(const NodePorts& nodes, const std::vector<int>& ports,
                                   std::size_t count, const std::string& prefix, std::uint64_t seed,
                                   std::size_t actions, std::chrono::seconds limit) {
  ActingClients clients;
  for (std::size_t i = 0; i < count; ++i) {
    const int port = ports[i % ports.size()];
    Table table(port, prefix + std::to_string(i));
    if (::testing::Test::HasFailure()) return {};
    clients.push_back(std::make_unique<ActingClient>(nodes, port, table.game_id,
                                                     table.scot_http.session_cookie(),
                                                     table.eng_http.session_cookie(), seed + i));
  }
  for (auto& c : clients) c->begin();
  const bool played = wait_for(
      [&] {
        return every_client(clients, [&](auto& c) { return c.acknowledged().size() >= actions; });
      },
      limit);
  EXPECT_TRUE(played) << "the games were not played: fewer than " << actions
                      << " actions acknowledged in " << limit.count() << " s";
  if (!played) return {};
  return clients;
}

std::size_t expect_log_keeps_acknowledged(const ActingClient& client, const std::string& uri) {
  const auto log = logged_actions(uri, client.game_id());
  const auto acked = client.acknowledged();
  const auto refused = client.refused();
  const auto unanswered = client.unanswered();
  // The log is the acknowledged actions in their order. Between them it may hold only actions
  // whose answer never came (the connection ended first) or that were refused when the
  // database went away while their COMMIT was under way (its answer lost: outcome unknown).
  const auto sent_and_not_acknowledged = [&](const LoggedAction& logged) -> const SentAction* {
    for (const auto* list : {&unanswered, &refused}) {
      for (const auto& a : *list) {
        if (a.role == logged.role && a.action == logged.action) return &a;
      }
    }
    return nullptr;
  };
  std::size_t next = 0;
  std::size_t unknown = 0;
  for (const auto& logged : log) {
    if (next < acked.size() && acked[next].role == logged.role &&
        acked[next].action == logged.action) {
      ++next;
      continue;
    }
    ++unknown;
    EXPECT_TRUE(sent_and_not_acknowledged(logged))
        << "seq " << logged.seq << " is stored, and no client was told anything of it";
  }
  EXPECT_EQ(next, acked.size()) << "acknowledged action " << next << " of " << acked.size()
                                << " is not in the log in its place";
  EXPECT_FALSE(log.empty());
  if (log.empty()) return unknown;
  const auto replayed = replay_record(stored_record(uri, client.game_id()));
  EXPECT_TRUE(replayed);
  if (replayed) {
    EXPECT_EQ(replayed->state_hash(), log.back().state_hash);
  }
  return unknown;
}

}  // namespace blockfog::server::testing
