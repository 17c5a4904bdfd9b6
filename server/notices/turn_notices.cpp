#include "server/notices/turn_notices.h"

#include <algorithm>
#include <cstdint>

#include "server/seats.h"

namespace blockfog::server {

using nlohmann::json;

json notice_content(std::int64_t game_id, const json& view, const HappenedLines& happened) {
  return {{"game", game_id},
          {"role", view.at("role")},
          {"year", view.value("year", json())},
          {"turn", view.value("turn", json())},
          {"phase_text", view.value("phase_text", std::string())},
          {"happened", happened.lines},
          {"more", happened.more}};
}

std::vector<TurnNotice> turn_notices(std::int64_t game_id, const core::Game* before,
                                     const core::Game& after, const Seats& seats,
                                     const DecisionMarks& marks,
                                     const std::function<bool(std::int64_t)>& connected) {
  std::vector<TurnNotice> out;
  if (after.outcome().finished) return out;
  const auto was = before ? before->active_roles() : std::vector<core::Role>{};
  for (core::Role role : after.active_roles()) {
    if (role == core::Role::Observer) continue;
    if (std::find(was.begin(), was.end(), role) != was.end()) continue;
    const auto& seat = seats.of(role);
    // The computer reads its view when awaited (server/play/computer_players.h): no notice.
    if (!seat || seat->computer || connected(seat->account_id)) continue;
    const auto happened = happened_since(after, role, marks[static_cast<std::size_t>(role)]);
    // The view without its log: the lines are in `happened`.
    out.push_back({std::string(core::role_name(role)), seat->account_id,
                   notice_content(game_id, after.view(role, SIZE_MAX), happened).dump()});
  }
  return out;
}

json dice_notice_content(std::int64_t game_id, std::string_view role) {
  return {{"game", game_id}, {"role", role}, {"dice", true}};
}

std::string notice_text(const json& content) {
  std::string role = content.value("role", std::string());
  if (!role.empty()) role[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(role[0])));
  if (content.value("dice", false)) {
    return "Blockfog game " + std::to_string(content.value("game", 0)) + " (" + role +
           ") is ready to start: open it to roll the dice.";
  }
  std::string text =
      "Your turn in Blockfog game " + std::to_string(content.value("game", 0)) + " (" + role + ")";
  std::vector<std::string> parts;
  if (content.contains("year") && content["year"].is_number_integer()) {
    parts.push_back(std::to_string(content["year"].get<std::int64_t>()));
  }
  if (content.contains("turn") && content["turn"].is_number_integer() &&
      content["turn"].get<std::int64_t>() > 0) {
    parts.push_back("turn " + std::to_string(content["turn"].get<std::int64_t>()));
  }
  const auto phase = content.value("phase_text", std::string());
  if (!phase.empty()) parts.push_back(phase);
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? ": " : ", ") + parts[i];
  return text + ".";
}

std::string notice_message(const json& content, const std::string& link) {
  std::string text = notice_text(content) + "\n";
  const auto happened = content.find("happened");
  if (happened != content.end() && happened->is_array() && !happened->empty()) {
    text += "Since your last move:\n";
    for (const auto& line : *happened) {
      if (line.is_string()) text += "  " + line.get<std::string>() + "\n";
    }
    const auto more = content.find("more");
    if (more != content.end() && more->is_number_integer() && more->get<std::int64_t>() > 0) {
      text += "  and " + std::to_string(more->get<std::int64_t>()) + " more (in the game's log).\n";
    }
  }
  return text + link;
}

std::string game_link(const std::string& public_url, std::int64_t game_id) {
  std::string base = public_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/#/game/" + std::to_string(game_id);
}

}  // namespace blockfog::server
