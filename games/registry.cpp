#include "games/registry.h"

#include <array>

#include "ai/scotland_rising/chooser.h"
#include "rules/hots/adjudication.h"
#include "rules/hots/module.h"
#include "rules/scotland_rising/module.h"

namespace blockfog::games {
namespace {

using nlohmann::json;

// RULES 12.1.2: more nobles wins.
std::optional<Adjudication> adjudicate_hots(const core::Game& game) {
  const auto a = hots::adjudicate(game);
  if (!a) return std::nullopt;
  return Adjudication{a->winner,
                      {{"nobles", {{"scotland", a->scotland}, {"england", a->england}}},
                       {"tie_broken", a->tie_broken},
                       {"text", a->text}}};
}

const std::array<GameKind, 2>& kinds() {
  static const std::array<GameKind, 2> list{
      GameKind{"hots", "Hammer of the Scots", false, &hots::module(),
               json{{"schiltroms", "boolean"}}, &adjudicate_hots, &ai::choose_action},
      // No adjudication: the rulebook decides a game only at its end (docs/scotland-rising.md).
      GameKind{"scotland_rising", "Scotland Rising: Bannockburn 1314", true,
               &scotland_rising::module(),
               json{{"longbows_vs_schiltron", "boolean"},
                    {"battle_events", "boolean"},
                    {"solitaire_events", "boolean"},
                    {"freeform_setup", "boolean"}},
               nullptr, &ai::scotland_rising::choose_action},
  };
  return list;
}

}  // namespace

std::span<const GameKind> game_kinds() { return kinds(); }

const GameKind* find_game_kind(std::string_view kind) {
  for (const auto& k : kinds()) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

const GameKind& default_game_kind() { return *find_game_kind(kDefaultKind); }

void describe_kind(std::string_view kind, json& out) {
  const auto* k = find_game_kind(kind);
  out["game"] = std::string(kind);
  out["game_name"] = k ? json(std::string(k->display_name)) : json(std::string(kind));
  out["invented_variant"] = k ? k->invented_variant : false;
}

}  // namespace blockfog::games
