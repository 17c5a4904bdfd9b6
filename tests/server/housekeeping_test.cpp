// Housekeeping through the real server: expired sessions and closed failed-login windows left
// in the database are deleted by the storage thread once the server starts (then every few
// minutes); live ones stay.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/clock.h"
#include "storage/sqlite.h"
#include "storage/store.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

std::int64_t count_rows(const std::filesystem::path& db, const std::string& table) {
  storage::SqliteDatabase database(db, storage::OpenMode::ReadBesideWriter);
  auto statement = database.prepare("SELECT count(*) FROM " + table);
  statement.step();
  return statement.column_int64(0);
}

TEST(ServerHousekeeping, ExpiredSessionsAndOldLoginFailuresAreDeleted) {
  TempDir dir;
  const auto db = dir.path() / "var" / "blockfog.db";
  std::filesystem::create_directories(db.parent_path());
  const std::int64_t now = now_ms();
  const std::int64_t day = 24 * 3600 * 1000LL;
  {
    storage::Store store(db, now);
    const auto account = store.create_account("sleeper", "x", now - 40 * day);
    store.create_session("expired", account->id, now - 40 * day, now - 10 * day);
    store.create_session("alive", account->id, now, now + day);
    store.record_failed_login("ip:192.0.2.9", now - 2 * day, 15 * 60 * 1000);
    store.record_failed_login("ip:192.0.2.10", now, 15 * 60 * 1000);
  }
  ServerProcess server(dir.path());
  // The first purge runs at start, on the storage thread, and logs what it deleted.
  const std::string done = "housekeeping: deleted 1 expired sessions and 1 old failed-login";
  for (int i = 0; i < 200 && server.log().find(done) == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_NE(server.log().find(done), std::string::npos) << server.log();
  EXPECT_EQ(count_rows(db, "sessions"), 1);
  EXPECT_EQ(count_rows(db, "failed_logins"), 1);
}

}  // namespace
}  // namespace blockfog::server::testing
