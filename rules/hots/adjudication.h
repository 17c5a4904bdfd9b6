#pragma once

#include <optional>
#include <string>

#include "rules/core/game.h"
#include "rules/core/role.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

// A game decided before its end by the nobles it stands at (a tournament organiser's
// adjudication, docs/tournaments.md): the winner, each side's count, whether a tie-break
// decided, and the sentence that says so ("England wins: more nobles (11 to 3)").
struct Adjudication {
  core::Role winner = core::Role::Scotland;
  int scotland = 0;
  int england = 0;
  bool tie_broken = false;
  std::string text;
};

// RULES 12.1.2: more nobles wins. It reads the true state: a caller publishes it only with
// the game's end, when everything is public.
Adjudication adjudicate(const Position& p);

// The same for a game of this module (module()); nothing for a game of another module.
std::optional<Adjudication> adjudicate(const core::Game& game);

}  // namespace blockfog::hots
