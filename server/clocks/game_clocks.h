#pragma once

// Game clocks and vacations on the storage thread (docs/protocol.md, "Time controls"). Every
// function runs inside the caller's transaction: a clock moves in the same commit as the
// action, resignation or start that moved it, so it is never ahead of or behind the log.
//
// Time runs for the roles the game awaits, as every view (the observer's too) shows them in
// `awaiting`: an opaque step of one side (RULES 13.1.4) runs that side's clock exactly as the
// other side sees it, never by anything hidden.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/game.h"
#include "server/clocks/time_control.h"
#include "server/seats.h"
#include "storage/store.h"

namespace blockfog::server {

// Vacation days each account may take per calendar year (UTC), ahead or automatically.
inline constexpr std::int64_t kVacationDaysPerYear = 21;
// Days of one vacation taken ahead, at most.
inline constexpr std::int64_t kMaxVacationDays = 21;

// The roles the game awaits as its public view shows them: the `awaiting` of every role's view
// is the module's active_roles(), which holds nothing hidden (docs/architecture.md).
std::vector<core::Role> public_awaiting(const core::Game& game);

// The game's time control as stored (none without one).
TimeControl load_time_control(storage::Store& store, std::int64_t game_id);

// The game started at `now`: every seat gets its initial bank; the awaited ones start running.
void start_clocks(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                  const std::vector<core::Role>& awaiting, std::int64_t now);
// After an action of `actor`: the wait of each role awaited `before` and not `after` ends (its
// bank is charged, a live clock gets its increment), and each awaited `after` and not `before`
// begins. A wait the actor's own action ended is kept paused; if the actor's own next action
// makes it awaited again before anybody else acted (a card choice taken back, RULES 3.1.2),
// that wait resumes as if it had never stopped: charged from its first moment, the time between
// included, no increment earned, so that taking a decision back cannot refill a clock. Any
// other role's action forgets it.
void pass_turn(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
               const Seats& seats, core::Role actor, const std::vector<core::Role>& before,
               const std::vector<core::Role>& after, std::int64_t now);
// The game ended at `now`: every running clock is charged and stops.
void stop_clocks(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                 const Seats& seats, std::int64_t now);
// The role whose time ran out by `now`, if any. A correspondence clock that would run out
// first takes a vacation day of its player, automatically, while his year has one left and the
// game allows vacations (written to the store: it pauses his other games too).
std::optional<core::Role> expired_role(storage::Store& store, std::int64_t game_id,
                                       const TimeControl& tc, const Seats& seats, std::int64_t now);
// {"time_control":{...},"now":ms,"scotland":Clock,"england":Clock}: each Clock is
// {"remaining_ms","bank_ms","running","deadline"(ms or null),"vacation_until"(ms or null)}.
// Null for a game without a time control or not started.
nlohmann::json clocks_json(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                           const Seats& seats, std::int64_t now);

// A game ended without the engine: `loser` lost by `reason` ("timeout", "resigned").
std::string result_against(core::Role loser, std::string_view reason);

// The level of the computer that stands in for a player whose time ran out.
inline constexpr std::string_view kStandInLevel = "normal";
// `role`'s time ran out: if both players allowed it when they took their seats, the computer
// takes the seat (stored; its clock never runs out again) and the game goes on. Nothing when
// they did not (the game is lost on time).
std::optional<ComputerSeat> take_over_timed_out(storage::Store& store, std::int64_t game_id,
                                                core::Role role, std::int64_t now);

// Every timed active game whose clock ran out by `now` is finished: result `timeout`, the
// other side winning; or, where both players allowed it, the computer stands in for the side
// whose time ran out (take_over_timed_out). Returns those games.
struct StandIn {
  core::Role role = core::Role::Scotland;
  ComputerSeat seat;
};
struct EndedGame {
  std::int64_t game_id = 0;
  std::string result_json;  // "" when the game goes on with a stand-in
  std::optional<StandIn> stand_in;
};
// `may_write(store, game_id)`, if given, runs first in each game's transaction and says
// whether this node may write that game (several nodes on one database: the lease rule of
// RoomRegistry::may_write); a game it may not write is left as it is, for its holder.
using MayWriteGame = std::function<bool(storage::Store&, std::int64_t game_id)>;
std::vector<EndedGame> finish_expired_games(storage::Store& store, std::int64_t now,
                                            const MayWriteGame& may_write = {});

// The calendar year (UTC) of a moment, and the moment its year starts and the next one does.
struct Year {
  int year = 0;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
};
Year year_of(std::int64_t ms);
// Vacation days left to the account in the year of `at`.
std::int64_t vacation_days_left(storage::Store& store, std::int64_t account_id, std::int64_t at);

}  // namespace blockfog::server
