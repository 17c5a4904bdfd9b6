// The store's side of the clock sweep (server/periodic/clock_checks.h): it reads only the clocks
// whose `check_at` has passed, through an index, so that a server holding many correspondence games
// whose deadlines are days away does no work per game every few seconds. On both backends (the
// plan's check is SQLite's: PostgreSQL plans from its statistics).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "storage/play_by_web.h"
#include "storage/store.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"
#include "tests/storage/test_store.h"

namespace blockfog::storage {
namespace {

using testing::kNow;

constexpr std::int64_t kClockDay = 24LL * 3600 * 1000;
constexpr int kClockGames = 2000;

TEST(ClockChecks, OnlyClocksWhoseCheckHasPassedAreReadAndThroughAnIndex) {
  testing::TempDir dir;
  const auto opened = testing::open_test_store(dir, kNow);
  Store& store = *opened;
  auto& db = store.database();
  {
    Transaction transaction(db);
    db.exec(
        "INSERT INTO accounts (id, username, password_hash, created_at) VALUES (1, 'a', 'k', 0)");
    for (int id = 1; id <= kClockGames; ++id) {
      const auto n = std::to_string(id);
      db.exec(
          "INSERT INTO games (id, rules_version, scenario, seed, seed_sha256, status, visibility,"
          " created_by, created_at) VALUES (" +
          n + ", 'hots-2', 'braveheart', 'ab', '" + std::string(64, 'c') +
          "', 'active', 'public', 1, 0)");
    }
    transaction.commit();
  }
  // Every game's Scotland clock runs, due in one to three days; England's is stopped.
  Transaction clocks(db);
  for (int id = 1; id <= kClockGames; ++id) {
    const std::int64_t due = kNow + kClockDay + (id % 3) * kClockDay;
    save_clock(store, id, {"scotland", 3 * kClockDay, kNow, due, std::nullopt, std::nullopt});
    save_clock(store, id,
               {"england", 3 * kClockDay, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  }
  clocks.commit();
  EXPECT_TRUE(list_games_with_clocks_to_check(store, kNow).empty());
  EXPECT_TRUE(list_games_with_clocks_to_check(store, kNow + kClockDay - 1).empty());
  // One game is due earlier (its check moved to now): it alone is read.
  save_clock(store, 1234, {"scotland", 3 * kClockDay, kNow, kNow, std::nullopt, std::nullopt});
  EXPECT_EQ(list_games_with_clocks_to_check(store, kNow), std::vector<std::int64_t>{1234});
  // A day on, the games due then are read, each once.
  const auto day_on = list_games_with_clocks_to_check(store, kNow + kClockDay);
  EXPECT_EQ(day_on.size(), static_cast<std::size_t>(kClockGames / 3 + 1));

  // The sweep's query searches the index; it never scans the clocks.
  if (db.backend() != Backend::Sqlite) return;
  auto plan = db.prepare(
      "EXPLAIN QUERY PLAN SELECT game_id FROM game_clocks INDEXED BY game_clocks_to_check"
      " WHERE check_at <= ?1");
  plan.bind(1, kNow);
  std::string steps;
  while (plan.step()) steps += plan.column_text(3) + "\n";
  EXPECT_NE(steps.find("USING INDEX game_clocks_to_check"), std::string::npos) << steps;
  EXPECT_EQ(steps.find("SCAN game_clocks"), std::string::npos) << steps;
}

}  // namespace
}  // namespace blockfog::storage
