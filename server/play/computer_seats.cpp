#include "server/play/computer_seats.h"

#include <algorithm>
#include <random>

#include "server/play/computer_players.h"

namespace blockfog::server {

using core::Role;

bool ComputerSeats::ask(const core::Game& game, games::ChooseAction choose_action, RoleViews& views,
                        const Seats& seats, ComputerPlayers& players, const Decided& decided) {
  bool unparked = false;
  const auto awaiting = game.active_roles();
  for (Role role : {Role::Scotland, Role::England}) {
    const auto& seat = seats.of(role);
    if (!seat || !seat->computer) continue;
    if (std::find(awaiting.begin(), awaiting.end(), role) == awaiting.end()) continue;
    const auto i = RoleViews::index(role);
    if (views.parked(role)) {
      views.unpark(role, game);
      unparked = true;
    }
    const auto version = views.version(role);
    if ((thinking_[i] && thinking_[i]->version == version) || refused_version_[i] == version) {
      continue;
    }
    if (thinking_[i]) thinking_[i]->cancelled->store(true);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    thinking_[i] = Thinking{cancelled, version};
    if (!history_[i]) history_[i] = std::make_shared<SeatHistory>();
    Decision decision;
    // The queue takes turns between the players the computer answers: the opponent's account,
    // or the seat's own when the computer plays both seats.
    const auto& opponent = seats.of(role == Role::Scotland ? Role::England : Role::Scotland);
    decision.account = opponent && !opponent->computer ? opponent->account_id : seat->account_id;
    decision.cancelled = cancelled;
    game.write_view(role, 0, decision.view_text);
    decision.choose_action = choose_action;
    decision.history = history_[i];
    decision.level = ai::level_from_name(seat->computer->level).value_or(ai::Level::Normal);
    decision.seed = std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32);
    decision.done = [decided, role, version](std::optional<nlohmann::json> action) {
      decided(role, version, std::move(action));
    };
    players.submit(std::move(decision));
  }
  return unparked;
}

std::optional<protocol::ActionMessage> ComputerSeats::decided(
    Role role, std::int64_t version, std::optional<nlohmann::json> action) {
  const auto i = RoleViews::index(role);
  if (!thinking_[i] || thinking_[i]->version != version) return std::nullopt;  // cancelled
  thinking_[i].reset();
  if (!action) {
    refused_version_[i] = version;
    return std::nullopt;
  }
  return protocol::ActionMessage{version, std::move(*action), std::nullopt};
}

void ComputerSeats::refused(Role role, std::int64_t version) {
  refused_version_[RoleViews::index(role)] = version;
}

void ComputerSeats::cancel() {
  for (auto& thinking : thinking_) {
    if (thinking) thinking->cancelled->store(true);
    thinking.reset();
  }
}

}  // namespace blockfog::server
