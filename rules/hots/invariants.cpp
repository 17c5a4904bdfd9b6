#include "rules/hots/invariants.h"

#include <array>

namespace blockfog::hots {
namespace {

void check_blocks(const State& s, std::vector<std::string>& errors) {
  const auto& data = game_data();
  for (BlockId b = 0; b < kBlockCount; ++b) {
    const BlockState block = s.blocks.get(b);
    const auto& info = data.blocks[b];
    if (block.loc > kDead) errors.push_back(info.id + " is nowhere (RULES 1.5)");
    if (block.loc < kAreaCount && (block.strength < 1 || block.strength > info.max_strength)) {
      errors.push_back(info.id + " has strength " + std::to_string(block.strength) +
                       " outside 1.." + std::to_string(info.max_strength) + " (RULES 1.3.2)");
    }
    if (block.reserve && block.loc >= kAreaCount) errors.push_back(info.id + ": off-map reserve");
    if (block.reserve && block.loc < kAreaCount && s.battles[block.loc].attacker == kNone &&
        s.phase == Phase::Move) {
      errors.push_back(info.id + ": reserve in an area without a battle marker");
    }
  }
  // RULES 1.4.1: exactly one twin of each two-block noble is in play, always on the map.
  for (const auto& noble : data.nobles) {
    const int in_play = on_map(s, noble.blocks[0]) + on_map(s, noble.blocks[1]);
    if (in_play != 1)
      errors.push_back("noble " + noble.key + " has " + std::to_string(in_play) +
                       " blocks on the map");
  }
}

void check_cards(const State& s, std::vector<std::string>& errors) {
  std::array<int, 2> in_hand{};
  std::array<int, 2> chosen{};
  std::array<int, 2> played_now{};
  for (const auto& card : s.cards.all()) {
    if (card.place == CardPlace::Deck) {
      if (card.holder != kNone) errors.push_back("a card in the deck has a holder");
      continue;
    }
    if (card.holder > 1) {
      errors.push_back("a dealt card has no holder");
      continue;
    }
    in_hand[card.holder] += card.place == CardPlace::Hand || card.place == CardPlace::Chosen;
    chosen[card.holder] += card.place == CardPlace::Chosen;
    played_now[card.holder] += card.place == CardPlace::Played && card.turn == s.turn;
  }
  for (int side = 0; side < 2; ++side) {
    if (chosen[side] > 1) errors.push_back("more than one chosen card for a side");
    if (played_now[side] > 1) errors.push_back("more than one card played this turn by a side");
    if (in_hand[side] > 5) errors.push_back("a hand holds more than 5 cards");
  }
  // Hands shrink together: both sides play one card per game turn (RULES 2.3).
  if (s.phase != Phase::CardChoice && s.phase != Phase::Winter && s.phase != Phase::GameOver &&
      in_hand[0] != in_hand[1]) {
    errors.push_back("hands differ in size outside the card phase");
  }
}

void check_phase(const State& s, std::vector<std::string>& errors) {
  if (s.turn < 1 || s.turn > 5) errors.push_back("game turn outside 1..5");
  if (s.phase == Phase::Move || s.phase == Phase::Event) {
    if (s.active > 1) errors.push_back("no active side in a player turn");
    if (s.p1 > 1) errors.push_back("no Player 1 after the card phase");
  }
  if (s.phase == Phase::Move && s.moving.block != kNone) {
    if (owner_of(s.moving.block) != side_of(s.active)) errors.push_back("moving an enemy block");
    if (!on_map(s, s.moving.block)) errors.push_back("moving block is off the map");
  }
  if (s.phase != Phase::Move && s.moving.block != kNone) errors.push_back("stale moving block");
  for (const auto& point : s.undo) {
    if (point.log_size > s.log.size()) errors.push_back("undo point beyond the log");
  }
}

}  // namespace

std::vector<std::string> check_invariants(const State& s) {
  std::vector<std::string> errors;
  check_blocks(s, errors);
  check_cards(s, errors);
  check_phase(s, errors);
  return errors;
}

}  // namespace blockfog::hots
