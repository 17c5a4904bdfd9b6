#include "rules/hots/adjudication.h"

#include "rules/hots/data.h"

namespace blockfog::hots {

using core::Role;

Adjudication adjudicate(const Position& p) {
  Adjudication a;
  // RULES 12.1.2 (1.4.4): a two-block noble counts for the side of its in-play block, and
  // Moray for Scotland while on the map.
  a.scotland = nobles_controlled(p, Side::Scotland);
  a.england = nobles_controlled(p, Side::England);
  if (a.scotland != a.england) {
    a.winner = a.scotland > a.england ? Role::Scotland : Role::England;
  } else {
    // A tie is broken as in 12.1.3 (and the Campaign's backstop, 12.3.4): Scotland if
    // Wallace is on the map, else England.
    a.tie_broken = true;
    a.winner = on_map(p, game_data().wallace) ? Role::Scotland : Role::England;
  }
  const bool scots = a.winner == Role::Scotland;
  const std::string counts = "(" + std::to_string(scots ? a.scotland : a.england) + " to " +
                             std::to_string(scots ? a.england : a.scotland) + ")";
  a.text = std::string(scots ? "Scotland" : "England") + " wins: ";
  a.text += a.tie_broken
                ? "nobles tied " + counts + ", Wallace " + (scots ? "on the map" : "not on the map")
                : "more nobles " + counts;
  return a;
}

}  // namespace blockfog::hots
