#include "ai/scotland_rising/chooser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "ai/scotland_rising/evaluate.h"
#include "rules/scotland_rising/engine.h"
#include "rules/scotland_rising/serialize.h"

namespace blockfog::ai::scotland_rising {
namespace {

using nlohmann::json;
using sr::Action;
using sr::ActionType;
using Clock = std::chrono::steady_clock;
using Random = std::mt19937_64;

constexpr int kEasyDiceSamples = 8;
constexpr int kPlayoutCap = 400;  // actions: far more than two side-turns ever take

struct Budget {
  int searched;    // actions searched, best by the greedy one-ply score first; 0: greedy one ply
  int playouts;    // per searched action
  int side_turns;  // a playout ends when the side to act has changed this many times
  double seconds;  // time cap
};

Budget budget_of(Level level) {
  switch (level) {
    case Level::Easy:
      return {0, 0, 0, 0.05};
    case Level::Normal:
      return {5, 8, 1, 0.3};
    case Level::Hard:
      return {6, 24, 1, 2.0};
  }
  return {0, 0, 0, 0.05};
}

// Where a playout stops the other side is about to act: its attacks come first, so the seat's
// units stand to lose more of their exposure than the enemy's (rulebook 8).
constexpr ExposureWeights kTurnEndWeights{0.3, 0.8};

[[noreturn]] void malformed(const std::string& why) {
  throw MalformedView("malformed view: " + why);
}

core::Seed seed_from(Random& random) {
  core::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); i += 8) {
    const auto word = random();
    for (std::size_t b = 0; b < 8; ++b) seed[i + b] = static_cast<std::uint8_t>(word >> (8 * b));
  }
  return seed;
}

// The shape read before anything else.
core::Role check_view(const json& view, const std::vector<json>& history) {
  if (!view.is_object()) malformed("not a JSON object");
  if (view.value("game", json()) != "scotland_rising") malformed("not a Scotland Rising view");
  const auto role = view.find("role");
  if (role == view.end() || !role->is_string() || (*role != "scotland" && *role != "england")) {
    malformed("'role' is not scotland or england");
  }
  const auto legal = view.find("legal_actions");
  if (legal == view.end() || !legal->is_array() || legal->empty()) malformed("no 'legal_actions'");
  const auto awaiting = view.find("awaiting");
  if (awaiting == view.end() || !awaiting->is_array() ||
      std::find(awaiting->begin(), awaiting->end(), *role) == awaiting->end()) {
    malformed("the view does not await its seat");
  }
  for (const auto& earlier : history) {
    if (!earlier.is_object()) malformed("a history entry is not an object");
  }
  return *core::role_from_name(role->get<std::string>());
}

// The scenario the view's board describes: the shipped variant when it is that board, else
// the board read from the view (docs/scotland-rising.md, "The data file").
std::shared_ptr<const sr::Data> data_of(const json& view) {
  const auto& board = view.at("board");
  const auto variant = sr::variant_board();
  if (board == variant->source) return variant;
  try {
    return sr::Data::parse(board);
  } catch (const sr::DataError& e) {
    malformed(std::string("its board: ") + e.what());
  }
}

// The view's legal actions but undo, each checked against the rebuilt state: a view whose
// offer the position does not allow is not the engine's.
std::vector<Action> candidates_of(const sr::State& s, core::Role role, const json& view,
                                  std::vector<json>& forms) {
  std::vector<Action> out;
  for (const auto& a : view.at("legal_actions")) {
    if (a.is_object() && a.value("type", json()) == "undo") continue;
    std::string error;
    const auto action = sr::action_from_json(*s.data, a, error);
    if (!action) malformed("an offered action: " + error);
    if (const auto problem = sr::check(s, role, *action)) {
      malformed("an offered action the position does not allow: " + *problem);
    }
    out.push_back(*action);
    forms.push_back(a);
  }
  if (out.empty()) malformed("nothing offered but undo");
  return out;
}

bool rolls_dice(ActionType type) {
  switch (type) {
    case ActionType::Attack:
    case ActionType::Charge:
    case ActionType::MoveAttack:
    case ActionType::Rally:
    case ActionType::RollAp:
    case ActionType::ScotsCharge:
      return true;
    default:
      return false;
  }
}

// Forward actions a playout may draw: never undo; in the setup, never leaving schiltron, so
// that the setup cannot go round in circles (rulebook 4).
bool playable(const sr::State& s, const Action& a) {
  if (a.type == ActionType::Undo) return false;
  return !(s.pos.phase == sr::Phase::Setup && a.type == ActionType::LeaveSchiltron);
}

// What `role` makes of `s` after an action: the game's result when it ended, else advantage().
double score_of(const sr::State& s, core::Role role, const std::vector<int>& exit_distance) {
  return s.pos.phase == sr::Phase::GameOver ? 100.0 * (evaluate(s, role) - 0.5)
                                            : advantage(s, role, exit_distance);
}

// The same where a playout stops, at a change of side (kTurnEndWeights).
double turn_end_score(const sr::State& s, core::Role role, const std::vector<int>& exit_distance) {
  return s.pos.phase == sr::Phase::GameOver ? 100.0 * (evaluate(s, role) - 0.5)
                                            : advantage(s, role, exit_distance, kTurnEndWeights);
}

// A copy of `s` to look ahead from: its log and undo points are not read by the search and
// would only be copied again at every step.
sr::State lookahead_copy(const sr::State& s) {
  sr::State out = s;
  out.log.clear();
  out.undo.clear();
  return out;
}

// Easy's one-ply score of each action: the action applied (`samples` times with different dice
// when it rolls some, averaged), the result scored by advantage(), prior() breaking ties.
std::vector<double> one_ply(const sr::State& s, core::Role role, const std::vector<Action>& actions,
                            int samples, Random& random, const Fields& f,
                            Clock::time_point deadline) {
  std::vector<double> score(actions.size(), -1e18);
  for (std::size_t i = 0; i < actions.size() && (i == 0 || Clock::now() < deadline); ++i) {
    const int n = rolls_dice(actions[i].type) ? samples : 1;
    double total = 0;
    for (int k = 0; k < n; ++k) {
      sr::State after = s;
      after.rng = core::Rng(seed_from(random));
      sr::apply_legal(after, role, actions[i]);
      total += score_of(after, role, f.exit_distance);
    }
    score[i] = total / n + 1e-3 * prior(s, actions[i], f);
  }
  return score;
}

std::size_t best_of(const std::vector<double>& score) {
  return static_cast<std::size_t>(std::max_element(score.begin(), score.end()) - score.begin());
}

// The game played on from `s` (whose search began with `side` to act) by easy's rule for both
// sides, each action judged on one draw of dice of its own and then played with the playout's
// dice, until the side to act has changed `side_turns` times since the search began or the
// game ended.
void greedy_playout(sr::State& s, core::Role side, Random& random, int side_turns) {
  std::vector<Action> list;
  int changes = 0;
  if (s.pos.side != side) {
    side = s.pos.side;
    if (++changes >= side_turns) return;
  }
  for (int i = 0; i < kPlayoutCap && s.pos.phase != sr::Phase::GameOver; ++i) {
    list = sr::legal_actions(s, s.pos.side);
    std::erase_if(list, [&](const Action& a) { return !playable(s, a); });
    if (list.empty()) return;
    std::size_t pick = 0;
    if (list.size() > 1) {
      pick = best_of(one_ply(s, s.pos.side, list, 1, random, fields(s), Clock::time_point::max()));
    }
    sr::apply_legal(s, s.pos.side, list[pick]);
    s.undo.clear();
    s.log.clear();
    if (s.pos.side != side) {
      side = s.pos.side;
      if (++changes >= side_turns) return;
    }
  }
}

// Easy: the action of the best one-ply score.
std::size_t greedy(const sr::State& s, core::Role role, const std::vector<Action>& actions,
                   Random& random, Clock::time_point deadline) {
  return best_of(one_ply(s, role, actions, kEasyDiceSamples, random, fields(s), deadline));
}

// The index of the searched action whose playouts beat the first's (easy's choice) by more than
// kEvidence standard errors of their paired differences, the largest mean gain among those; 0
// when none does. A turn's playouts differ by several VP with the dice alone, far more than the
// actions easy ranks first differ by, so the best raw mean is mostly luck: it is taken only on
// evidence, and otherwise easy's choice stands.
constexpr double kEvidence = 2.0;

std::size_t evidently_best(const std::vector<std::vector<double>>& score) {
  const std::size_t n = score.size();
  if (n < 2) return 0;
  std::size_t best = 0;
  double best_gain = 0;
  for (std::size_t j = 1; j < score.front().size(); ++j) {
    double sum = 0, squares = 0;
    for (const auto& round : score) {
      const double d = round[j] - round[0];
      sum += d;
      squares += d * d;
    }
    const double mean = sum / n;
    const double variance = std::max(0.0, (squares - n * mean * mean) / (n - 1));
    const double error = std::sqrt(variance / n);
    if (mean > kEvidence * error && mean > best_gain) {
      best = j;
      best_gain = mean;
    }
  }
  return best;
}

// Normal and hard: the actions easy ranks first (ending the turn always among them), each
// followed by the same greedy playouts, round by round on the same dice; easy's choice stands
// unless another's playouts evidently beat it (evidently_best).
std::size_t search(const sr::State& root, core::Role role, const std::vector<Action>& actions,
                   const Budget& budget, Random& random, Clock::time_point deadline,
                   Thinking& thinking) {
  const sr::State s = lookahead_copy(root);
  const auto f = fields(s);
  const auto rank = one_ply(s, role, actions, kEasyDiceSamples, random, f, deadline);
  std::vector<std::size_t> order(actions.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank[a] > rank[b]; });
  std::vector<std::size_t> searched;
  for (std::size_t i : order) {
    const auto type = actions[i].type;
    const bool always = type == ActionType::EndTurn || type == ActionType::SetupDone;
    if (always || static_cast<int>(searched.size()) < budget.searched) searched.push_back(i);
  }
  // score[k][j]: the k-th playout of searched[j]; searched[0] is easy's choice.
  std::vector<std::vector<double>> score;
  for (int k = 0; k < budget.playouts && Clock::now() < deadline; ++k) {
    const auto dice = seed_from(random);
    const auto policy = random();
    auto& round = score.emplace_back(searched.size(), 0.0);
    for (std::size_t j = 0; j < searched.size(); ++j) {
      sr::State after = s;
      after.rng = core::Rng(dice);
      Random walk(policy);
      sr::apply_legal(after, role, actions[searched[j]]);
      greedy_playout(after, role, walk, budget.side_turns);
      round[j] = turn_end_score(after, role, f.exit_distance);
      ++thinking.playouts;
    }
  }
  return searched[evidently_best(score)];
}

}  // namespace

json choose_action(const json& view, const std::vector<json>& history, Level level,
                   std::uint64_t seed, Thinking* thinking, bool time_cap) {
  const auto role = check_view(view, history);
  try {
    Random random(seed);
    const auto data = data_of(view);
    const sr::State s = sr::state_from_view(data, view, seed_from(random));
    std::vector<json> forms;
    const auto actions = candidates_of(s, role, view, forms);
    Thinking spent;
    if (actions.size() == 1) {
      if (thinking) *thinking = spent;
      return forms[0];
    }
    const auto budget = budget_of(level);
    const auto deadline = time_cap
                              ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(budget.seconds))
                              : Clock::time_point::max();
    spent.determinizations = 1;  // the one state the view shows
    const std::size_t chosen = budget.searched == 0
                                   ? greedy(s, role, actions, random, deadline)
                                   : search(s, role, actions, budget, random, deadline, spent);
    if (thinking) *thinking = spent;
    return forms[chosen];
  } catch (const sr::StateFormatError& e) {
    malformed(e.what());
  } catch (const json::exception& e) {
    malformed(e.what());
  }
}

}  // namespace blockfog::ai::scotland_rising
