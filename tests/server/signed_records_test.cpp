// Signed records and bundles (docs/records.md, "Signatures"), as an organiser checks them: what
// the server serves verifies with the key it publishes; the forgeries no replay can catch (a
// resignation's winner changed, a game cut short and given another end, a game moved in from
// another tournament's bundle, a record signed by another key) fail with their reason; and a
// key rotation leaves the records signed before it verifiable. The real binaries are run.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "protocol/signature.h"
#include "protocol/tar.h"
#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "storage/store.h"
#include "storage/tournament_store.h"
#include "tests/server/command.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string sha256_of(const std::string& bytes) { return core::to_hex(core::sha256(bytes)); }

// A tournament in the store, registering (so that no round starts), holding `games`.
std::int64_t store_tournament(storage::Store& store, const std::string& name,
                              const std::vector<std::int64_t>& games) {
  storage::NewTournament t;
  t.name = name;
  t.organiser = store.find_account_by_name(stored_player(51, "scotland"))->id;
  t.scenario = "braveheart";
  t.format = "swiss";
  t.rounds = 1;
  t.sides = "swapped";
  t.round_deadline_ms = 86'400'000;
  t.registration_opens_at = kNow;
  t.registration_closes_at = kNow + 100LL * 365 * 86'400'000;
  t.max_players = 8;
  const auto row = storage::create_tournament(store, t, kNow);
  for (const auto game : games) storage::add_tournament_game(store, row.id, 1, game, std::nullopt);
  return row.id;
}

// Tournament 1 holds a game played to its end by the rules and one Scotland won by England's
// resignation; tournament 2 another game played to its end.
class SignedRecords : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const auto db = server_db(*dir_);
    played_ = store_finished_game(db, 51);
    resigned_ = store_game(db, 52, StoredEnd::Open);
    other_ = store_finished_game(db, 53);
    {
      storage::Store store(db, kNow);
      store.set_game_status(resigned_, storage::GameStatus::Finished, kNow + 60'000,
                            R"({"winner":"scotland","reason":"resigned"})");
      first_ = store_tournament(store, "First Cup", {played_, resigned_});
      second_ = store_tournament(store, "Second Cup", {other_});
    }
    ServerProcess server(dir_->path());
    HttpClient anybody(server.port());
    const auto key = anybody.get("/api/server-key");
    ASSERT_EQ(key.status, 200) << key.body;
    keys_ = key.body;
    for (const auto game : {played_, resigned_, other_}) {
      const auto r = anybody.get("/api/games/" + std::to_string(game) + "/record");
      ASSERT_EQ(r.status, 200) << r.body;
      records_[game] = r.body;
    }
    for (const auto tournament : {first_, second_}) {
      const auto r = anybody.get("/api/tournaments/" + std::to_string(tournament) + "/export");
      ASSERT_EQ(r.status, 200) << r.body;
      bundles_[tournament] = r.body;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  std::string key_file() {
    const auto path = work_.path() / "server-key.json";
    write_file(path, keys_);
    return path.string();
  }
  static std::string current_key_id() { return json::parse(keys_).at("current"); }

  CommandResult verify(const std::string& bytes, const std::string& name,
                       const std::vector<std::string>& trust) {
    const auto path = work_.path() / name;
    write_file(path, bytes);
    std::vector<std::string> args{"verify"};
    args.insert(args.end(), trust.begin(), trust.end());
    args.push_back(path.string());
    return run_program(BLOCKFOG_HOTS_REPLAY_BIN, args);
  }

  // Tournament 1's bundle, its files changed by `edit` (by name) and written again.
  static std::string edited_bundle(
      std::int64_t tournament,
      const std::function<void(std::map<std::string, std::string>&)>& edit) {
    std::string error;
    const auto entries = protocol::read_tar(bundles_[tournament], error);
    EXPECT_TRUE(entries) << error;
    std::map<std::string, std::string> files;
    std::vector<std::string> order;
    for (const auto& e : *entries) {
      files[e.name] = e.data;
      order.push_back(e.name);
    }
    edit(files);
    std::vector<protocol::TarEntry> out;
    for (const auto& name : order) {
      if (files.contains(name)) out.push_back({name, files[name]});
    }
    for (const auto& [name, data] : files) {
      if (std::find(order.begin(), order.end(), name) == order.end()) out.push_back({name, data});
    }
    return protocol::write_tar(out);
  }

  // The manifest's entry for `game`.
  static json& entry_of(json& manifest, std::int64_t game) {
    for (auto& round : manifest.at("rounds")) {
      for (auto& g : round.at("games")) {
        if (g.at("game_id") == std::to_string(game)) return g;
      }
    }
    throw std::runtime_error("no manifest entry for game " + std::to_string(game));
  }

  static std::string path_of(std::int64_t game) {
    return "games/" + std::to_string(game) + ".json";
  }

  static TempDir* dir_;
  static std::int64_t played_, resigned_, other_, first_, second_;
  static std::string keys_;
  static std::map<std::int64_t, std::string> records_;
  static std::map<std::int64_t, std::string> bundles_;
  TempDir work_;
};

TempDir* SignedRecords::dir_ = nullptr;
std::int64_t SignedRecords::played_ = 0;
std::int64_t SignedRecords::resigned_ = 0;
std::int64_t SignedRecords::other_ = 0;
std::int64_t SignedRecords::first_ = 0;
std::int64_t SignedRecords::second_ = 0;
std::string SignedRecords::keys_;
std::map<std::int64_t, std::string> SignedRecords::records_;
std::map<std::int64_t, std::string> SignedRecords::bundles_;

TEST_F(SignedRecords, WhatTheServerServesVerifiesWithItsPublishedKey) {
  const json keys = json::parse(keys_);
  ASSERT_EQ(keys.at("algorithm"), "Ed25519");
  ASSERT_EQ(keys.at("keys").size(), 1U);
  EXPECT_EQ(keys.at("keys")[0].at("key_id"), keys.at("current"));
  EXPECT_FALSE(keys.at("keys")[0].contains("private_key"));

  // The record says how the game ended, and who ended it, under the signature.
  const json resigned = json::parse(records_[resigned_]);
  EXPECT_EQ(resigned.at("end").at("by"), "resignation");
  EXPECT_EQ(resigned.at("end").at("side"), "england");
  EXPECT_EQ(resigned.at("end").at("at"), kNow + 60'000);
  EXPECT_EQ(resigned.at("tournament_id"), first_);
  EXPECT_EQ(resigned.at("signature").at("key_id"), keys.at("current"));

  auto r = verify(records_[played_], "played.json", {"--key", key_file()});
  EXPECT_EQ(r.status, 0) << r.output;
  r = verify(records_[resigned_], "resigned.json", {"--key", key_file()});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("winner=scotland reason=resigned"), std::string::npos) << r.output;

  r = verify(bundles_[first_], "first.tar", {"--key", key_file()});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("verified 2 games: 2 ok, 0 failed"), std::string::npos) << r.output;
  // A pinned key id takes the key the bundle carries, since the id is the key's hash.
  r = verify(bundles_[first_], "first.tar", {"--key-id", current_key_id()});
  EXPECT_EQ(r.status, 0) << r.output;
}

TEST_F(SignedRecords, AResignedGamesWinnerChangedInRecordAndManifestFails) {
  const auto forged = edited_bundle(first_, [&](auto& files) {
    json record = json::parse(files[path_of(resigned_)]);
    record["result"]["winner"] = "england";
    record["end"]["side"] = "scotland";
    const auto bytes = record.dump();
    files[path_of(resigned_)] = bytes;
    json manifest = json::parse(files["manifest.json"]);
    entry_of(manifest, resigned_)["winner"] = "england";
    entry_of(manifest, resigned_)["record_sha256"] = sha256_of(bytes);
    files["manifest.json"] = manifest.dump(2);
  });
  // Consistent: without a key, nothing tells it from the real one.
  auto r = verify(forged, "forged.tar", {});
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("signatures not checked"), std::string::npos) << r.output;

  r = verify(forged, "forged.tar", {"--key", key_file()});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL " + std::to_string(resigned_) + ": the record's signature by key " +
                          current_key_id() + " does not match its contents"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("FAIL manifest.json: manifest.json's signature"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("OK " + std::to_string(played_)), std::string::npos) << r.output;
}

TEST_F(SignedRecords, AGameCutShortAndGivenAnotherEndFails) {
  json record = json::parse(records_[played_]);
  ASSERT_GT(record.at("actions").size(), 100U);
  record["actions"].erase(record["actions"].begin() + 100, record["actions"].end());
  record["final_state_hash"] = record["actions"][99]["state_hash"];
  record["result"] = {{"winner", "england"}, {"reason", "resigned"}};
  record["end"] = {{"at", record["end"]["at"]}, {"by", "resignation"}, {"side", "scotland"}};
  auto r = verify(record.dump(), "cut.json", {});
  EXPECT_EQ(r.status, 0) << "the cut record is consistent: " << r.output;
  r = verify(record.dump(), "cut.json", {"--key", key_file()});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("does not match its contents: it was changed after the server signed it"),
            std::string::npos)
      << r.output;
}

TEST_F(SignedRecords, ARecordSignedByAnotherKeyFails) {
  json record = json::parse(records_[played_]);
  record["result"] = {{"winner", "england"}, {"reason", "resigned"}};
  record["actions"].erase(record["actions"].begin() + 100, record["actions"].end());
  record["final_state_hash"] = record["actions"][99]["state_hash"];
  const auto forger = protocol::make_signing_key();
  protocol::sign_document(record, protocol::kSignedRecord, forger);
  auto r = verify(record.dump(), "other.json", {"--key", key_file()});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("the record is signed by key " + forger.key_id +
                          ", which is not a trusted key"),
            std::string::npos)
      << r.output;

  // A bundle that carries the forger's key instead of the server's: a pinned id refuses it.
  const auto forged = edited_bundle(first_, [&](auto& files) {
    files["server-key.json"] =
        json{{"key_id", forger.key_id}, {"public_key", forger.public_hex}}.dump();
    json manifest = json::parse(files["manifest.json"]);
    protocol::sign_document(manifest, protocol::kSignedManifest, forger);
    files["manifest.json"] = manifest.dump(2);
  });
  r = verify(forged, "carried.tar", {"--key-id", current_key_id()});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL manifest.json: manifest.json is signed by key " + forger.key_id +
                          ", which is not a trusted key"),
            std::string::npos)
      << r.output;
  // A record carries no key: a pinned id alone cannot check one.
  r = verify(records_[played_], "pinned.json", {"--key-id", current_key_id()});
  EXPECT_EQ(r.status, 2) << r.output;
}

TEST_F(SignedRecords, AGameMovedInFromAnotherTournamentsBundleFails) {
  // The second tournament's game replaces the resignation, its manifest entry updated to match.
  const auto swapped = edited_bundle(first_, [&](auto& files) {
    files.erase(path_of(resigned_));
    files[path_of(other_)] = records_[other_];
    json manifest = json::parse(files["manifest.json"]);
    const json other = json::parse(records_[other_]);
    auto& entry = entry_of(manifest, resigned_);
    entry["game_id"] = std::to_string(other_);
    entry["record"] = path_of(other_);
    entry["record_sha256"] = sha256_of(records_[other_]);
    entry["seed_commitment"] = other.at("seed_sha256");
    entry["result"] = other.at("result").at("reason");
    entry["winner"] = other.at("result").at("winner");
    files["manifest.json"] = manifest.dump(2);
  });
  auto r = verify(swapped, "swapped.tar", {"--key", key_file()});
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL " + std::to_string(other_) + ": " + path_of(other_) +
                          " is a game of tournament " + std::to_string(second_) +
                          ", not of this bundle's tournament " + std::to_string(first_)),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("FAIL manifest.json"), std::string::npos) << r.output;
}

TEST_F(SignedRecords, ARotatedKeyKeepsOldRecordsVerifiable) {
  // A copy of the database, so that the other tests keep their one key.
  TempDir copy;
  std::filesystem::create_directories(copy.path() / "var");
  // The database with its WAL: the suite's server was killed, not stopped.
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const auto from = server_db(*dir_).string() + suffix;
    if (std::filesystem::exists(from)) {
      std::filesystem::copy_file(from, server_db(copy).string() + suffix);
    }
  }
  const auto rotated =
      run_program(BLOCKFOG_SERVER_BIN, {"--rotate-signing-key", "--db", server_db(copy).string()});
  ASSERT_EQ(rotated.status, 0) << rotated.output;
  EXPECT_NE(rotated.output.find(current_key_id() + " retired"), std::string::npos)
      << rotated.output;

  ServerProcess server(copy.path());
  HttpClient anybody(server.port());
  const auto keys = anybody.get("/api/server-key");
  ASSERT_EQ(keys.status, 200);
  const json document = json::parse(keys.body);
  ASSERT_EQ(document.at("keys").size(), 2U);
  EXPECT_NE(document.at("current"), current_key_id());
  EXPECT_FALSE(document.at("keys")[0].at("retired_at").is_null());
  const auto now = anybody.get("/api/games/" + std::to_string(played_) + "/record");
  ASSERT_EQ(now.status, 200);
  EXPECT_EQ(json::parse(now.body).at("signature").at("key_id"), document.at("current"));

  const auto path = work_.path() / "rotated-keys.json";
  write_file(path, keys.body);
  // Signed before the rotation, with the retired key: still verifies with the published keys.
  auto r = verify(records_[played_], "before.json", {"--key", path.string()});
  EXPECT_EQ(r.status, 0) << r.output;
  r = verify(now.body, "after.json", {"--key", path.string()});
  EXPECT_EQ(r.status, 0) << r.output;
  // The old key file alone does not know the new key.
  r = verify(now.body, "after.json", {"--key", key_file()});
  EXPECT_EQ(r.status, 1) << r.output;
}

}  // namespace
}  // namespace blockfog::server::testing
