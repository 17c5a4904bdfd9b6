// ACCEPTANCE group B, cases B-01 to B-08: the card phase (RULES 3, 2.2, 13.3), as each role's
// view and legal actions show it.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// True when the view mentions the card id anywhere (as a whole JSON string).
bool mentions(const json& view, std::string_view card_id) {
  return view.dump().find('"' + std::string(card_id) + '"') != std::string::npos;
}

std::vector<std::string> awaiting(const Fixture& f) {
  return f.view(Role::Observer).at("awaiting").get<std::vector<std::string>>();
}

std::set<std::string> hand_in_view(const json& view) {
  return view.at("cards").at("hand").get<std::set<std::string>>();
}

std::set<std::string> hand_in_state(const State& s, Side side) {
  std::set<std::string> ids;
  for (CardId c = 0; c < kCardCount; ++c) {
    const CardState card = s.cards.get(c);
    if ((card.place == CardPlace::Hand || card.place == CardPlace::Chosen) &&
        card.holder == index_of(side)) {
      ids.insert(game_data().cards[c].id);
    }
  }
  return ids;
}

// The played cards of this year as (side, card, turn) rows, in a comparable form.
std::set<std::tuple<std::string, std::string, int>> played_cards(const json& view) {
  std::set<std::tuple<std::string, std::string, int>> rows;
  for (const auto& row : view.at("cards").at("played_this_year")) {
    rows.emplace(row.at("side").get<std::string>(), row.at("card").get<std::string>(),
                 row.at("turn").get<int>());
  }
  return rows;
}

bool has_take_back(const Fixture& f, Role role) {
  return f.offered(role, simple(ActionKind::TakeBack));
}

std::string player1(const Fixture& f) {
  const auto p1 = f.view(Role::Observer).at("player1");
  return p1.is_null() ? "" : p1.get<std::string>();
}

const std::vector<std::string_view> kScotlandHand = {"move3_2", "move2_2", "move2_3", "move1_3",
                                                     "herald"};
const std::vector<std::string_view> kEnglandHand = {"move3_1", "move2_1", "move1_1", "move1_2",
                                                    "truce"};

// B-01 (RULES 3.1.1, 3.1.3): both choose at once; the first choice is seen as made, not which.
TEST(CardPhase, OpponentSeesThatEnglandChoseButNotWhichCard) {
  Fixture f;
  f.hands(kScotlandHand, kEnglandHand);
  EXPECT_EQ(awaiting(f), (std::vector<std::string>{"scotland", "england"}));
  EXPECT_TRUE(f.offered(Role::Scotland, play_card(card("move3_2"))));
  EXPECT_TRUE(f.offered(Role::England, play_card(card("move3_1"))));

  f.act(Role::England, play_card(card("move3_1")));

  const auto scotland = f.view(Role::Scotland);
  EXPECT_EQ(scotland["cards"]["chosen"], (json{{"scotland", false}, {"england", true}}));
  EXPECT_FALSE(mentions(scotland, "move3_1"));
  EXPECT_TRUE(scotland["cards"]["my_choice"].is_null());
  const auto observer = f.view(Role::Observer);
  EXPECT_EQ(observer["cards"]["chosen"]["england"], true);
  EXPECT_FALSE(mentions(observer, "move3_1"));

  const auto england = f.view(Role::England);
  EXPECT_EQ(england["cards"]["my_choice"], "move3_1");
  EXPECT_EQ(england["cards"]["chosen"]["england"], true);

  // Only Scotland is awaited for a card; England may only take back.
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"scotland"});
  EXPECT_EQ(england["legal_actions"], json::array({json{{"kind", "take_back"}}}));
  EXPECT_EQ(scotland["legal_actions"].size(), kScotlandHand.size());
}

// B-02 (RULES 3.1.2): take-back until the other chooses; nothing can be taken back after.
TEST(CardPhase, EnglandMayTakeBackItsCardUntilScotlandChooses) {
  Fixture f;
  f.hands(kScotlandHand, kEnglandHand);
  std::vector<json> scotland_views;
  f.act(Role::England, play_card(card("move3_1")));
  scotland_views.push_back(f.view(Role::Scotland));

  // A second choice is rejected; the take-back is offered.
  EXPECT_EQ(f.refuse(Role::England, play_card(card("move2_1"))),
            core::RuleErrorCode::IllegalAction);
  EXPECT_TRUE(has_take_back(f, Role::England));
  EXPECT_FALSE(has_take_back(f, Role::Scotland));

  f.act(Role::England, simple(ActionKind::TakeBack));
  scotland_views.push_back(f.view(Role::Scotland));
  const auto england = f.view(Role::England);
  EXPECT_EQ(hand_in_view(england),
            (std::set<std::string>{"move3_1", "move2_1", "move1_1", "move1_2", "truce"}));
  EXPECT_TRUE(england["cards"]["my_choice"].is_null());
  EXPECT_EQ(england["cards"]["chosen"]["england"], false);
  EXPECT_EQ(awaiting(f), (std::vector<std::string>{"scotland", "england"}));
  EXPECT_TRUE(f.offered(Role::England, play_card(card("move3_1"))));
  EXPECT_FALSE(has_take_back(f, Role::England));

  // England chooses again, then Scotland: both cards are revealed at once.
  f.act(Role::England, play_card(card("move2_1")));
  scotland_views.push_back(f.view(Role::Scotland));
  f.act(Role::Scotland, play_card(card("move2_2")));
  const auto revealed = std::set<std::tuple<std::string, std::string, int>>{
      {"england", "move2_1", 1}, {"scotland", "move2_2", 1}};
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    EXPECT_EQ(played_cards(f.view(role)), revealed) << core::role_name(role);
  }
  EXPECT_FALSE(has_take_back(f, Role::England));
  EXPECT_FALSE(has_take_back(f, Role::Scotland));
  f.refuse(Role::England, simple(ActionKind::TakeBack));
  f.refuse(Role::Scotland, simple(ActionKind::TakeBack));

  // Scotland never saw which card England had chosen or taken back.
  for (const auto& v : scotland_views) {
    EXPECT_FALSE(mentions(v, "move3_1"));
    EXPECT_FALSE(mentions(v, "move2_1"));
  }
  EXPECT_FALSE(mentions(f.view(Role::Scotland), "move3_1"));
}

// B-03 (RULES 3.2.2.3): the higher move card is Player 1; a tie goes to England.
TEST(CardPhase, HigherMoveCardIsPlayerOneAndTiesGoToEngland) {
  struct Case {
    std::string_view scotland;
    std::string_view england;
    std::string p1;
  };
  for (const auto& c :
       {Case{"move3_2", "move2_1", "scotland"}, Case{"move2_2", "move2_1", "england"},
        Case{"move1_3", "move3_1", "england"}}) {
    SCOPED_TRACE(std::string(c.scotland) + " vs " + std::string(c.england));
    Fixture f;
    f.hands(kScotlandHand, kEnglandHand);
    f.play_cards(c.scotland, c.england);
    EXPECT_EQ(player1(f), c.p1);
    // Player 1 moves first.
    EXPECT_EQ(f.view(Role::Observer)["phase"], "move");
    EXPECT_EQ(awaiting(f), std::vector<std::string>{c.p1});
  }
}

// B-04 (RULES 3.2.2.2, 3.4): an event makes its player P1; he resolves it instead of moving.
TEST(CardPhase, ScotlandPlayingVictualsAgainstAOneIsPlayerOneWithoutAMovePhase) {
  Fixture f;
  f.hands({"victuals", "move2_2", "move2_3", "move1_3", "herald"}, kEnglandHand);
  f.play_cards("victuals", "move1_1");
  EXPECT_EQ(player1(f), "scotland");
  EXPECT_EQ(f.view(Role::Observer)["phase"], "event");
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"scotland"});
  EXPECT_FALSE(f.offered(Role::Scotland, simple(ActionKind::EndMovePhase)));

  f.act(Role::Scotland, simple(ActionKind::Decline));
  // England (P2) moves with its 1-card; Scotland gets no move phase this turn.
  EXPECT_EQ(f.view(Role::Observer)["phase"], "move");
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"england"});
  f.act(Role::England, simple(ActionKind::EndMovePhase));
  EXPECT_EQ(f.state().turn, 2);
  EXPECT_EQ(f.view(Role::Observer)["phase"], "card_choice");
}

// B-04 (RULES 3.2.2.1): England's event beats any move card.
TEST(CardPhase, EnglandPlayingTruceAgainstAThreeIsPlayerOne) {
  Fixture f;
  f.hands(kScotlandHand, kEnglandHand);
  f.play_cards("move3_2", "truce");
  EXPECT_EQ(player1(f), "england");
  EXPECT_EQ(f.view(Role::Observer)["phase"], "event");
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"england"});
}

// B-05 (RULES 3.3): both play events in turn 2: England resolves first, then Scotland; no move
// phases; the year ends and the 3 cards left in each hand are discarded.
TEST(CardPhase, DoubleEventInTurnTwoEndsTheYearAndEmptiesBothHands) {
  Fixture f;
  f.hands({"move2_2", "sea_move", "move1_3", "move1_4", "move1_5"},
          {"move2_1", "pillage", "move1_1", "move1_2", "move1_6"});
  f.play_cards("move2_2", "move2_1");
  end_move_phases(f);
  ASSERT_EQ(f.state().turn, 2);
  ASSERT_EQ(f.view(Role::Observer)["phase"], "card_choice");

  f.play_cards("sea_move", "pillage");
  auto observer = f.view(Role::Observer);
  EXPECT_EQ(observer["player1"], "england");
  EXPECT_EQ(observer["cards"]["hand_sizes"], (json{{"scotland", 3}, {"england", 3}}));
  EXPECT_EQ(observer["phase"], "event");
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"england"});
  EXPECT_FALSE(f.offered(Role::Scotland, simple(ActionKind::Decline)));

  f.act(Role::England, simple(ActionKind::Decline));  // England resolves Pillage first
  EXPECT_EQ(f.view(Role::Observer)["phase"], "event");
  EXPECT_EQ(awaiting(f), std::vector<std::string>{"scotland"});

  f.act(Role::Scotland, simple(ActionKind::Decline));  // then Scotland its Sea Move
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    SCOPED_TRACE(core::role_name(role));
    auto v = f.view(role);
    EXPECT_EQ(v["phase"], "winter");
    EXPECT_EQ(v["turn"], 2);
    EXPECT_EQ(v["cards"]["hand_sizes"], (json{{"scotland", 0}, {"england", 0}}));
    if (role != Role::Observer) {
      EXPECT_TRUE(v["cards"]["hand"].empty());
    }
  }
  EXPECT_TRUE(hand_in_state(f.state(), Side::Scotland).empty());
  EXPECT_TRUE(hand_in_state(f.state(), Side::England).empty());
  EXPECT_EQ(f.state().year, 1297);
}

// B-06 (RULES 2.2.2): without double events the winter follows the 5th game turn, after each
// player played exactly 5 cards.
TEST(CardPhase, WinterStartsAfterTheFifthGameTurn) {
  const std::vector<std::string_view> scotland = {"move3_2", "move2_2", "move2_3", "move1_3",
                                                  "move1_4"};
  const std::vector<std::string_view> england = {"move3_1", "move2_1", "move2_4", "move1_1",
                                                 "move1_2"};
  Fixture f;
  f.hands(scotland, england);
  for (int turn = 1; turn <= 5; ++turn) {
    SCOPED_TRACE(turn);
    ASSERT_EQ(f.view(Role::Observer)["phase"], "card_choice");
    ASSERT_EQ(f.state().turn, turn);
    f.play_cards(scotland[static_cast<std::size_t>(turn - 1)],
                 england[static_cast<std::size_t>(turn - 1)]);
    end_move_phases(f);
  }
  auto v = f.view(Role::Observer);
  EXPECT_EQ(v["phase"], "winter");
  EXPECT_EQ(v["year"], 1297);
  EXPECT_EQ(v["cards"]["hand_sizes"], (json{{"scotland", 0}, {"england", 0}}));
  int by_scotland = 0;
  int by_england = 0;
  for (const auto& [side, id, turn] : played_cards(v)) {
    (side == "scotland" ? by_scotland : by_england) += 1;
  }
  EXPECT_EQ(by_scotland, 5);
  EXPECT_EQ(by_england, 5);
}

// B-07 (RULES 3.2.1): cards played this year stay public for everybody.
TEST(CardPhase, EveryRoleSeesTheFourCardsPlayedAfterTurnTwo) {
  Fixture f;
  f.hands(kScotlandHand, kEnglandHand);
  f.play_cards("move3_2", "move1_1");
  end_move_phases(f);
  f.play_cards("move1_3", "move2_1");
  end_move_phases(f);
  ASSERT_EQ(f.state().turn, 3);
  f.act(Role::England, play_card(card("move3_1")));  // chosen, not yet revealed
  const std::set<std::tuple<std::string, std::string, int>> expected = {{"scotland", "move3_2", 1},
                                                                        {"england", "move1_1", 1},
                                                                        {"scotland", "move1_3", 2},
                                                                        {"england", "move2_1", 2}};
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    EXPECT_EQ(played_cards(f.view(role)), expected) << core::role_name(role);
  }
}

// B-08 (RULES 13.3): each player sees only his own hand; observers see neither.
TEST(CardPhase, HandsArePrivateToTheirOwners) {
  for (std::uint8_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    Fixture f("braveheart", seed);
    const auto scotland_hand = hand_in_state(f.state(), Side::Scotland);
    const auto england_hand = hand_in_state(f.state(), Side::England);
    ASSERT_EQ(scotland_hand.size(), 5u);
    ASSERT_EQ(england_hand.size(), 5u);

    const auto scotland = f.view(Role::Scotland);
    const auto england = f.view(Role::England);
    const auto observer = f.view(Role::Observer);
    EXPECT_EQ(hand_in_view(scotland), scotland_hand);
    EXPECT_EQ(hand_in_view(england), england_hand);
    for (const auto& v : {scotland, england, observer}) {
      EXPECT_EQ(v.at("cards").at("hand_sizes"), (json{{"scotland", 5}, {"england", 5}}));
    }
    for (const auto& id : scotland_hand) {
      EXPECT_FALSE(mentions(england, id)) << id;
      EXPECT_FALSE(mentions(observer, id)) << id;
    }
    for (const auto& id : england_hand) {
      EXPECT_FALSE(mentions(scotland, id)) << id;
      EXPECT_FALSE(mentions(observer, id)) << id;
    }
    EXPECT_FALSE(observer.at("cards").contains("hand"));
    EXPECT_TRUE(observer.at("legal_actions").empty());
  }
}

}  // namespace
}  // namespace blockfog::hots::testing
