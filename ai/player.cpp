#include "ai/player.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <string_view>

#include "ai/determinize.h"
#include "rules/hots/engine.h"

namespace blockfog::ai {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kPlayoutDepth = 30;  // actions of a playout before it is scored
// The strength assumed for an enemy block standing face down in a battle (the blocks' maximum
// strengths average 3.3, game-data.json).
constexpr int kHiddenStrength = 3;

struct Budget {
  int determinizations;
  int playouts;  // per action and determinization
  double seconds;
  int guided_in_4;  // playout actions in 4 drawn from the preferred kind, the rest uniform
  // Every decision the sampler rebuilds is searched (combat turns, hit allocation, retreats,
  // regroups, border raids, winter, events), not only the card choice and the move phase.
  bool search_all;
};

Budget budget_of(Level level) {
  switch (level) {
    case Level::Easy:
      return {1, 0, 0.05, 0, false};
    case Level::Normal:
      return {4, 8, 0.3, 0, false};
    case Level::Hard:
      return {8, 16, 2.0, 3, true};
  }
  return {1, 0, 0.05, 0, false};
}

// How well `me` stands in `s`, 0 (lost) to 1 (won): the outcome when the game is over, else
// the on-map strength and the nobles held (RULES 1.4.4) of each side.
double evaluate(const hots::State& s, int me) {
  const auto result = hots::outcome(s);
  if (result.finished) {
    if (!result.winner) return 0.5;
    return core::side_index(*result.winner) == me ? 1.0 : 0.0;
  }
  double score[2] = {0, 0};
  for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) {
    if (hots::on_map(s, b)) score[static_cast<int>(hots::owner_of(b))] += s.blocks.strength[b];
  }
  for (int side = 0; side < 2; ++side) {
    score[side] += 3.0 * hots::nobles_controlled(s, static_cast<hots::Side>(side));
  }
  return 0.5 + 0.5 * std::tanh((score[me] - score[1 - me]) / 20.0);
}

// The view-only rule for phases the sampler does not rebuild: the kinds of action that add
// strength or deal hits first (RULES 5.6, 10.11), fighting before passing or retreating,
// ending a phase last; a seeded pick among the best kind.
int preference(std::string_view kind) {
  if (kind == "fire") return 9;
  if (kind == "add_step" || kind == "draw" || kind == "victual" || kind == "gain") return 8;
  if (kind.rfind("crown_", 0) == 0 || kind == "return_of_the_king") return 7;
  if (kind == "pillage" || kind == "herald" || kind == "roll" || kind == "play_card") return 6;
  if (kind == "take_hit" || kind == "regroup" || kind == "choose_battle") return 5;
  if (kind == "pass") return 2;
  if (kind == "retreat" || kind == "disband") return 1;
  if (kind.rfind("end_", 0) == 0 || kind == "done" || kind == "finish_retreat") return 0;
  return 3;
}

// preference() of each typed action kind, for the guided playouts.
const std::array<int, 64>& kind_preferences() {
  static const auto table = [] {
    std::array<int, 64> t{};
    for (int k = 0; k <= static_cast<int>(hots::ActionKind::Stay); ++k) {
      t[k] = preference(hots::action_kind_name(static_cast<hots::ActionKind>(k)));
    }
    return t;
  }();
  return table;
}

// A game played on from `s` for kPlayoutDepth actions: each action uniform among the forward
// legal ones, except that `guided_in_4` actions in 4 are drawn among those of the kind
// preference() ranks first (fire before passing or retreating, adding steps, ...).
void playout(hots::State& s, Random& random, int guided_in_4) {
  const auto& prefs = kind_preferences();
  hots::ActionList list;
  std::vector<int> top;
  for (int i = 0; i < kPlayoutDepth && !hots::outcome(s).finished; ++i) {
    const auto roles = hots::active_roles(s);
    if (roles.empty()) return;
    const auto role = roles[random() % roles.size()];
    hots::legal_actions(s, role, list);
    // A playout only goes forward: undo, which the engine offers last when at all, is not drawn.
    std::size_t forward = list.size();
    if (forward > 0 && list[forward - 1].kind == hots::ActionKind::Undo) --forward;
    if (forward == 0) return;
    if (guided_in_4 > 0 && static_cast<int>(random() % 4) < guided_in_4) {
      int best = -1;
      top.clear();
      for (std::size_t j = 0; j < forward; ++j) {
        const int p = prefs[static_cast<int>(list[j].kind)];
        if (p > best) {
          best = p;
          top.clear();
        }
        if (p == best) top.push_back(static_cast<int>(j));
      }
      hots::apply_legal(s, role, list[top[random() % top.size()]]);
      continue;
    }
    hots::apply_legal(s, role, list[random() % forward]);
  }
}

std::vector<json> candidates_of(const json& view) {
  std::vector<json> out;
  for (const auto& a : view.at("legal_actions")) {
    if (a.value("kind", "") != "undo") out.push_back(a);
  }
  return out;
}

// Own strength and enemy block count per area id, as the seat's view shows them.
struct AreaForces {
  int own = 0;
  int enemy = 0;
};

std::map<std::string, AreaForces> forces_of(const json& view) {
  const std::string me = view.at("role");
  const std::string enemy = me == "scotland" ? "england" : "scotland";
  std::map<std::string, AreaForces> out;
  for (const auto& area : view.at("areas")) {
    auto& f = out[area.at("id").get<std::string>()];
    for (const auto& b : area.at(me).at("blocks")) f.own += b.at("strength").get<int>();
    f.enemy = area.at(enemy).at("count").get<int>();
  }
  return out;
}

// How much a destination is worth to a block retreating or regrouping there (RULES 5.10-5.12):
// an area without enemy blocks first, then the one with most own strength (the block joins
// friends rather than standing alone where the enemy may pick it off).
int destination_score(const json& action, const std::map<std::string, AreaForces>& forces) {
  const auto to = action.find("to");
  if (to == action.end() || !to->is_string()) return 0;
  const auto f = forces.find(to->get<std::string>());
  if (f == forces.end()) return 0;
  return (f->second.enemy == 0 ? 1000 : 0) + f->second.own;
}

// Whether the seat's blocks in the current battle are outmatched (RULES 5): their strength
// (what the view shows of the seat's own blocks in the battle area) below the enemy's revealed
// strength plus kHiddenStrength for each enemy block still face down (RULES 13.3).
bool outmatched(const json& view) {
  const auto battle = view.find("battle");
  if (view.value("phase", "") != "combat" || battle == view.end() || !battle->is_object())
    return false;
  const std::string me = view.at("role");
  const std::string enemy = me == "scotland" ? "england" : "scotland";
  const std::string area_id = battle->at("area");
  int own = 0;
  int enemy_count = 0;
  for (const auto& area : view.at("areas")) {
    if (area.at("id") != area_id) continue;
    for (const auto& b : area.at(me).at("blocks")) own += b.at("strength").get<int>();
    enemy_count = area.at(enemy).at("count");
  }
  int theirs = 0;
  int shown = 0;
  for (const auto& b : battle->at("revealed").at(enemy)) {
    theirs += b.at("strength").get<int>();
    ++shown;
  }
  theirs += kHiddenStrength * std::max(0, enemy_count - shown);
  return own < theirs;
}

// The view-only choice. Every level ranks the kinds by preference(); with `reasoned` (normal,
// and hard where it does not search) a block whose side is outmatched in its battle retreats rather
// than fires (a noble eliminated goes over to the enemy, the King's or Edward II's death ends the
// game: RULES 5.8, 12.2), and a retreat or regroup goes where destination_score() says. A seeded
// pick among the best.
json view_choice(const std::vector<json>& candidates, const json& view, bool reasoned,
                 Random& random) {
  std::map<std::string, AreaForces> forces;
  bool flee = false;
  if (reasoned) {
    forces = forces_of(view);
    flee = outmatched(view);
  }
  const auto score = [&](const json& c) {
    const std::string kind = c.value("kind", "");
    int p = preference(kind) * 10000;
    if (!reasoned) return p;
    if (kind == "retreat" || kind == "regroup") p += destination_score(c, forces);
    if (kind == "retreat" && flee) p += 10 * 10000;  // above firing
    return p;
  };
  int best = -1;
  std::vector<const json*> top;
  for (const auto& c : candidates) {
    const int p = score(c);
    if (p > best) {
      best = p;
      top.clear();
    }
    if (p == best) top.push_back(&c);
  }
  return *top[random() % top.size()];
}

}  // namespace

std::optional<Level> level_from_name(std::string_view name) {
  if (name == "easy") return Level::Easy;
  if (name == "normal") return Level::Normal;
  if (name == "hard") return Level::Hard;
  return std::nullopt;
}

// choose_action once the view's shape was checked.
json choose_checked(const json& view, const std::vector<json>& history, Level level,
                    std::uint64_t seed, Thinking* thinking, bool time_cap);

namespace {

// The shape choose_action relies on before it reads anything else.
void check_view(const json& view) {
  const auto bad = [](const std::string& why) { throw MalformedView("malformed view: " + why); };
  if (!view.is_object()) bad("not a JSON object");
  const auto role = view.find("role");
  if (role == view.end() || !role->is_string() || (*role != "scotland" && *role != "england")) {
    bad("'role' is not scotland or england");
  }
  const auto legal = view.find("legal_actions");
  if (legal == view.end() || !legal->is_array() || legal->empty()) bad("no 'legal_actions'");
  const auto awaiting = view.find("awaiting");
  if (awaiting == view.end() || !awaiting->is_array() ||
      std::find(awaiting->begin(), awaiting->end(), *role) == awaiting->end()) {
    bad("the view does not await its seat");
  }
}

}  // namespace

json choose_action(const json& view, const std::vector<json>& history, Level level,
                   std::uint64_t seed, Thinking* thinking, bool time_cap) {
  check_view(view);
  for (const auto& earlier : history) {
    if (!earlier.is_object())
      throw MalformedView("malformed view: a history entry is not an object");
  }
  try {
    return choose_checked(view, history, level, seed, thinking, time_cap);
  } catch (const json::exception& e) {
    throw MalformedView(std::string("malformed view: ") + e.what());
  } catch (const MalformedView&) {
    throw;
  } catch (const std::logic_error& e) {
    throw MalformedView(std::string("malformed view: ") + e.what());
  }
}

json choose_checked(const json& view, const std::vector<json>& history, Level level,
                    std::uint64_t seed, Thinking* thinking, bool time_cap) {
  Random random(seed);
  const auto candidates = candidates_of(view);
  if (candidates.empty()) return view.at("legal_actions").at(0);
  if (candidates.size() == 1) return candidates[0];
  // The view-only choice, where no determinization is built or the level does not search.
  const json fallback = view_choice(candidates, view, level != Level::Easy, random);
  const auto budget = budget_of(level);
  const auto phase = view.value("phase", "");
  if (!budget.search_all && phase != "card_choice" && phase != "move") return fallback;
  const auto role = *core::role_from_name(view.at("role").get<std::string>());
  const int me = core::side_index(role);
  std::vector<hots::Action> actions;
  for (const auto& c : candidates) {
    std::string error;
    const auto a = hots::action_from_json(c, error);
    if (!a) return fallback;
    actions.push_back(*a);
  }
  const auto deadline = time_cap ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                      std::chrono::duration<double>(budget.seconds))
                                 : Clock::time_point::max();
  std::vector<double> total(actions.size(), 0.0);
  std::vector<int> visits(actions.size(), 0);
  int samples = 0;
  int playouts = 0;
  for (int d = 0; d < budget.determinizations && Clock::now() < deadline; ++d) {
    const auto state = determinize(view, history, random);
    if (!state) break;
    ++samples;
    for (std::size_t i = 0; i < actions.size(); ++i) {
      hots::State after = *state;
      if (hots::apply(after, role, actions[i])) continue;  // not legal in this sample
      if (budget.playouts == 0) {
        total[i] += evaluate(after, me);
        ++visits[i];
        continue;
      }
      for (int k = 0; k < budget.playouts; ++k) {
        hots::State rollout = after;
        playout(rollout, random, budget.guided_in_4);
        total[i] += evaluate(rollout, me);
        ++visits[i];
        ++playouts;
      }
    }
  }
  if (thinking) *thinking = {samples, playouts};
  int best = -1;
  double best_mean = -1;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (visits[i] == 0) continue;
    const double mean = total[i] / visits[i];
    if (mean > best_mean) {
      best_mean = mean;
      best = static_cast<int>(i);
    }
  }
  return best < 0 ? fallback : candidates[best];
}

}  // namespace blockfog::ai
