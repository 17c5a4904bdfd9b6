// An adjudication at a tie of nobles (docs/tournaments.md, "Rounds and deadlines"; RULES
// 12.1.2-12.1.3), through the real server: a tournament game standing at a tie, reached by
// random legal actions from its seed and stored as the server stores a game, is adjudicated by
// its organiser; the server breaks the tie by Wallace as the engine counts it, and says so.

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/hots/adjudication.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "server/play/game_loader.h"
#include "storage/store.h"
#include "storage/tournament_store.h"
#include "tests/server/db_peek.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"
#include "tests/server/test_client.h"
#include "tests/server/tournament_helpers.h"

namespace blockfog::server::testing {
namespace {

using nlohmann::json;

// A Braveheart game's seed and the random legal actions from it that reach a tie of nobles.
struct TiedPosition {
  std::string seed_hex;
  std::vector<std::pair<core::Role, json>> actions;
  hots::Adjudication adjudication;
};

storage::GameRow braveheart_row(const std::string& seed_hex) {
  storage::GameRow row;
  row.kind = std::string(hots::module().id());
  row.rules_version = std::string(hots::kRulesVersion);
  row.scenario = "braveheart";
  row.options_json = "{}";
  row.seed_hex = seed_hex;
  row.seed_sha256 = seed_commitment(seed_hex);
  return row;
}

// Random legal games from seeds drawn from `rng`, each followed until a position where the
// nobles are tied (the engine's own count) or its end: the first tie found, if any.
std::optional<TiedPosition> find_tied_position(std::mt19937_64& rng, int games) {
  for (int g = 0; g < games; ++g) {
    TiedPosition found;
    for (int i = 0; i < 4; ++i) {
      char word[17];
      std::snprintf(word, sizeof word, "%016llx", static_cast<unsigned long long>(rng()));
      found.seed_hex += word;
    }
    auto loaded = setup_game(braveheart_row(found.seed_hex));
    if (!loaded.game) {
      ADD_FAILURE() << loaded.error;
      return std::nullopt;
    }
    auto& game = *loaded.game;
    while (!game.outcome().finished) {
      std::vector<std::pair<core::Role, json>> choices;
      for (const auto role : game.active_roles()) {
        for (const auto& a : game.legal_actions(role)) choices.emplace_back(role, a);
      }
      if (choices.empty()) break;
      auto choice = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
      if (game.apply(choice.first, choice.second)) {
        ADD_FAILURE() << "a legal action was refused: " << choice.second.dump();
        return std::nullopt;
      }
      found.actions.push_back(std::move(choice));
      const auto counted = hots::adjudicate(game);
      if (!game.outcome().finished && counted && counted->tie_broken) {
        found.adjudication = *counted;
        return found;
      }
    }
  }
  return std::nullopt;
}

TEST(TournamentTie, AnAdjudicationAtATieOfNoblesIsBrokenByWallace) {
  std::mt19937_64 rng(1212);
  const auto tied = find_tied_position(rng, 200);
  ASSERT_TRUE(tied) << "no random game of 200 reached a tie of nobles";
  EXPECT_EQ(tied->adjudication.scotland, tied->adjudication.england);

  // The tournament (one round of two players, started) and its game as the server stores them.
  TempDir dir;
  std::int64_t tournament_id = 0;
  std::int64_t game_id = 0;
  {
    storage::Store store(server_db(dir), kNow);
    const auto organiser = store.create_account("tie_org", "x", kNow);
    const auto scot = store.create_account("tie_scot", "x", kNow);
    const auto eng = store.create_account("tie_eng", "x", kNow);
    ASSERT_TRUE(organiser && scot && eng);
    storage::NewTournament t;
    t.name = "Tie Cup";
    t.organiser = organiser->id;
    t.scenario = "braveheart";
    t.format = "swiss";
    t.rounds = 1;
    t.sides = "lot";
    t.round_deadline_ms = 7LL * 24 * 3600 * 1000;
    t.registration_opens_at = kNow;
    t.registration_closes_at = kNow + 3600 * 1000;
    t.max_players = 2;
    tournament_id = storage::create_tournament(store, t, kNow).id;
    std::int64_t seed = 1;
    for (const auto& account : {*scot, *eng}) {
      ASSERT_TRUE(storage::add_tournament_player(store, tournament_id, account.id, kNow));
      storage::set_tournament_seed(store, tournament_id, account.id, seed++);
    }
    storage::set_tournament_started(store, tournament_id, 1, kNow);
    ASSERT_TRUE(
        storage::claim_tournament_round(store, tournament_id, 1, kNow + t.round_deadline_ms));

    const auto row = braveheart_row(tied->seed_hex);
    storage::NewGame game;
    game.rules_version = row.rules_version;
    game.scenario = row.scenario;
    game.seed_hex = row.seed_hex;
    game.seed_sha256 = row.seed_sha256;
    game.created_by = organiser->id;
    game_id = store.create_game(game, kNow).id;
    ASSERT_EQ(store.take_seat(game_id, "scotland", scot->id, kNow), storage::SeatOutcome::Seated);
    ASSERT_EQ(store.take_seat(game_id, "england", eng->id, kNow), storage::SeatOutcome::Seated);
    store.set_game_status(game_id, storage::GameStatus::Active, kNow);
    storage::add_tournament_game(store, tournament_id, 1, game_id, "00");
    auto loaded = setup_game(*store.find_game(game_id));
    ASSERT_TRUE(loaded.game) << loaded.error;
    std::string snapshot;
    loaded.game->write_snapshot(snapshot);
    store.save_snapshot(game_id, 0, snapshot, loaded.game->state_hash(), kNow);
    std::int64_t seq = 1;
    for (const auto& [role, action] : tied->actions) {
      ASSERT_FALSE(loaded.game->apply(role, action));
      store.append_action(game_id, seq++, core::role_name(role), action.dump(),
                          loaded.game->state_hash(), kNow);
    }
  }
  const auto cookie = store_session(server_db(dir), "tie_org");

  ServerProcess server(dir.path());
  HttpClient organiser(server.port());
  organiser.set_session_cookie(cookie);
  const auto r = organiser.post(tournament_path(tournament_id, "/forfeit"),
                                {{"game_id", game_id}, {"reason", "adjudicated"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto result =
      organiser.get("/api/games/" + std::to_string(game_id)).json()["game"]["result"];
  const auto& a = tied->adjudication;
  EXPECT_EQ(result["reason"], "adjudicated");
  EXPECT_EQ(result["tie_broken"], true);
  EXPECT_EQ(result["nobles"], json({{"scotland", a.scotland}, {"england", a.england}}));
  // RULES 12.1.3: Scotland if Wallace is on the map, England if he is in the pool or dead.
  EXPECT_EQ(result["winner"], std::string(core::role_name(a.winner)));
  EXPECT_EQ(result["text"], a.text + ", adjudicated");
  EXPECT_NE(result["text"].get<std::string>().find("nobles tied"), std::string::npos);
  // The tournament's only round is over: it is finished, the tie-break's winner with a point.
  const auto t = organiser.get(tournament_path(tournament_id)).json()["tournament"];
  EXPECT_EQ(t["status"], "finished");
  const std::string winner = a.winner == core::Role::Scotland ? "tie_scot" : "tie_eng";
  ASSERT_EQ(t["standings"].size(), 2u);
  EXPECT_EQ(t["standings"][0]["player"], winner);
  EXPECT_EQ(t["standings"][0]["points"], 1.0);
  // The stored log replays to the tied position the engine counted.
  const auto replayed = replay_record(stored_record(server.db_path(), game_id));
  ASSERT_TRUE(replayed);
  const auto recount = hots::adjudicate(*replayed);
  ASSERT_TRUE(recount);
  EXPECT_TRUE(recount->tie_broken);
}

}  // namespace
}  // namespace blockfog::server::testing
