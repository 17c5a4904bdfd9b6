// Invitation links their players can get again (docs/protocol.md, "Invitation links"): the
// creator gets an invite game's link from any session, the invited player once seated too,
// nobody else can tell the game exists, the link joins, and a link made before the links were
// derived (random, kept only as a hash) still joins though it cannot be shown again.

#include <gtest/gtest.h>

#include "server/crypto.h"
#include "storage/sqlite.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

class InviteLinks : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::make_unique<ServerProcess>(dir_.path()); }
  int port() const { return server_->port(); }

  // A second login session of an account, as on another device.
  HttpClient login(const std::string& name) {
    HttpClient client(port());
    const auto in = client.post("/api/login", {{"username", name}, {"password", "correct horse"}});
    EXPECT_EQ(in.status, 200) << in.body;
    return client;
  }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(InviteLinks, TheCreatorGetsTheLinkAgainFromAnotherSessionAndItJoins) {
  auto bruce = register_user(port(), "bruce");
  auto edward = register_user(port(), "edward");
  auto comyn = register_user(port(), "comyn");
  const auto created =
      bruce.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string token = created.json()["invite"];
  const std::string id = std::to_string(created.json()["game"]["id"].get<int>());
  EXPECT_EQ(token.size(), 32U);

  auto elsewhere = login("bruce");
  const auto again = elsewhere.get("/api/games/" + id + "/invite");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json()["invite"], token);
  EXPECT_EQ(bruce.get("/api/games/" + id + "/invite").json()["invite"], token);

  // Nobody else learns it, nor whether the game exists: the same answer as for an unused id.
  for (auto* client : {&edward, &comyn}) {
    const auto refused = client->get("/api/games/" + id + "/invite");
    EXPECT_EQ(refused.status, 404);
    EXPECT_EQ(refused.error_code(), "not_found");
    EXPECT_EQ(refused.json()["error"]["message"],
              client->get("/api/games/999/invite").json()["error"]["message"]);
  }
  HttpClient anonymous(port());
  EXPECT_EQ(anonymous.get("/api/games/" + id + "/invite").error_code(), "unauthorized");

  // A public game has no link.
  const auto open = bruce.post("/api/games", {{"scenario", "braveheart"}});
  const std::string open_id = std::to_string(open.json()["game"]["id"].get<int>());
  EXPECT_EQ(bruce.get("/api/games/" + open_id + "/invite").error_code(), "not_found");

  // The link joins; the invited player, seated, may get it too; the others still may not.
  EXPECT_EQ(edward.post("/api/games/" + id + "/join", {{"invite", again.json()["invite"]}}).status,
            200);
  EXPECT_EQ(edward.get("/api/games/" + id + "/invite").json()["invite"], token);
  EXPECT_EQ(comyn.get("/api/games/" + id + "/invite").status, 404);
}

TEST_F(InviteLinks, ALinkMadeBeforeStillJoinsButIsNotShownAgain) {
  auto bruce = register_user(port(), "bruce");
  auto edward = register_user(port(), "edward");
  const auto created =
      bruce.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = std::to_string(created.json()["game"]["id"].get<int>());
  // A game as the server made them before: a random token, only its hash kept.
  const std::string old_token = random_hex(16);
  {
    storage::SqliteDatabase db(server_->db_path(), storage::OpenMode::ReadWrite);
    db.prepare("UPDATE games SET invite_token_hash = ?1 WHERE id = ?2")
        .bind(1, sha256_hex(old_token))
        .bind(2, std::int64_t{std::stoi(id)})
        .run();
  }
  const auto refused = bruce.get("/api/games/" + id + "/invite");
  EXPECT_EQ(refused.status, 404);
  EXPECT_EQ(refused.error_code(), "not_found");
  EXPECT_NE(refused.json()["error"]["message"].get<std::string>().find("shown once"),
            std::string::npos)
      << refused.body;
  EXPECT_EQ(
      edward.post("/api/games/" + id + "/join", {{"invite", created.json()["invite"]}}).status, 404)
      << "the derived link is not this game's";
  EXPECT_EQ(edward.post("/api/games/" + id + "/join", {{"invite", old_token}}).status, 200);
}

TEST_F(InviteLinks, LinksSurviveARestart) {
  auto bruce = register_user(port(), "bruce");
  const auto created =
      bruce.post("/api/games", {{"scenario", "braveheart"}, {"visibility", "invite"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = std::to_string(created.json()["game"]["id"].get<int>());
  EXPECT_EQ(server_->terminate(), 0);
  server_.reset();
  server_ = std::make_unique<ServerProcess>(dir_.path());
  auto elsewhere = login("bruce");
  EXPECT_EQ(elsewhere.get("/api/games/" + id + "/invite").json()["invite"],
            created.json()["invite"]);
  auto edward = register_user(port(), "edward");
  EXPECT_EQ(
      edward.post("/api/games/" + id + "/join", {{"invite", created.json()["invite"]}}).status,
      200);
}

}  // namespace
}  // namespace blockfog::server::testing
