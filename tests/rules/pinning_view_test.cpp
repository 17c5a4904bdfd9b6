// Pinned blocks in the view (RULES 4.7, 13.3): in its own move phase, each of a side's blocks
// that pinning keeps where it is carries "pinned" with the reason, in that side's view only; the
// marks agree with the legal actions.

#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "rules/hots/engine.h"
#include "rules/hots/view.h"
#include "tests/rules/fixture.h"
#include "tests/rules/helpers.h"

namespace blockfog::hots::testing {
namespace {

using nlohmann::json;

// The side's own block entries of an area in a view ("blocks" of the side's object).
const json& own_blocks(const json& view, std::string_view area_id, std::string_view side) {
  for (const auto& a : view.at("areas")) {
    if (a.at("id") == area_id) return a.at(std::string(side)).at("blocks");
  }
  throw std::runtime_error("no area " + std::string(area_id));
}

// Block id -> its "pinned" reason, over every area of the view.
std::map<std::string, std::string> pinned_marks(const json& view) {
  std::map<std::string, std::string> out;
  for (const auto& a : view.at("areas")) {
    for (std::string side : {"scotland", "england"}) {
      if (!a.at(side).contains("blocks")) continue;
      for (const auto& b : a.at(side).at("blocks")) {
        if (b.contains("pinned")) out[b.at("block")] = b.at("pinned");
      }
    }
  }
  return out;
}

// Two Scottish blocks in Mar attacked by two English (P1) from Buchan; Scotland is to move.
Fixture pinned_in_mar() {
  Fixture f;
  f.clear({"mar", "buchan", "badenoch"})
      .place("sco_douglas", "mar")
      .place("sco_fraser", "mar")
      .place("sco_grant", "badenoch")
      .place("sco_barclay", "badenoch")
      .place("eng_york_infantry", "buchan")
      .place("eng_lancaster_infantry", "buchan");
  deal(f, "move2_2", "move2_1");  // tie: England is P1
  for (auto id : {"eng_york_infantry", "eng_lancaster_infantry"}) {
    f.act(kEngland, move_to(id, "mar"));
  }
  f.act(kEngland, end_phase());
  return f;
}

TEST(PinnedView, PinnedBlocksAreMarkedWithTheirReasonInTheOwnersViewOnly) {
  Fixture f = pinned_in_mar();
  ASSERT_TRUE(in_move_phase_of(f, kScotland));
  const json mine = f.view(kScotland);
  const auto marks = pinned_marks(mine);
  ASSERT_EQ(marks.size(), 2U);
  for (auto id : {"sco_douglas", "sco_fraser"}) {
    ASSERT_TRUE(marks.count(id)) << id;
    EXPECT_EQ(marks.at(id),
              "pinned: 2 enemy blocks in this area hold your 2; a block may leave only while "
              "yours outnumber them (RULES 4.7)");
    EXPECT_FALSE(block_offered(f, kScotland, id)) << id;
  }
  // Blocks elsewhere are free and unmarked.
  for (const auto& b : own_blocks(mine, "badenoch", "scotland")) EXPECT_FALSE(b.contains("pinned"));
  // England (not moving) and observers see no mark, neither on their own blocks nor anywhere.
  for (Role role : {kEngland, Role::Observer}) {
    EXPECT_TRUE(pinned_marks(f.view(role)).empty()) << name_of(role);
    std::string text;
    write_view(f.state(), role, 0, text);
    EXPECT_EQ(text.find("pinned"), std::string::npos) << name_of(role);
  }
}

TEST(PinnedView, ReservesAreNotMarkedAndDoNotUnpin) {
  Fixture f = pinned_in_mar();
  for (auto id : {"sco_grant", "sco_barclay"}) f.act(kScotland, move_to(id, "mar"));
  const auto marks = pinned_marks(f.view(kScotland));
  EXPECT_EQ(marks.size(), 2U);
  EXPECT_TRUE(marks.count("sco_douglas"));
  EXPECT_TRUE(marks.count("sco_fraser"));
  EXPECT_FALSE(marks.count("sco_grant")) << "a reserve has moved; it is not pinned";
}

TEST(PinnedView, OneEnemyBlockIsNamedInTheSingular) {
  Fixture f;
  f.clear({"mar", "buchan"}).place("sco_douglas", "mar").place("eng_york_infantry", "buchan");
  deal(f, "move2_2", "move2_1");
  f.act(kEngland, move_to("eng_york_infantry", "mar")).act(kEngland, end_phase());
  const auto marks = pinned_marks(f.view(kScotland));
  ASSERT_TRUE(marks.count("sco_douglas"));
  EXPECT_EQ(marks.at("sco_douglas").rfind("pinned: 1 enemy block in this area holds your 1;", 0),
            0U)
      << marks.at("sco_douglas");
}

// Random legal play: in the moving side's view, a block is marked exactly when it stands
// unmoved, not a reserve, in an area where the side's non-reserve blocks do not outnumber the
// enemy's (counted from the view alone), and a marked block has no legal action.
TEST(PinnedView, MarksAgreeWithTheLegalActionsInRandomPlay) {
  int marked = 0;
  int free_in_contested = 0;
  for (std::string_view scenario : {"braveheart", "the_bruce", "campaign"}) {
    for (std::uint32_t n = 1; n <= 12; ++n) {
      SCOPED_TRACE(std::string(scenario) + " game " + std::to_string(n));
      State s = setup(patterned_seed(n, 37, 11, 5), *scenario_index(scenario), Options{});
      std::mt19937 pick(n);
      for (int i = 0; i < 600; ++i) {
        if (s.phase != Phase::CardChoice && s.phase != Phase::Event && s.phase != Phase::Move) {
          break;  // battles and winter do not pin
        }
        for (Role role : {Role::Scotland, Role::England}) {
          const json v = view(s, role);
          const auto marks = pinned_marks(v);
          const bool moving = s.phase == Phase::Move && s.active == index_of(role);
          if (!moving) {
            EXPECT_TRUE(marks.empty()) << name_of(role) << " is not moving";
            continue;
          }
          std::set<std::string> acting;
          for (const auto& a : v.at("legal_actions")) {
            if (a.contains("block")) acting.insert(a.at("block"));
          }
          const std::string side = role == Role::Scotland ? "scotland" : "england";
          const std::string enemy = role == Role::Scotland ? "england" : "scotland";
          for (const auto& area : v.at("areas")) {
            const int e = area.at(enemy).at("count");
            int f = 0;
            for (const auto& b : area.at(side).at("blocks")) f += !b.at("reserve").get<bool>();
            for (const auto& b : area.at(side).at("blocks")) {
              const std::string id = b.at("block");
              const bool may_be_pinned = !b.at("moved").get<bool>() && !b.at("reserve").get<bool>();
              const bool pinned = e > 0 && f <= e && may_be_pinned;
              EXPECT_EQ(marks.count(id) == 1, pinned) << id << " E=" << e << " F=" << f;
              if (marks.count(id)) {
                EXPECT_FALSE(acting.count(id)) << id << " is marked pinned yet may act";
                ++marked;
              } else if (e > 0 && may_be_pinned) {
                ++free_in_contested;
              }
            }
          }
        }
        if (::testing::Test::HasFailure()) return;
        std::vector<std::pair<Role, Action>> choices;
        for (Role role : {Role::Scotland, Role::England}) {
          for (const auto& a : legal_actions(s, role)) choices.emplace_back(role, a);
        }
        if (choices.empty()) break;
        const auto [role, action] =
            choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(pick)];
        ASSERT_FALSE(apply(s, role, action).has_value());
      }
    }
  }
  // The games met both pinned blocks and contested areas a block may leave.
  EXPECT_GT(marked, 0);
  EXPECT_GT(free_in_contested, 0);
}

}  // namespace
}  // namespace blockfog::hots::testing
