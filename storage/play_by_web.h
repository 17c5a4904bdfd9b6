#pragma once

// The tables of migration 9 (docs/storage.md, "Clocks, vacations and rematches"): a game's
// time control and clocks, players' vacations and rematch offers. Free functions over the
// Store's connection; like the Store they read no clock (`now` is passed in) and throw
// StorageError on infrastructure failures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct ClockRow {
  std::string role;  // "scotland" or "england"
  std::int64_t bank_ms = 0;
  std::optional<std::int64_t> running_since;
  // When the clock sweep looks at this clock next (migration 13): never later than the moment
  // its time could run out; none while it is stopped or cannot run out.
  std::optional<std::int64_t> check_at;
  // A wait the seat's own action ended (migration 16): when it began and the bank it began
  // with, so that the seat's own next action can resume it (server/clocks/game_clocks.h,
  // pass_turn).
  std::optional<std::int64_t> paused_since;
  std::optional<std::int64_t> paused_bank_ms;
  friend bool operator==(const ClockRow&, const ClockRow&) = default;
};

struct VacationRow {
  std::int64_t id = 0;
  std::int64_t account_id = 0;
  std::int64_t starts_at = 0;
  std::int64_t ends_at = 0;
  bool automatic = false;
};

enum class RematchState { Offered, Accepted, Declined };
std::string_view rematch_state_name(RematchState state);  // "offered", "accepted", "declined"

struct RematchRow {
  std::int64_t game_id = 0;
  std::int64_t offered_by = 0;
  RematchState state = RematchState::Offered;
  std::optional<std::int64_t> new_game_id;
  std::int64_t created_at = 0;
};

// The game's time control (JSON text), none for a game without one.
void set_time_control(Store& store, std::int64_t game_id, std::string_view time_control_json);
std::optional<std::string> time_control(Store& store, std::int64_t game_id);
// The games holding a clock whose `check_at` is `now` or before, by id: read through an
// index, so it costs nothing per game while no deadline is near.
std::vector<std::int64_t> list_games_with_clocks_to_check(Store& store, std::int64_t now);

std::vector<ClockRow> load_clocks(Store& store, std::int64_t game_id);  // by role
// Inserts or replaces the role's clock.
void save_clock(Store& store, std::int64_t game_id, const ClockRow& clock);

// The account's vacations that end after `from`, by start.
std::vector<VacationRow> list_vacations(Store& store, std::int64_t account_id, std::int64_t from);
VacationRow add_vacation(Store& store, std::int64_t account_id, std::int64_t starts_at,
                         std::int64_t ends_at, bool automatic, std::int64_t now);
// Milliseconds of the account's vacations that start within [from, to).
std::int64_t vacation_ms_starting_within(Store& store, std::int64_t account_id, std::int64_t from,
                                         std::int64_t to);

std::optional<RematchRow> find_rematch(Store& store, std::int64_t game_id);
// False if the game has an offer already.
bool offer_rematch(Store& store, std::int64_t game_id, std::int64_t offered_by, std::int64_t now);
void settle_rematch(Store& store, std::int64_t game_id, RematchState state,
                    std::optional<std::int64_t> new_game_id);

// When the account last used a login session (an HTTP request), if ever. Never the time of
// its actions: an action may be a hidden decision (RULES 13.1.4), whose moment the other seat
// may not learn.
std::optional<std::int64_t> last_activity(Store& store, std::int64_t account_id);

}  // namespace blockfog::storage
