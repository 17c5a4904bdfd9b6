// `hots-replay verify` on what the server publishes (docs/records.md): the record of a whole
// game played to its end passes; a record with a changed seed, action, result or state hash
// fails with its reason; a tournament bundle written with the shared tar writer passes, and
// its tampered variants fail game by game. The real binary is run, as a verifier would run it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "protocol/tar.h"
#include "rules/core/hex.h"
#include "rules/core/role.h"
#include "rules/core/sha256.h"
#include "rules/hots/module.h"
#include "tests/server/command.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

CommandResult run_verify(const std::vector<std::string>& args) {
  return run_program(BLOCKFOG_HOTS_REPLAY_BIN, args);
}

void write_verify_input(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string bytes_sha256(const std::string& bytes) { return core::to_hex(core::sha256(bytes)); }

// Two whole games played to their end with random legal actions, stored as the server logs
// them, and their records as the record endpoint serves them (the exact bytes).
class VerifyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    games_[0] = store_finished_game(server_db(*dir_), 41);
    games_[1] = store_finished_game(server_db(*dir_), 42);
    ServerProcess server(dir_->path());
    HttpClient anybody(server.port());
    for (int i = 0; i < 2; ++i) {
      const auto r = anybody.get("/api/games/" + std::to_string(games_[i]) + "/record");
      ASSERT_EQ(r.status, 200) << r.body;
      records_[i] = r.body;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // Writes `record` to a file of its own and verifies it.
  CommandResult verify_record(const json& record, const std::string& name) {
    const auto path = work_.path() / name;
    write_verify_input(path, record.dump());
    return run_verify({"verify", path.string()});
  }

  json manifest_entry(int i, const std::string& bytes) const {
    const json record = json::parse(bytes);
    return {{"game_id", std::to_string(games_[i])},
            {"scotland", stored_player(41 + i, "scotland")},
            {"england", stored_player(41 + i, "england")},
            {"result", record.at("result").at("reason")},
            {"winner", record.at("result").at("winner")},
            {"record", "games/" + std::to_string(games_[i]) + ".json"},
            {"record_sha256", bytes_sha256(bytes)},
            {"seed_commitment", record.at("seed_sha256")}};
  }

  // A bundle of both games, one a round, with the manifest changed by `edit` and the files
  // by `files` before writing.
  CommandResult verify_bundle(
      const std::function<void(json&)>& edit = {},
      const std::function<void(std::vector<protocol::TarEntry>&)>& files = {}) {
    json manifest = {
        {"format", "blockfog-tournament-bundle"},
        {"version", 1},
        {"tournament", {{"id", 3}, {"name", "Test Cup"}, {"format", "swiss"}, {"organiser", "o"}}},
        {"rounds", json::array()}};
    for (int i = 0; i < 2; ++i) {
      manifest["rounds"].push_back({{"round", i + 1}, {"games", {manifest_entry(i, records_[i])}}});
    }
    if (edit) edit(manifest);
    std::vector<protocol::TarEntry> entries = {{"manifest.json", manifest.dump(2)}};
    for (int i = 0; i < 2; ++i) {
      entries.push_back({"games/" + std::to_string(games_[i]) + ".json", records_[i]});
    }
    if (files) files(entries);
    const auto path = work_.path() / "bundle.tar";
    write_verify_input(path, protocol::write_tar(entries));
    return run_verify({"verify", path.string()});
  }

  std::string id(int i) const { return std::to_string(games_[i]); }

  static TempDir* dir_;
  static std::int64_t games_[2];
  static std::string records_[2];
  TempDir work_;
};

TempDir* VerifyTest::dir_ = nullptr;
std::int64_t VerifyTest::games_[2] = {};
std::string VerifyTest::records_[2];

TEST_F(VerifyTest, TheRecordOfAWholeGameAsServedPasses) {
  const json record = json::parse(records_[0]);
  // What makes it verifiable is in the record the endpoint serves.
  ASSERT_TRUE(record.contains("seed_sha256"));
  ASSERT_TRUE(record.contains("final_state_hash"));
  ASSERT_TRUE(record.at("result").is_object());
  ASSERT_GT(record.at("actions").size(), 40u);
  ASSERT_TRUE(record.at("actions").at(0).contains("state_hash"));

  const auto path = work_.path() / "record.json";
  write_verify_input(path, records_[0]);
  const auto run = run_verify({"verify", path.string()});
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("OK " + id(0) +
                            " actions=" + std::to_string(record.at("actions").size()) + " winner="),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("final_state=" + record.at("final_state_hash").get<std::string>()),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("verified 1 game: 1 ok, 0 failed"), std::string::npos) << run.output;
}

TEST_F(VerifyTest, AChangedSeedFailsAgainstTheCommitment) {
  json record = json::parse(records_[0]);
  auto seed = record.at("seed").get<std::string>();
  seed[0] = seed[0] == '0' ? '1' : '0';
  record["seed"] = seed;
  const auto run = verify_record(record, "seed.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the seed does not match its commitment"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("FAILED 1 game: 0 ok, 1 failed"), std::string::npos) << run.output;
}

TEST_F(VerifyTest, AChangedActionFailsAsIllegalOrByItsStateHash) {
  // An action the rules refuse there: England acting in Scotland's place.
  json record = json::parse(records_[0]);
  record["actions"][0]["role"] =
      record["actions"][0]["role"] == "scotland" ? "england" : "scotland";
  auto run = verify_record(record, "illegal.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": action 1 ("), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(") is illegal: "), std::string::npos) << run.output;

  // Another legal action in place of the one played: the state after it is not the recorded.
  record = json::parse(records_[0]);
  const auto first = record["actions"][0]["action"];
  auto setup = hots::module().setup(*core::seed_from_hex(record.at("seed").get<std::string>()),
                                    record.at("scenario").get<std::string>(), record.at("options"));
  ASSERT_TRUE(setup.game);
  const auto role = *core::role_from_name(record["actions"][0]["role"].get<std::string>());
  json other;
  for (const auto& a : setup.game->legal_actions(role)) {
    if (a != first) other = a;
  }
  ASSERT_FALSE(other.is_null()) << "the first action had no alternative";
  record["actions"][0]["action"] = other;
  run = verify_record(record, "other.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the state hash after action 1 differs"),
            std::string::npos)
      << run.output;
}

TEST_F(VerifyTest, AChangedResultFails) {
  json record = json::parse(records_[0]);
  const auto winner = record["result"]["winner"];
  record["result"]["winner"] = winner == "scotland" ? "england" : "scotland";
  auto run = verify_record(record, "winner.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the result says "), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(", the replay "), std::string::npos) << run.output;

  // A game the rules ended cannot have been resigned.
  record = json::parse(records_[0]);
  record["result"]["reason"] = "resigned";
  run = verify_record(record, "resigned.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("by resigned, the replay"), std::string::npos) << run.output;

  // A record without its result.
  record = json::parse(records_[0]);
  record.erase("result");
  run = verify_record(record, "none.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the record has no result"), std::string::npos)
      << run.output;
}

TEST_F(VerifyTest, AChangedStateHashFails) {
  json record = json::parse(records_[0]);
  auto hash = record["actions"][4]["state_hash"].get<std::string>();
  hash[10] = hash[10] == 'a' ? 'b' : 'a';
  record["actions"][4]["state_hash"] = hash;
  auto run = verify_record(record, "hash.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the state hash after action 5 differs"),
            std::string::npos)
      << run.output;

  record = json::parse(records_[0]);
  record["final_state_hash"] = std::string(64, '0');
  run = verify_record(record, "final.json");
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the final state hash differs"), std::string::npos)
      << run.output;
}

TEST_F(VerifyTest, BadUsageAndUnreadableInputExitWithTwo) {
  EXPECT_EQ(run_verify({"verify"}).status, 2);
  EXPECT_EQ(run_verify({"verify", (work_.path() / "missing.json").string()}).status, 2);
  write_verify_input(work_.path() / "junk.json", "{not json");
  EXPECT_EQ(run_verify({"verify", (work_.path() / "junk.json").string()}).status, 2);
  write_verify_input(work_.path() / "junk.tar", std::string(700, 'x'));
  const auto run = run_verify({"verify", (work_.path() / "junk.tar").string()});
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("is not a ustar header"), std::string::npos) << run.output;
}

TEST_F(VerifyTest, ABundleOfFinishedGamesPasses) {
  const auto run = verify_bundle();
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("OK " + id(0) + " actions="), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("OK " + id(1) + " actions="), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("verified 2 games: 2 ok, 0 failed"), std::string::npos) << run.output;
}

TEST_F(VerifyTest, ATamperedBundleFailsGameByGame) {
  const auto file0 = "games/" + id(0) + ".json";
  // A record whose bytes are no longer those the manifest hashed.
  auto run = verify_bundle({}, [&](auto& entries) { entries[1].data += " "; });
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the SHA-256 of " + file0 + " is "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("OK " + id(1)), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("FAILED 2 games: 1 ok, 1 failed"), std::string::npos) << run.output;

  // A listed record missing, and a file nobody listed.
  run = verify_bundle({}, [&](auto& entries) { entries[1].name = "games/extra.json"; });
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": " + file0 +
                            " is listed in the manifest but missing from the archive"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("FAIL games/extra.json: the archive holds games/extra.json, which the "
                            "manifest does not list"),
            std::string::npos)
      << run.output;

  // The manifest's result is not the game's.
  run = verify_bundle([](json& m) {
    auto& g = m["rounds"][1]["games"][0];
    g["winner"] = g["winner"] == "scotland" ? "england" : "scotland";
  });
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(1) + ": the manifest says "), std::string::npos)
      << run.output;

  // The manifest's commitment is not the record's.
  run = verify_bundle([](json& m) { m["rounds"][0]["games"][0]["seed_commitment"] = "00"; });
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(0) + ": the record's seed commitment"), std::string::npos)
      << run.output;

  // A record changed together with its listed SHA-256: the replay still catches it.
  json changed = json::parse(records_[1]);
  changed["actions"][2]["state_hash"] = std::string(64, 'f');
  const auto changed_bytes = changed.dump();
  run = verify_bundle(
      [&](json& m) { m["rounds"][1]["games"][0]["record_sha256"] = bytes_sha256(changed_bytes); },
      [&](auto& entries) { entries[2].data = changed_bytes; });
  EXPECT_EQ(run.status, 1) << run.output;
  EXPECT_NE(run.output.find("FAIL " + id(1) + ": the state hash after action 3 differs"),
            std::string::npos)
      << run.output;

  // No manifest: not a bundle at all.
  run = verify_bundle({}, [](auto& entries) { entries.erase(entries.begin()); });
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("no manifest.json"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace blockfog::server::testing
