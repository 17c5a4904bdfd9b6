#include "tests/server/stored_games.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "rules/hots/module.h"
#include "server/api/api.h"
#include "server/clock.h"
#include "server/crypto.h"
#include "server/play/game_loader.h"

namespace blockfog::server::testing {

using nlohmann::json;

std::string stored_player(std::uint64_t rng_seed, const std::string& role) {
  return (role == "scotland" ? "replay_scot_" : "replay_eng_") + std::to_string(rng_seed);
}

storage::GameRow start_stored_game(storage::Store& store, std::uint64_t rng_seed,
                                   std::mt19937_64& rng, storage::Visibility visibility,
                                   std::string_view rules_version) {
  const auto scot = store.create_account(stored_player(rng_seed, "scotland"), "x", kNow);
  const auto eng = store.create_account(stored_player(rng_seed, "england"), "x", kNow);
  std::string seed_hex;
  for (int i = 0; i < 4; ++i) {
    char word[17];
    std::snprintf(word, sizeof word, "%016llx", static_cast<unsigned long long>(rng()));
    seed_hex += word;
  }
  storage::NewGame game;
  game.rules_version = std::string(rules_version);
  game.scenario = "braveheart";
  game.seed_hex = seed_hex;
  game.seed_sha256 = seed_commitment(seed_hex);
  game.created_by = scot->id;
  game.creator_role = "scotland";
  game.visibility = visibility;
  if (visibility == storage::Visibility::Invite) {
    game.invite_token_hash = sha256_hex("invite " + std::to_string(rng_seed));
  }
  const auto row = store.create_game(game, kNow);
  EXPECT_EQ(store.take_seat(row.id, "england", eng->id, kNow), storage::SeatOutcome::Seated);
  store.set_game_status(row.id, storage::GameStatus::Active, kNow);
  return *store.find_game(row.id);
}

storage::GameRow start_stored_game(storage::Store& store, std::uint64_t rng_seed) {
  std::mt19937_64 rng(rng_seed);
  return start_stored_game(store, rng_seed, rng, storage::Visibility::Public);
}

std::int64_t store_game(const std::filesystem::path& db, std::uint64_t rng_seed, StoredEnd end,
                        storage::Visibility visibility, std::string_view rules_version) {
  storage::Store store(db, kNow);
  store.database().exec(
      "PRAGMA synchronous = OFF");  // a test fixture: no need to wait for the disk
  std::mt19937_64 rng(rng_seed);
  const auto row = start_stored_game(store, rng_seed, rng, visibility, rules_version);
  auto loaded = setup_game(*store.find_game(row.id));  // as the server sets it up
  EXPECT_TRUE(loaded.game) << loaded.error;
  if (!loaded.game) return row.id;
  auto& g = *loaded.game;
  std::string snapshot;
  g.write_snapshot(snapshot);
  store.save_snapshot(row.id, 0, snapshot, g.state_hash(), kNow);
  if (end == StoredEnd::Open) return row.id;
  std::int64_t seq = 1;
  for (; seq <= 5000 && !g.outcome().finished; ++seq) {
    std::vector<std::pair<core::Role, json>> choices;
    for (auto role : g.active_roles()) {
      for (const auto& a : g.legal_actions(role)) choices.emplace_back(role, a);
    }
    EXPECT_FALSE(choices.empty()) << "stuck at action " << seq;
    if (choices.empty()) return row.id;
    const auto& [role, action] =
        choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
    EXPECT_FALSE(g.apply(role, action)) << action.dump();
    store.append_action(row.id, seq, core::role_name(role), action.dump(), g.state_hash(), kNow);
  }
  EXPECT_TRUE(g.outcome().finished) << "no end after " << seq - 1 << " actions";
  if (end == StoredEnd::Finished) {
    // The result as the server records an end by the rules.
    const auto outcome = g.outcome();
    const json result = {
        {"winner", outcome.winner ? json(core::role_name(*outcome.winner)) : json()},
        {"reason", outcome.reason}};
    store.set_game_status(row.id, storage::GameStatus::Finished, kNow, result.dump());
  }
  return row.id;
}

std::int64_t store_finished_game(const std::filesystem::path& db, std::uint64_t rng_seed,
                                 storage::GameStatus status) {
  return store_game(db, rng_seed,
                    status == storage::GameStatus::Active ? StoredEnd::Open : StoredEnd::Finished);
}

std::string store_session(const std::filesystem::path& db, const std::string& username) {
  storage::Store store(db, kNow);
  const auto account = store.find_account_by_name(username);
  EXPECT_TRUE(account) << username;
  if (!account) return "";
  // The server checks sessions against the real clock, not kNow.
  const auto now = now_ms();
  const auto token = sha256_hex("session of " + username);  // 64 hex digits, as the server's
  store.create_session(sha256_hex(token), account->id, now, now + 24LL * 3600 * 1000);
  return std::string(kSessionCookie) + "=" + token;
}

std::filesystem::path server_db(const TempDir& dir) {
  std::filesystem::create_directories(dir.path() / "var");
  return dir.path() / "var" / "blockfog.db";
}

}  // namespace blockfog::server::testing
