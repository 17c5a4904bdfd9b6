// The engine contract (docs/architecture.md) for Scotland Rising: the module's setup and
// options, refusals that leave the state unchanged, undo, the free-form setup (rulebook 4), the
// open views, and restoring states.

#include <gtest/gtest.h>

#include "rules/core/sha256.h"
#include "rules/scotland_rising/module.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

const std::vector<std::string> kContractField = {".......", ".......", "......."};

std::unique_ptr<core::Game> new_game(const json& options = json::object()) {
  auto result = module().setup(test_seed(), "bannockburn_variant", options);
  EXPECT_TRUE(result.game) << result.error;
  return std::move(result.game);
}

TEST(Module, IsScotlandRisingWithTheVariantBoardAsItsScenario) {
  EXPECT_EQ(module().id(), "scotland_rising");
  EXPECT_EQ(module().scenarios(), std::vector<std::string>{"bannockburn_variant"});
  EXPECT_FALSE(module().setup(test_seed(), "bannockburn", json::object()).game);
}

TEST(Module, RefusesUnknownOptionsAndSolitaireEventsWithoutEvents) {
  EXPECT_FALSE(module().setup(test_seed(), "bannockburn_variant", {{"fog", true}}).game);
  EXPECT_FALSE(module().setup(test_seed(), "bannockburn_variant", {{"battle_events", 1}}).game);
  EXPECT_FALSE(
      module().setup(test_seed(), "bannockburn_variant", {{"solitaire_events", true}}).game);
  EXPECT_TRUE(module()
                  .setup(test_seed(), "bannockburn_variant",
                         {{"battle_events", true},
                          {"solitaire_events", true},
                          {"longbows_vs_schiltron", true},
                          {"freeform_setup", true}})
                  .game);
}

TEST(Module, PlaysAnotherDataFileOfTheSameSchema) {
  const auto other = make_module(
      board(kContractField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  EXPECT_EQ(other->scenarios(), std::vector<std::string>{"test"});
  auto game = other->setup(test_seed(), "test", json::object()).game;
  ASSERT_TRUE(game);
  EXPECT_FALSE(game->apply(Role::Scotland, {{"type", "setup_done"}}));
  EXPECT_FALSE(module().from_json(game->to_json()).game);  // a state of another scenario
}

TEST(Module, ARefusedActionSaysWhyAndChangesNothing) {
  auto game = new_game();
  const auto before = game->to_json();
  EXPECT_EQ(game->apply(Role::Scotland, {{"type", "fly"}})->code,
            core::RuleErrorCode::MalformedAction);
  EXPECT_EQ(game->apply(Role::Scotland, {{"type", "move"}, {"unit", "nobody"}, {"path", {}}})->code,
            core::RuleErrorCode::MalformedAction);
  EXPECT_EQ(game->apply(Role::England, {{"type", "setup_done"}})->code,
            core::RuleErrorCode::NotYourTurn);
  EXPECT_EQ(game->apply(Role::Observer, {{"type", "setup_done"}})->code,
            core::RuleErrorCode::NotYourTurn);
  EXPECT_EQ(game->apply(Role::Scotland, {{"type", "end_turn"}})->code,
            core::RuleErrorCode::IllegalAction);
  EXPECT_EQ(game->apply(Role::Scotland, {{"type", "undo"}})->code,
            core::RuleErrorCode::IllegalAction);
  EXPECT_EQ(game->to_json(), before);
}

TEST(Module, EveryOfferedActionIsAcceptedInTheFormOffered) {
  auto game = new_game();
  for (const auto& a : game->legal_actions(Role::Scotland)) {
    auto copy = game->clone();
    EXPECT_FALSE(copy->apply(Role::Scotland, a)) << a.dump();
  }
  EXPECT_TRUE(game->legal_actions(Role::England).empty());
  EXPECT_TRUE(game->legal_actions(Role::Observer).empty());
}

TEST(Views, EveryRoleSeesTheWholeStateButNotTheGenerator) {
  auto game = new_game();
  const auto state = game->to_json();
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    const auto view = game->view(role);
    EXPECT_EQ(view["units"], state["position"]["units"]);
    EXPECT_EQ(view["variant_note"], "Variant board: not the published map");
    EXPECT_EQ(view["board"]["terrain_rows"].size(), 16u);
    EXPECT_EQ(view["log_size"], state["log"].size());
    const auto text = game->view_text(role);
    EXPECT_EQ(text.find(state["rng"]["key"].get<std::string>()), std::string::npos);
  }
}

TEST(Views, CarryOnlyTheLogLinesFromLogFromButAlwaysTheLogSize) {
  auto game = new_game();
  game->apply(Role::Scotland, {{"type", "setup_done"}});
  game->apply(Role::Scotland, {{"type", "roll_ap"}});
  const auto all = game->view(Role::England, 0);
  const auto some = game->view(Role::England, 2);
  ASSERT_GE(all["log"].size(), 3u);
  EXPECT_EQ(some["log"].size(), all["log"].size() - 2);
  EXPECT_EQ(some["log_size"], all["log_size"]);
  std::string text;
  EXPECT_EQ(game->write_view(Role::Scotland, 99, text), all["log"].size());
}

TEST(Views, ReportWhereTheirMembersAreWhenALayoutIsAsked) {
  auto game = new_game();
  std::string text;
  core::ViewLayout layout;
  game->write_view(Role::Scotland, 0, text, &layout);
  EXPECT_EQ(text, game->view_text(Role::Scotland));
  bool log = false, log_size = false;
  for (const auto& member : layout.members) {
    log |= core::text_of(text, member.name) == "log";
    log_size |= core::text_of(text, member.name) == "log_size";
  }
  EXPECT_TRUE(log);
  EXPECT_TRUE(log_size);
}

TEST(Undo, TakesBackAMoveAndItsLogLine) {
  State s = start(
      board(kContractField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  scots_turn(s, 3);
  const auto before = to_json(s);
  EXPECT_FALSE(is_legal(s, Role::Scotland, {{"type", "undo"}}));
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0201"}}});
  EXPECT_TRUE(is_legal(s, Role::Scotland, {{"type", "undo"}}));
  act(s, Role::Scotland, {{"type", "undo"}});
  EXPECT_EQ(to_json(s), before);
}

TEST(Undo, TakesBackSeveralChoicesNewestFirst) {
  State s = start(board(kContractField, {{"p", "scotland", "pike", "0101"},
                                         {"q", "scotland", "pike", "0103"},
                                         {"e", "england", "pike", "0703"}}));
  scots_turn(s, 3);
  const auto before = to_json(s);
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0201"}}});
  const auto middle = to_json(s);
  act(s, Role::Scotland, {{"type", "schiltron"}, {"unit", "q"}});
  act(s, Role::Scotland, {{"type", "undo"}});
  EXPECT_EQ(to_json(s), middle);
  act(s, Role::Scotland, {{"type", "undo"}});
  EXPECT_EQ(to_json(s), before);
}

TEST(Undo, IsNotOfferedOnceADieIsRolled) {
  State s = start(board(kContractField, {{"p", "scotland", "pike", "0101"},
                                         {"q", "scotland", "pike", "0103"},
                                         {"e", "england", "pike", "0201"}}));
  scots_turn(s, 3);
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "q"}, {"path", {"0203"}}});
  script(s, {1, 1});
  act(s, Role::Scotland, {{"type", "attack"}, {"unit", "p"}, {"target", "0201"}});
  EXPECT_FALSE(is_legal(s, Role::Scotland, {{"type", "undo"}}));
  EXPECT_TRUE(try_act(s, Role::Scotland, {{"type", "undo"}}));
}

TEST(Undo, IsNotOfferedToEitherSideAfterTheTurnPasses) {
  State s = start(
      board(kContractField, {{"p", "scotland", "pike", "0101"}, {"e", "england", "pike", "0703"}}));
  scots_turn(s, 3);
  act(s, Role::Scotland, {{"type", "move"}, {"unit", "p"}, {"path", {"0201"}}});
  english_turn(s, 3);
  EXPECT_FALSE(is_legal(s, Role::England, {{"type", "undo"}}));
  EXPECT_TRUE(s.undo.empty());
}

TEST(FreeformSetup, TheScotsSetUpNorthOfTheBlueRowThenTheEnglishSouthOfTheRedRow) {
  auto game = new_game({{"freeform_setup", true}});
  const auto d = variant_board();
  for (Role side : {Role::Scotland, Role::England}) {
    ASSERT_EQ(game->active_roles(), std::vector<Role>{side});
    for (int placed = 0;; ++placed) {
      const auto actions = game->legal_actions(side);
      ASSERT_FALSE(actions.empty());
      if (actions[0]["type"] != "place") break;
      for (const auto& a : actions) {
        if (a["type"] != "place") continue;
        const int row = *d->hex_index(a["hex"].get<std::string>()) / d->columns;
        if (side == Role::Scotland) {
          EXPECT_LE(row, d->blue_row);
        } else {
          EXPECT_GE(row, d->red_row);
        }
      }
      ASSERT_FALSE(game->apply(side, actions[placed % actions.size()]));
      if (placed == 0) {  // a placement may be taken back
        ASSERT_FALSE(game->apply(side, {{"type", "undo"}}));
        ASSERT_FALSE(game->apply(side, actions[0]));
      }
    }
    ASSERT_FALSE(game->apply(side, {{"type", "setup_done"}}));
  }
  EXPECT_TRUE(game->check_invariants().empty());
  EXPECT_EQ(game->to_json()["position"]["phase"], "scots_ap");
}

TEST(Restore, AStateComesBackExactlyFromItsJsonAndABrokenOneIsRefused) {
  auto game = new_game();
  game->apply(Role::Scotland, {{"type", "setup_done"}});
  game->apply(Role::Scotland, {{"type", "roll_ap"}});
  auto state = game->to_json();
  const auto restored = module().from_json(state);
  ASSERT_TRUE(restored.game) << restored.error;
  EXPECT_EQ(restored.game->state_hash(), game->state_hash());
  EXPECT_EQ(restored.game->legal_actions(Role::Scotland), game->legal_actions(Role::Scotland));
  state["position"]["units"][0]["hex"] = state["position"]["units"][1]["hex"];
  EXPECT_FALSE(module().from_json(state).game);
  state = game->to_json();
  state["position"]["vp"]["scotland"] = 99;
  EXPECT_FALSE(module().from_json(state).game);
  EXPECT_FALSE(module().from_json(json::object()).game);
}

TEST(Restore, TheStateHashDiffersWhenTheStateDoes) {
  auto a = new_game();
  auto b = a->clone();
  EXPECT_EQ(a->state_hash(), b->state_hash());
  EXPECT_EQ(a->state_hash().size(), 64u);
  b->apply(Role::Scotland, {{"type", "schiltron"}, {"unit", "sc_pike1"}});
  EXPECT_NE(a->state_hash(), b->state_hash());
  auto c = module().setup(core::sha256("another seed"), "bannockburn_variant", json::object());
  EXPECT_NE(a->state_hash(), c.game->state_hash());
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
