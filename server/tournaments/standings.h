#pragma once

// Tournament standings with the tie-breaks of docs/tournaments.md. Without I/O.
//
// Points: a won game 1, a game without a winner 1/2, a bye as many points as a pairing has
// games. Order:
// - Swiss: points, Buchholz (the sum of the points of each opponent met), Sonneborn-Berger (the
//   sum over opponents of their points times the share of the pairing's points one scored),
//   then seed. A bye adds nothing to either tie-break.
// - Round robin: points, head-to-head (points scored in games among the players tied on
//   points), wins as Scotland, then seed.
// - Single elimination: the round one went out in (still in ranks first), points, then seed.

#include <vector>

#include "server/tournaments/pairing.h"

namespace blockfog::tournament {

struct Standing {
  PlayerId player = 0;
  int rank = 0;  // from 1
  double points = 0;
  int wins = 0;
  int losses = 0;
  int no_winner = 0;
  int byes = 0;
  double buchholz = 0;
  double sonneborn_berger = 0;
  double head_to_head = 0;
  int wins_as_scotland = 0;
  int out_in_round = 0;  // single elimination: the round lost, 0 while still in
};

// `players` in seed order; games with a Pending outcome count for nothing yet.
std::vector<Standing> standings(Format format, const std::vector<PlayerId>& players,
                                const History& history);

}  // namespace blockfog::tournament
