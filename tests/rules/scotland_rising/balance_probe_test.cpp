// A balance probe of the variant board: both sides played by one crude greedy policy (attack
// where the expected VP are highest, the English march on the red arrow, the Scots close in).
// Not the computer opponent of the rulings' balance check, only a first reading; disabled by
// default: run with --gtest_also_run_disabled_tests --gtest_filter='*BalanceProbe*'.

#include <iostream>
#include <random>

#include <gtest/gtest.h>

#include "rules/core/sha256.h"
#include "rules/scotland_rising/board.h"
#include "rules/scotland_rising/combat.h"
#include "tests/rules/scotland_rising/sr_fixture.h"

namespace blockfog::scotland_rising::testing {
namespace {

int nearest_enemy(const State& s, int u, int from) {
  int best = 99;
  for (std::size_t v = 0; v < s.pos.units.size(); ++v) {
    if (s.pos.units[v].hex >= 0 && s.data->units[v].side != s.unit(u).side) {
      best = std::min(best, distance(*s.data, from, s.pos.units[v].hex));
    }
  }
  return best;
}

double attack_value(const State& s, const Action& a, AttackKind kind) {
  const int defender = defender_in(s, a.hex);
  const int dice = attack_dice(s, a.unit, a.hex, kind);
  const double p = (7.0 - hit_number(s, a.hex)) / 6.0;
  return dice * p * (1.0 + s.unit(defender).vp);
}

double score(const State& s, const Action& a) {
  const Data& d = *s.data;
  switch (a.type) {
    case ActionType::Attack:
      return attack_value(s, a, AttackKind::Plain);
    case ActionType::Charge:
    case ActionType::MoveAttack: {
      State moved = s;
      set_hex(moved, a.unit, a.path.back());
      return attack_value(
                 moved, a,
                 a.type == ActionType::Charge ? AttackKind::Charge : AttackKind::MoveAttack) -
             (a.type == ActionType::Charge ? 1.0 : 0.0);
    }
    case ActionType::Exit:
      return 20.0;
    case ActionType::Rally:
    case ActionType::EventRally:
      return 1.5;
    case ActionType::Move: {
      const int from = s.pos.units[a.unit].hex, to = a.path.back();
      if (s.unit(a.unit).side == Role::England) {
        return 0.6 * (distance(d, from, d.exit_hex) - distance(d, to, d.exit_hex));
      }
      // The Scots close in on the nearest enemy and stand between the English and the arrow.
      const int before = nearest_enemy(s, a.unit, from), after = nearest_enemy(s, a.unit, to);
      const bool guards = distance(d, to, d.exit_hex) < distance(d, from, d.exit_hex);
      return 0.3 * (before - after) + (guards && after > 3 ? 0.2 : 0.0);
    }
    case ActionType::ScotsCharge: {
      int close = 0;
      for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
        if (s.data->units[u].side == Role::Scotland && s.pos.units[u].hex >= 0 &&
            nearest_enemy(s, static_cast<int>(u), s.pos.units[u].hex) <= 2)
          ++close;
      }
      return close >= 4 ? 1.0 : -1.0;
    }
    case ActionType::Schiltron: {  // against charges when the enemy is near
      const int hex = s.pos.units[a.unit].hex;
      return s.pos.phase == Phase::Actions && nearest_enemy(s, a.unit, hex) <= 4 ? 0.4 : -1.0;
    }
    case ActionType::EndTurn:
    case ActionType::SetupDone:
    case ActionType::RollAp:
      return 0.05;
    default:
      return -1.0;
  }
}

TEST(BalanceProbe, DISABLED_GreedySelfPlayOfTheVariantBoard) {
  for (bool events : {false, true}) {
    int scots = 0, english = 0, draws = 0;
    long spread = 0, exits = 0, english_vp = 0;
    const int games = 200;
    for (int g = 0; g < games; ++g) {
      Options options;
      options.battle_events = events;
      State s = setup(core::sha256("balance " + std::to_string(g)), variant_board(), options);
      std::mt19937 gen(static_cast<unsigned>(g));
      while (s.pos.phase != Phase::GameOver) {
        const auto actions = legal_actions(s, s.pos.side);
        double best = -1e9;
        std::vector<const Action*> top;
        for (const auto& a : actions) {
          const double v = score(s, a) + (gen() % 1000) * 1e-6;
          if (v > best) {
            best = v;
            top.assign(1, &a);
          }
        }
        apply_legal(s, s.pos.side, *top.front());
      }
      const int diff = s.pos.vp[0] - s.pos.vp[1];
      for (const auto& unit : s.pos.units) exits += unit.exited;
      english_vp += s.pos.vp[1];
      spread += diff;
      (diff > 0 ? scots : diff < 0 ? english : draws)++;
    }
    std::cout << "balance probe" << (events ? " (battle events)" : "") << ": " << games
              << " games, Scotland " << scots << ", England " << english << ", drawn " << draws
              << ", mean VP lead of Scotland " << static_cast<double>(spread) / games
              << ", English VP " << static_cast<double>(english_vp) / games << " of which exits "
              << static_cast<double>(exits) / games << "\n";
  }
}

}  // namespace
}  // namespace blockfog::scotland_rising::testing
