#pragma once

// The games served, by kind (docs/architecture.md, "The game registry"). Every part that needs
// a game's rules, name, adjudication or computer opponent asks here by the kind stored with the
// game (games.kind, a record's "game"), so that the server, the store, the protocol and the
// tools never name a game themselves.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ai/player.h"
#include "rules/core/game.h"

namespace blockfog::games {

// The kind a game has when none is named (the create-game API's default; games made before
// there was a choice).
inline constexpr std::string_view kDefaultKind = "hots";

// An organiser's decision of a game before its end, counted by the engine from the true state
// (docs/tournaments.md): the winner and the result's other fields (the counts it was decided
// by, the sentence that says so in "text").
struct Adjudication {
  core::Role winner = core::Role::Scotland;
  nlohmann::json fields = nlohmann::json::object();
};

// Nothing when the game is not one of this kind's.
using Adjudicate = std::optional<Adjudication> (*)(const core::Game& game);

// The computer opponent's decision, with the shape of ai::choose_action: one action from the
// seat's view (its legal_actions), given the seat's earlier views, the level and a seed; throws
// ai::MalformedView for a view that is not a seat's awaited view.
using ChooseAction = nlohmann::json (*)(const nlohmann::json& view,
                                        const std::vector<nlohmann::json>& history, ai::Level level,
                                        std::uint64_t seed, ai::Thinking* thinking, bool time_cap);

struct GameKind {
  std::string_view kind;  // the module's id, stored as games.kind
  std::string_view display_name;
  // The board is not the published game's but one invented for it (shown as such in the lobby
  // and on the board).
  bool invented_variant = false;
  const core::GameModule* module = nullptr;
  // The options the module takes, name → "boolean" (the lobby's form offers them).
  nlohmann::json options = nlohmann::json::object();
  Adjudicate adjudicate = nullptr;       // null: its games cannot be adjudicated
  ChooseAction choose_action = nullptr;  // null: no computer opponent plays it
};

// Every kind served, the default first.
std::span<const GameKind> game_kinds();
// Nothing for a kind not served.
const GameKind* find_game_kind(std::string_view kind);
const GameKind& default_game_kind();

// The kind's name and display name, and the invented-variant mark, as the API shows them with
// a game, a tournament or a rating ({"game", "game_name", "invented_variant"} members).
void describe_kind(std::string_view kind, nlohmann::json& out);

}  // namespace blockfog::games
