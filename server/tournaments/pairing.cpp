#include "server/tournaments/pairing.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace blockfog::tournament {
namespace {

constexpr PlayerId kNobody = -1;
// Backtracking steps one Swiss round may take before it gives up.
constexpr long kSwissBudget = 2'000'000;

double points_of(GameOutcome outcome, bool as_scotland) {
  switch (outcome) {
    case GameOutcome::ScotlandWon:
      return as_scotland ? 1 : 0;
    case GameOutcome::EnglandWon:
      return as_scotland ? 0 : 1;
    case GameOutcome::NoWinner:
      return 0.5;
    case GameOutcome::Pending:
      return 0;
  }
  return 0;
}

// What the side rule needs of a player's past games.
struct SideRecord {
  int balance = 0;  // games as Scotland minus games as England
  int last = 0;     // +1 Scotland, -1 England, 0 none
};

std::map<PlayerId, SideRecord> side_records(const History& history) {
  std::map<PlayerId, SideRecord> records;
  std::vector<PlayedGame> games = history.games;
  std::stable_sort(games.begin(), games.end(),
                   [](const PlayedGame& a, const PlayedGame& b) { return a.round < b.round; });
  for (const auto& g : games) {
    ++records[g.scotland].balance;
    records[g.scotland].last = 1;
    --records[g.england].balance;
    records[g.england].last = -1;
  }
  return records;
}

// Sides balanced: the one who played Scotland less often takes it, then the one who played
// England last, then `higher` (the higher-ranked) on odd rounds and `lower` on even ones.
Pair sided(PlayerId higher, PlayerId lower, const std::map<PlayerId, SideRecord>& records,
           int round) {
  const auto get = [&](PlayerId p) {
    const auto it = records.find(p);
    return it == records.end() ? SideRecord{} : it->second;
  };
  const auto h = get(higher);
  const auto l = get(lower);
  bool higher_scotland = round % 2 == 1;
  if (h.balance != l.balance) {
    higher_scotland = h.balance < l.balance;
  } else if (h.last != l.last) {
    higher_scotland = h.last < l.last;
  }
  return higher_scotland ? Pair{higher, lower} : Pair{lower, higher};
}

std::map<PlayerId, double> points_by_player(const History& history) {
  std::map<PlayerId, double> points;
  for (const auto& g : history.games) {
    points[g.scotland] += points_of(g.outcome, true);
    points[g.england] += points_of(g.outcome, false);
  }
  for (const auto& b : history.byes) points[b.player] += history.games_per_pairing;
  return points;
}

std::set<std::pair<PlayerId, PlayerId>> met_pairs(const History& history) {
  std::set<std::pair<PlayerId, PlayerId>> met;
  for (const auto& g : history.games) {
    met.insert({std::min(g.scotland, g.england), std::max(g.scotland, g.england)});
  }
  return met;
}

int last_round(const History& history) {
  int last = 0;
  for (const auto& g : history.games) last = std::max(last, g.round);
  for (const auto& b : history.byes) last = std::max(last, b.round);
  return last;
}

// The Swiss pairing of `ranked` (best first) by score groups: in each group the top half meets
// the bottom half in order (Dutch system), an odd player out floats to the next group, and a
// pairing that would repeat is replaced by the next one in that order (backtracking).
class SwissPairer {
 public:
  SwissPairer(const std::map<PlayerId, double>& points,
              const std::set<std::pair<PlayerId, PlayerId>>& met)
      : points_(points), met_(met) {}

  bool pair(std::vector<PlayerId> remaining, std::vector<std::pair<PlayerId, PlayerId>>& out) {
    if (remaining.empty()) return true;
    if (--budget_ < 0) return false;
    const PlayerId top = remaining.front();
    const double score = score_of(top);
    std::size_t group = 1;
    while (group < remaining.size() && score_of(remaining[group]) == score) ++group;
    const std::size_t half = group / 2;
    std::vector<std::size_t> order;
    if (group >= 2) {
      for (std::size_t i = half; i < group; ++i) order.push_back(i);
      for (std::size_t i = half - 1; i >= 1; --i) order.push_back(i);
    }
    for (std::size_t i = group; i < remaining.size(); ++i) order.push_back(i);
    for (const auto i : order) {
      const PlayerId other = remaining[i];
      if (met_.contains({std::min(top, other), std::max(top, other)})) continue;
      std::vector<PlayerId> rest;
      for (std::size_t j = 1; j < remaining.size(); ++j) {
        if (j != i) rest.push_back(remaining[j]);
      }
      out.emplace_back(top, other);
      if (pair(std::move(rest), out)) return true;
      out.pop_back();
      if (budget_ < 0) return false;
    }
    return false;
  }

 private:
  double score_of(PlayerId p) const {
    const auto it = points_.find(p);
    return it == points_.end() ? 0 : it->second;
  }

  const std::map<PlayerId, double>& points_;
  const std::set<std::pair<PlayerId, PlayerId>>& met_;
  long budget_ = kSwissBudget;
};

// Seeds 1..size in bracket order: adjacent seeds meet in round 1 (1-8, 4-5, 2-7, 3-6 for 8).
std::vector<int> bracket_order(int size) {
  std::vector<int> order{1};
  for (int n = 2; n <= size; n *= 2) {
    std::vector<int> next;
    for (const int s : order) {
      next.push_back(s);
      next.push_back(n + 1 - s);
    }
    order = std::move(next);
  }
  return order;
}

}  // namespace

std::string_view format_name(Format format) {
  switch (format) {
    case Format::RoundRobin:
      return "round_robin";
    case Format::Swiss:
      return "swiss";
    case Format::SingleElimination:
      return "single_elimination";
  }
  return "swiss";
}

std::optional<Format> format_from_name(std::string_view name) {
  if (name == "round_robin") return Format::RoundRobin;
  if (name == "swiss") return Format::Swiss;
  if (name == "single_elimination") return Format::SingleElimination;
  return std::nullopt;
}

int round_robin_rounds(int players) {
  if (players < 2) return 0;
  return players % 2 == 0 ? players - 1 : players;
}

int elimination_rounds(int players) {
  int rounds = 0;
  for (int size = 1; size < players; size *= 2) ++rounds;
  return rounds;
}

RoundPairings round_robin_round(const std::vector<PlayerId>& players, int round) {
  std::vector<PlayerId> circle = players;
  if (circle.size() % 2 == 1) circle.push_back(kNobody);
  RoundPairings result;
  const int n = static_cast<int>(circle.size());
  if (n < 2 || round < 1 || round > n - 1) return result;
  const int m = n - 1;  // the rotating positions; circle[m] stays fixed
  const int r = round - 1;
  auto add = [&](PlayerId scotland, PlayerId england) {
    if (scotland == kNobody) {
      result.byes.push_back(england);
    } else if (england == kNobody) {
      result.byes.push_back(scotland);
    } else {
      result.pairs.push_back({scotland, england});
    }
  };
  // Berger: against the fixed player, sides alternate by round; in the pair k places either
  // side of position r, the one ahead takes Scotland when k is odd. Each player then has k odd
  // as often as k even, give or take the game against the fixed player.
  const PlayerId fixed = circle[m];
  const PlayerId pivot = circle[r];
  if (r % 2 == 0) {
    add(pivot, fixed);
  } else {
    add(fixed, pivot);
  }
  for (int k = 1; k < n / 2; ++k) {
    const PlayerId ahead = circle[(r + k) % m];
    const PlayerId behind = circle[(r - k + m) % m];
    if (k % 2 == 1) {
      add(ahead, behind);
    } else {
      add(behind, ahead);
    }
  }
  return result;
}

std::variant<RoundPairings, PairingError> swiss_round(const std::vector<PlayerId>& players,
                                                      const History& history) {
  const auto points = points_by_player(history);
  const auto met = met_pairs(history);
  const auto records = side_records(history);
  const int round = last_round(history) + 1;
  // Ranked by points, then seed.
  std::vector<PlayerId> ranked = players;
  auto score = [&](PlayerId p) {
    const auto it = points.find(p);
    return it == points.end() ? 0.0 : it->second;
  };
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](PlayerId a, PlayerId b) { return score(a) > score(b); });
  std::set<PlayerId> had_bye;
  for (const auto& b : history.byes) had_bye.insert(b.player);

  auto try_pairing = [&](const std::vector<PlayerId>& list) -> std::optional<RoundPairings> {
    SwissPairer pairer(points, met);
    std::vector<std::pair<PlayerId, PlayerId>> pairs;
    if (!pairer.pair(list, pairs)) return std::nullopt;
    RoundPairings result;
    for (const auto& [higher, lower] : pairs) {
      result.pairs.push_back(sided(higher, lower, records, round));
    }
    return result;
  };

  if (ranked.size() % 2 == 0) {
    if (auto result = try_pairing(ranked)) return *result;
    return PairingError{"no Swiss pairing avoids a repeat pairing this round"};
  }
  // The bye goes to the lowest-ranked player without one whose absence leaves a pairing.
  for (auto it = ranked.rbegin(); it != ranked.rend(); ++it) {
    if (had_bye.contains(*it)) continue;
    std::vector<PlayerId> rest;
    for (const auto p : ranked) {
      if (p != *it) rest.push_back(p);
    }
    if (auto result = try_pairing(rest)) {
      result->byes.push_back(*it);
      return *result;
    }
  }
  return PairingError{"no Swiss pairing gives the bye to a player without one and avoids repeats"};
}

std::vector<MatchScore> match_scores(const History& history, int round) {
  std::vector<MatchScore> matches;
  for (const auto& g : history.games) {
    if (g.round != round) continue;
    const PlayerId a = std::min(g.scotland, g.england);
    const PlayerId b = std::max(g.scotland, g.england);
    auto it = std::find_if(matches.begin(), matches.end(),
                           [&](const MatchScore& m) { return m.a == a && m.b == b; });
    if (it == matches.end()) {
      matches.push_back({a, b, 0, 0, true});
      it = matches.end() - 1;
    }
    const bool a_scotland = g.scotland == a;
    it->a_points += points_of(g.outcome, a_scotland);
    it->b_points += points_of(g.outcome, !a_scotland);
    if (g.outcome == GameOutcome::Pending) it->finished = false;
  }
  return matches;
}

std::variant<RoundPairings, PairingError> elimination_round(const std::vector<PlayerId>& players,
                                                            const History& history, int round) {
  const int rounds = elimination_rounds(static_cast<int>(players.size()));
  if (round < 1 || round > rounds) return PairingError{"the bracket has no such round"};
  const int size = 1 << rounds;
  const auto records = side_records(history);
  std::map<PlayerId, std::size_t> seed;
  for (std::size_t i = 0; i < players.size(); ++i) seed[players[i]] = i;
  // The bracket's slots, each a player or nobody, in bracket order.
  std::vector<PlayerId> slots;
  for (const int s : bracket_order(size)) {
    slots.push_back(s <= static_cast<int>(players.size()) ? players[s - 1] : kNobody);
  }
  for (int r = 1;; ++r) {
    RoundPairings pairings;
    for (std::size_t i = 0; i + 1 < slots.size(); i += 2) {
      const PlayerId a = slots[i];
      const PlayerId b = slots[i + 1];
      if (a == kNobody || b == kNobody) {
        if (a != kNobody || b != kNobody) pairings.byes.push_back(a == kNobody ? b : a);
        continue;
      }
      const bool a_higher = seed.at(a) < seed.at(b);
      pairings.pairs.push_back(sided(a_higher ? a : b, a_higher ? b : a, records, r));
    }
    if (r == round) return pairings;
    // Who goes on from round r.
    const auto scores = match_scores(history, r);
    std::vector<PlayerId> next;
    for (std::size_t i = 0; i + 1 < slots.size(); i += 2) {
      const PlayerId a = slots[i];
      const PlayerId b = slots[i + 1];
      if (a == kNobody || b == kNobody) {
        next.push_back(a == kNobody ? b : a);
        continue;
      }
      const auto it = std::find_if(scores.begin(), scores.end(), [&](const MatchScore& m) {
        return m.a == std::min(a, b) && m.b == std::max(a, b);
      });
      if (it == scores.end() || !it->finished) {
        return PairingError{"round " + std::to_string(r) + " has not ended"};
      }
      const double a_points = it->a == a ? it->a_points : it->b_points;
      const double b_points = it->a == a ? it->b_points : it->a_points;
      if (a_points != b_points) {
        next.push_back(a_points > b_points ? a : b);
      } else {
        next.push_back(seed.at(a) < seed.at(b) ? a : b);
      }
    }
    slots = std::move(next);
  }
}

}  // namespace blockfog::tournament
