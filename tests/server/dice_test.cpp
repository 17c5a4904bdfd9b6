// Dice nobody can choose (docs/records.md, "Dice"): the game's seed is made from the server's
// committed secret and one contribution per seat, each committed before the other seat's is
// revealed. What a player would notice: the game starts only once both have rolled; a step out
// of order is refused and changes nothing; a contribution changes the dice; a game whose dice
// are not revealed in time is cancelled; the record holds the three inputs and `hots-replay
// verify` recomputes the seed from them.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include "rules/core/shared_seed.h"
#include "server/play/game_loader.h"
#include "tests/server/clocked_server.h"
#include "tests/server/command.h"
#include "tests/server/db_peek.h"
#include "tests/server/dice_steps.h"
#include "tests/server/game_helpers.h"
#include "tests/server/server_process.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

std::string dice_game_path(std::int64_t id) { return "/api/games/" + std::to_string(id); }

// A Braveheart game created by `creator` (Scotland) and joined by `joiner`: both seats taken.
std::int64_t dice_seated_game(HttpClient& creator, HttpClient& joiner, const json& extra = {}) {
  json body = {{"scenario", "braveheart"}, {"side", "scotland"}};
  if (extra.is_object()) body.update(extra);
  const auto created = creator.post("/api/games", body);
  EXPECT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  EXPECT_EQ(joiner.post(dice_game_path(id) + "/join", json::object()).status, 200);
  return id;
}

TEST(Dice, StepsOutOfOrderAreRefusedWithATypedErrorAndChangeNothing) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto ann = register_user(server.port(), "dice_ann");
  auto bob = register_user(server.port(), "dice_bob");
  auto cid = register_user(server.port(), "dice_cid");
  const auto created = ann.post("/api/games", {{"scenario", "braveheart"}, {"side", "scotland"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::int64_t id = created.json()["game"]["id"];
  const auto a = draw_dice();
  const auto b = draw_dice();

  const auto refused = [&](HttpClient& who, const json& body, int status, const std::string& code) {
    const auto before = db_fingerprint(server.db_path());
    const auto r = who.post(dice_game_path(id) + "/dice", body);
    EXPECT_EQ(r.status, status) << body.dump() << ": " << r.body;
    EXPECT_EQ(r.error_code(), code) << r.body;
    EXPECT_EQ(db_fingerprint(server.db_path()), before) << body.dump() << " changed the store";
  };
  // Before committing, and while nobody else has: nothing to reveal.
  refused(ann, {{"contribution", a.contribution}}, 409, "dice_out_of_order");
  ASSERT_EQ(commit_dice(ann, id, a).status, 200);
  // The creator is bound to his contribution; revealing it before the other seat committed
  // would let the joiner choose his own after seeing it.
  refused(ann, {{"contribution", a.contribution}}, 409, "dice_out_of_order");
  refused(ann, {{"commitment", b.commitment}}, 409, "dice_out_of_order");
  refused(cid, {{"commitment", b.commitment}}, 403, "not_seated");
  refused(ann, {{"commitment", "xyz"}}, 400, "bad_field");
  refused(ann, json::object(), 400, "bad_field");
  refused(ann, {{"commitment", a.commitment}, {"contribution", a.contribution}}, 400, "bad_field");
  refused(ann, {{"seed", a.contribution}}, 400, "bad_field");

  ASSERT_EQ(bob.post(dice_game_path(id) + "/join", json::object()).status, 200);
  // The joiner may not copy the creator's commitment, nor reveal before committing.
  refused(bob, {{"commitment", a.commitment}}, 400, "bad_field");
  refused(bob, {{"contribution", b.contribution}}, 409, "dice_out_of_order");
  auto game = ann.get(dice_game_path(id)).json()["game"];
  EXPECT_EQ(game["status"], "open");
  EXPECT_EQ(game["awaiting"], json::array({"england"}));
  EXPECT_EQ(game["dice"]["scotland"]["commitment"], a.commitment);
  EXPECT_TRUE(game["dice"]["scotland"]["contribution"].is_null()) << "not revealed yet";
  EXPECT_TRUE(game["dice"]["deadline"].is_number_integer());

  ASSERT_EQ(commit_dice(bob, id, b).status, 200);
  // A contribution that is not the committed one is refused.
  refused(ann, {{"contribution", b.contribution}}, 400, "bad_field");
  ASSERT_EQ(reveal_dice(bob, id, b).status, 200);
  refused(bob, {{"contribution", b.contribution}}, 409, "dice_out_of_order");
  EXPECT_EQ(ann.get(dice_game_path(id)).json()["game"]["status"], "open");
  const auto last = reveal_dice(ann, id, a);
  ASSERT_EQ(last.status, 200) << last.body;
  game = last.json()["game"];
  EXPECT_EQ(game["status"], "active");
  EXPECT_EQ(game["dice"]["scotland"]["contribution"], a.contribution);
  EXPECT_EQ(game["dice"]["england"]["contribution"], b.contribution);
  refused(ann, {{"commitment", a.commitment}}, 409, "conflict");
}

// The same secret and options with one contribution changed set up another game: other cards
// in the hands, other dice to come.
TEST(Dice, AChangedContributionChangesTheGame) {
  storage::GameRow row;
  row.id = 1;
  row.kind = "hots";
  row.rules_version = "hots-4";
  row.scenario = "braveheart";
  row.options_json = "{}";
  row.seed_hex = std::string(64, '5');
  const auto seeded = [&](const std::string& scotland, const std::string& england) {
    row.play_seed_hex = core::shared_seed(row.seed_hex, scotland, england);
    const auto loaded = setup_game(row);
    EXPECT_TRUE(loaded.game) << loaded.error;
    return loaded.game ? loaded.game->state_hash() : "";
  };
  const auto first = seeded(std::string(64, 'a'), std::string(64, 'b'));
  EXPECT_EQ(seeded(std::string(64, 'a'), std::string(64, 'b')), first) << "deterministic";
  EXPECT_NE(seeded(std::string(63, 'a') + "c", std::string(64, 'b')), first);
  EXPECT_NE(seeded(std::string(64, 'a'), std::string(63, 'b') + "c"), first);
  // The order of the seats counts: swapped contributions are another seed.
  EXPECT_NE(seeded(std::string(64, 'b'), std::string(64, 'a')), first);
}

TEST(Dice, AGameWhoseDiceAreNotRevealedInTimeIsCancelledUnrated) {
  ClockedServer server;
  auto ann = register_user(server.port(), "late_ann");
  auto bob = register_user(server.port(), "late_bob");
  const json live = {{"kind", "live"}, {"minutes", 30}, {"increment_seconds", 0}};
  const auto id = dice_seated_game(ann, bob, {{"rated", true}, {"time_control", live}});
  const auto a = draw_dice();
  ASSERT_EQ(commit_dice(ann, id, a).status, 200);
  const auto b = draw_dice();
  ASSERT_EQ(commit_dice(bob, id, b).status, 200);
  ASSERT_EQ(reveal_dice(ann, id, a).status, 200);
  auto watcher = connect(server.port(), id, ann.session_cookie());
  ASSERT_TRUE(watcher && watcher->barrier());
  // England never reveals: ten minutes for a live game, then the sweep cancels it.
  server.clock.advance(10 * 60 * 1000 - 1000);
  std::this_thread::sleep_for(std::chrono::milliseconds(4500));  // two sweeps pass
  EXPECT_EQ(ann.get(dice_game_path(id)).json()["game"]["status"], "open");
  server.clock.advance(2000);
  // From the deadline on, a reveal no longer starts the game.
  const auto late = reveal_dice(bob, id, b);
  EXPECT_EQ(late.status, 409) << late.body;
  EXPECT_EQ(late.error_code(), "conflict");
  bool ended = false;
  for (int i = 0; i < 50 && !ended; ++i) {
    if (!watcher->read_one()) break;
    ended = watcher->last["type"] == "game_ended";
  }
  ASSERT_TRUE(ended) << "the room was not told";
  EXPECT_EQ(watcher->last["status"], "aborted");
  const auto game = ann.get(dice_game_path(id)).json()["game"];
  EXPECT_EQ(game["status"], "aborted");
  EXPECT_FALSE(game.contains("result"));
  // Nothing rated: both players keep the starting rating, with no game counted.
  const auto ratings = ann.get("/api/players/late_bob/ratings");
  ASSERT_EQ(ratings.status, 200) << ratings.body;
  EXPECT_EQ(ratings.json()["player"]["games"], 0) << ratings.body;
}

TEST(Dice, AgainstTheComputerItsContributionIsCommittedFirstAndRevealedAfterThePlayers) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto solo = register_user(server.port(), "dice_solo");
  const auto created = solo.post(
      "/api/games", {{"scenario", "braveheart"}, {"side", "england"}, {"computer", "easy"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const auto game = created.json()["game"];
  const std::int64_t id = game["id"];
  EXPECT_EQ(game["status"], "open");
  EXPECT_EQ(game["awaiting"], json::array({"england"}));
  const std::string computer_commitment = game["dice"]["scotland"]["commitment"];
  EXPECT_EQ(computer_commitment.size(), 64u) << "the server committed for the computer";
  EXPECT_TRUE(game["dice"]["scotland"]["contribution"].is_null());
  const auto hand = draw_dice();
  const auto committed = commit_dice(solo, id, hand);
  ASSERT_EQ(committed.status, 200) << committed.body;
  // Bound to his own, the player now sees the computer's, which matches its commitment.
  const std::string computer = committed.json()["game"]["dice"]["scotland"]["contribution"];
  EXPECT_EQ(core::dice_commitment(computer), computer_commitment);
  const auto revealed = reveal_dice(solo, id, hand);
  ASSERT_EQ(revealed.status, 200) << revealed.body;
  EXPECT_EQ(revealed.json()["game"]["status"], "active");
}

TEST(Dice, TheRecordHoldsTheThreeInputsAndVerifyRecomputesTheSeed) {
  TempDir dir;
  ServerProcess server(dir.path());
  auto ann = register_user(server.port(), "rec_ann");
  auto bob = register_user(server.port(), "rec_bob");
  const auto id = dice_seated_game(ann, bob);
  const auto a = draw_dice();
  const auto b = draw_dice();
  ASSERT_EQ(commit_dice(ann, id, a).status, 200);
  ASSERT_EQ(commit_dice(bob, id, b).status, 200);
  ASSERT_EQ(reveal_dice(bob, id, b).status, 200);
  ASSERT_EQ(reveal_dice(ann, id, a).status, 200);
  std::mt19937_64 rng(5150);
  const auto played =
      play_random_actions(server.port(), id, ann.session_cookie(), bob.session_cookie(), 60, rng);
  ASSERT_GT(played.actions, 0);
  if (!played.ended) {
    ASSERT_EQ(ann.post(dice_game_path(id) + "/resign", json::object()).status, 200);
  }
  const auto served = ann.get(dice_game_path(id) + "/record");
  ASSERT_EQ(served.status, 200) << served.body;
  const json record = served.json();
  EXPECT_EQ(record["dice"]["scotland"],
            json({{"commitment", a.commitment}, {"contribution", a.contribution}}));
  EXPECT_EQ(record["dice"]["england"],
            json({{"commitment", b.commitment}, {"contribution", b.contribution}}));

  const auto verify = [&](const json& r, const std::string& name) {
    const auto path = dir.path() / name;
    std::ofstream(path) << r.dump();
    return run_program(BLOCKFOG_HOTS_REPLAY_BIN, {"verify", path.string()});
  };
  const auto verified = verify(record, "record.json");
  EXPECT_EQ(verified.status, 0) << verified.output;
  // A contribution that is not the committed one.
  json changed = record;
  changed["dice"]["england"]["contribution"] = draw_dice().contribution;
  const auto changed_run = verify(changed, "changed.json");
  EXPECT_NE(changed_run.status, 0);
  EXPECT_NE(changed_run.output.find("England's dice contribution does not match its commitment"),
            std::string::npos)
      << changed_run.output;
  // Another contribution with its own commitment: another seed, so the logged actions no
  // longer lead to the recorded states.
  json other = record;
  const auto c = draw_dice();
  other["dice"]["england"] = {{"commitment", c.commitment}, {"contribution", c.contribution}};
  const auto other_run = verify(other, "other.json");
  EXPECT_NE(other_run.status, 0) << other_run.output;
}
}  // namespace
}  // namespace blockfog::server::testing
