#pragma once

// What a turn notice says and whom it goes to (docs/server.md, "Turn notices"). A notice
// tells only what the recipient's own view tells (RULES 13): the game, his side, that it is
// his turn, the view's public year, turn and phase text ("Scotland: winter", 13.1.4), and the
// public lines of his view's log since his last decision (notice_lines.h); its content is
// taken from Game::view of the recipient's role (and the observer's, to tell which of his
// lines are public) and from nothing else.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/notices/notice_lines.h"

namespace blockfog::server {

struct Seats;

// A notice to write with an action: `role`'s player, not connected, became awaited.
struct TurnNotice {
  std::string role;
  std::int64_t account_id = 0;
  std::string content_json;  // notice_content
};

// {"game": id, "role", "year", "turn", "phase_text", "happened": [line, ...], "more": n}: the
// fields of `view` (the recipient's own) that a notice repeats, and what happened since his
// last decision.
nlohmann::json notice_content(std::int64_t game_id, const nlohmann::json& view,
                              const HappenedLines& happened);

// The roles awaited by `after` that `before` did not await (all awaited ones when `before` is
// null: the start), whose seat holds a player that `connected` says has no client at the game.
// None once the game is over. `marks` says where each seat's log stood at its last decision.
std::vector<TurnNotice> turn_notices(std::int64_t game_id, const core::Game* before,
                                     const core::Game& after, const Seats& seats,
                                     const DecisionMarks& marks,
                                     const std::function<bool(std::int64_t account_id)>& connected);

// {"game": id, "role", "dice": true}: what a notice says to a seated player away from a game
// whose dice are to be rolled (server/play/dice.h): nothing of any view, the game has none yet.
nlohmann::json dice_notice_content(std::int64_t game_id, std::string_view role);

// The notice's one-line text, from its content alone: "Your turn in Blockfog game 12
// (Scotland): 1297, turn 3, Scotland: winter.", or for the dice "Blockfog game 12 (Scotland)
// is ready to start: open it to roll the dice."
std::string notice_text(const nlohmann::json& content);
// The whole message of one notice, as e-mails and webhooks send it: the line of notice_text,
// what happened since the recipient's last decision (one line each, "and 3 more" beyond the
// cap), and the link to the game.
std::string notice_message(const nlohmann::json& content, const std::string& link);
// The link that opens the game (#/game/ID), under the server's public URL.
std::string game_link(const std::string& public_url, std::int64_t game_id);

}  // namespace blockfog::server
