#include "tests/rules/fixture.h"

#include <algorithm>

namespace blockfog::hots::testing {

AreaId area(std::string_view id) {
  const auto a = game_data().area_by_id(id);
  if (!a) throw std::invalid_argument("no area " + std::string(id));
  return *a;
}

BlockId block(std::string_view id) {
  const auto b = game_data().block_by_id(id);
  if (!b) throw std::invalid_argument("no block " + std::string(id));
  return *b;
}

CardId card(std::string_view id) {
  const auto c = game_data().card_by_id(id);
  if (!c) throw std::invalid_argument("no card " + std::string(id));
  return *c;
}

Fixture::Fixture(std::string_view scenario, std::uint8_t seed_byte) {
  core::Seed seed{};
  seed.fill(seed_byte);
  state_ = setup(seed, *scenario_index(scenario), Options{});
}

Fixture& Fixture::clear(std::string_view area_id) {
  const AreaId a = area(area_id);
  // Parked nobles go where rule cases of groups A-C never look: English ones to Garmoran,
  // Scottish ones to Galloway.
  const AreaId park[2] = {area("galloway"), area("garmoran")};
  for (BlockId b = 0; b < kBlockCount; ++b) {
    if (state_.blocks.loc[b] != a) continue;
    const auto& info = game_data().blocks[b];
    if (info.noble >= 0 && park[index_of(info.owner)] != a) {
      state_.blocks.loc[b] = park[index_of(info.owner)];
    } else {
      state_.blocks.set(b, BlockState{kPool, 0});
    }
  }
  return *this;
}

Fixture& Fixture::clear(std::initializer_list<std::string_view> areas) {
  for (auto a : areas) clear(a);
  return *this;
}

Fixture& Fixture::clear_non_nobles() {
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const auto& info = game_data().blocks[b];
    if (info.type != BlockType::Noble && on_map(state_, b))
      state_.blocks.set(b, BlockState{kPool, 0});
  }
  return *this;
}

Fixture& Fixture::place(std::string_view block_id, std::string_view area_id, int strength) {
  const BlockId b = block(block_id);
  const auto& info = game_data().blocks[b];
  if (info.twin != kNone) state_.blocks.set(info.twin, BlockState{kNotInPlay, 0});
  state_.blocks.set(b, BlockState{area(area_id), static_cast<std::uint8_t>(
                                                     strength ? strength : info.max_strength)});
  return *this;
}

Fixture& Fixture::to_pool(std::string_view block_id) {
  state_.blocks.set(block(block_id), BlockState{kPool, 0});
  return *this;
}

Fixture& Fixture::kill(std::string_view block_id) {
  state_.blocks.set(block(block_id), BlockState{kDead, 0});
  return *this;
}

Fixture& Fixture::hands(std::vector<std::string_view> scotland,
                        std::vector<std::string_view> england) {
  state_.cards = CardTable{};
  for (auto id : scotland) state_.cards.set(card(id), CardState{CardPlace::Hand, 0, 0});
  for (auto id : england) state_.cards.set(card(id), CardState{CardPlace::Hand, 1, 0});
  return *this;
}

Fixture& Fixture::play_cards(std::string_view scotland_card, std::string_view england_card) {
  act(Role::Scotland, play_card(card(scotland_card)));
  act(Role::England, play_card(card(england_card)));
  return *this;
}

Fixture& Fixture::dice(std::initializer_list<int> faces) {
  std::vector<core::ScriptedOutcome> script;
  for (int f : faces) script.push_back({core::ScriptedOutcome::Kind::Die, f});
  state_.rng.script(std::move(script));
  return *this;
}

Fixture& Fixture::draws(std::initializer_list<std::string_view> block_ids) {
  std::vector<core::ScriptedOutcome> script;
  for (auto id : block_ids) script.push_back({core::ScriptedOutcome::Kind::Pick, block(id)});
  state_.rng.script(std::move(script));
  return *this;
}

Fixture& Fixture::act(Role role, const Action& action) {
  const auto error = apply(state_, role, action);
  EXPECT_FALSE(error.has_value()) << "refused " << action_to_json(action).dump() << ": "
                                  << (error ? error->message : "");
  return *this;
}

core::RuleErrorCode Fixture::refuse(Role role, const Action& action) {
  const State before = state_;
  const auto error = apply(state_, role, action);
  EXPECT_TRUE(error.has_value()) << "accepted " << action_to_json(action).dump();
  EXPECT_TRUE(state_ == before) << "a refused action changed the state";
  return error ? error->code : core::RuleErrorCode::IllegalAction;
}

bool Fixture::offered(Role role, const Action& action) const {
  const auto actions = legal_actions(state_, role);
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

Fixture blank_map() {
  Fixture f;
  for (const auto& a : game_data().areas) {
    if (a.id != "garmoran" && a.id != "galloway") f.clear(a.id);
  }
  return f;
}

}  // namespace blockfog::hots::testing
