#include "server/tournaments/standings.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace blockfog::tournament {

std::vector<Standing> standings(Format format, const std::vector<PlayerId>& players,
                                const History& history) {
  std::map<PlayerId, Standing> by_player;
  std::map<PlayerId, std::size_t> seed;
  for (std::size_t i = 0; i < players.size(); ++i) {
    by_player[players[i]].player = players[i];
    seed[players[i]] = i;
  }
  auto at = [&](PlayerId p) -> Standing& {
    auto& s = by_player[p];
    s.player = p;
    return s;
  };
  int last_round = 0;
  for (const auto& g : history.games) {
    last_round = std::max(last_round, g.round);
    auto& scotland = at(g.scotland);
    auto& england = at(g.england);
    switch (g.outcome) {
      case GameOutcome::ScotlandWon:
        scotland.points += 1;
        ++scotland.wins;
        ++scotland.wins_as_scotland;
        ++england.losses;
        break;
      case GameOutcome::EnglandWon:
        england.points += 1;
        ++england.wins;
        ++scotland.losses;
        break;
      case GameOutcome::NoWinner:
        scotland.points += 0.5;
        england.points += 0.5;
        ++scotland.no_winner;
        ++england.no_winner;
        break;
      case GameOutcome::Pending:
        break;
    }
  }
  for (const auto& b : history.byes) {
    last_round = std::max(last_round, b.round);
    at(b.player).points += history.games_per_pairing;
    ++at(b.player).byes;
  }
  // Each round's pairings with their points, for the tie-breaks.
  for (int r = 1; r <= last_round; ++r) {
    for (const auto& m : match_scores(history, r)) {
      auto& a = at(m.a);
      auto& b = at(m.b);
      const double total = m.a_points + m.b_points;
      if (format == Format::Swiss) {
        a.buchholz += b.points;
        b.buchholz += a.points;
        if (total > 0) {
          a.sonneborn_berger += b.points * (m.a_points / total);
          b.sonneborn_berger += a.points * (m.b_points / total);
        }
      }
      if (format == Format::SingleElimination && m.finished) {
        const bool a_won =
            m.a_points != m.b_points ? m.a_points > m.b_points : seed[m.a] < seed[m.b];
        (a_won ? b : a).out_in_round = r;
      }
    }
  }
  if (format == Format::RoundRobin) {
    // Only the games between players level on points count.
    for (const auto& g : history.games) {
      auto& scotland = at(g.scotland);
      auto& england = at(g.england);
      if (scotland.points != england.points) continue;
      if (g.outcome == GameOutcome::ScotlandWon) scotland.head_to_head += 1;
      if (g.outcome == GameOutcome::EnglandWon) england.head_to_head += 1;
      if (g.outcome == GameOutcome::NoWinner) {
        scotland.head_to_head += 0.5;
        england.head_to_head += 0.5;
      }
    }
  }
  std::vector<Standing> list;
  for (const auto& [p, s] : by_player) list.push_back(s);
  const auto seed_of = [&](PlayerId p) {
    const auto it = seed.find(p);
    return it == seed.end() ? players.size() : it->second;
  };
  std::sort(list.begin(), list.end(), [&](const Standing& a, const Standing& b) {
    switch (format) {
      case Format::Swiss:
        return std::make_tuple(-a.points, -a.buchholz, -a.sonneborn_berger, seed_of(a.player)) <
               std::make_tuple(-b.points, -b.buchholz, -b.sonneborn_berger, seed_of(b.player));
      case Format::RoundRobin:
        return std::make_tuple(-a.points, -a.head_to_head, -a.wins_as_scotland, seed_of(a.player)) <
               std::make_tuple(-b.points, -b.head_to_head, -b.wins_as_scotland, seed_of(b.player));
      case Format::SingleElimination: {
        const int a_out = a.out_in_round == 0 ? 1 << 20 : a.out_in_round;
        const int b_out = b.out_in_round == 0 ? 1 << 20 : b.out_in_round;
        return std::make_tuple(-a_out, -a.points, seed_of(a.player)) <
               std::make_tuple(-b_out, -b.points, seed_of(b.player));
      }
    }
    return false;
  });
  for (std::size_t i = 0; i < list.size(); ++i) list[i].rank = static_cast<int>(i) + 1;
  return list;
}

}  // namespace blockfog::tournament
