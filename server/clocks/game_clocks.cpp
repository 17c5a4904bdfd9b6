#include "server/clocks/game_clocks.h"

#include <algorithm>
#include <chrono>

#include "games/registry.h"
#include "storage/computer_seats.h"
#include "storage/play_by_web.h"

namespace blockfog::server {

using core::Role;
using nlohmann::json;

namespace {

bool contains(const std::vector<Role>& roles, Role role) {
  return std::find(roles.begin(), roles.end(), role) != roles.end();
}

Role role_from(const std::string& name) {
  return name == "scotland" ? Role::Scotland : Role::England;
}

std::vector<Pause> pauses_of(storage::Store& store, const TimeControl& tc, const Seats& seats,
                             Role role, std::int64_t from) {
  std::vector<Pause> pauses;
  const auto& seat = seats.of(role);
  if (!tc.pauses_for_vacation() || !seat) return pauses;
  for (const auto& v : storage::list_vacations(store, seat->account_id, from)) {
    pauses.push_back({v.starts_at, v.ends_at});
  }
  return pauses;
}

std::optional<storage::ClockRow> clock_of(const std::vector<storage::ClockRow>& clocks, Role role) {
  for (const auto& c : clocks) {
    if (c.role == core::role_name(role)) return c;
  }
  return std::nullopt;
}

// The moment the running clock's time runs out with the vacations known now; a vacation taken
// later can only move it on.
std::int64_t deadline_of(storage::Store& store, const TimeControl& tc, const Seats& seats,
                         const storage::ClockRow& clock) {
  const auto since = *clock.running_since;
  return moment_after(since, tc.allowance_ms(clock.bank_ms),
                      pauses_of(store, tc, seats, role_from(clock.role), since));
}

// The first look of the clock sweep at a clock that starts running at `since`: its deadline
// without any pause, never later than the true one (pauses only move a deadline on).
std::int64_t first_check(const TimeControl& tc, std::int64_t bank_ms, std::int64_t since) {
  return since + tc.allowance_ms(bank_ms);
}

// Ends a running wait at `now`.
storage::ClockRow stopped(storage::Store& store, const TimeControl& tc, const Seats& seats,
                          const storage::ClockRow& clock, std::int64_t now) {
  if (!clock.running_since) return clock;
  const auto role = role_from(clock.role);
  const auto used = running_ms(*clock.running_since, now,
                               pauses_of(store, tc, seats, role, *clock.running_since));
  return {clock.role,  tc.bank_after(clock.bank_ms, used), std::nullopt, std::nullopt, std::nullopt,
          std::nullopt};
}

}  // namespace

std::vector<Role> public_awaiting(const core::Game& game) { return game.active_roles(); }

TimeControl load_time_control(storage::Store& store, std::int64_t game_id) {
  return stored_time_control(storage::time_control(store, game_id));
}

void start_clocks(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                  const std::vector<Role>& awaiting, std::int64_t now) {
  if (!tc.timed()) return;
  for (Role role : {Role::Scotland, Role::England}) {
    std::optional<std::int64_t> since;
    std::optional<std::int64_t> check;
    if (contains(awaiting, role)) {
      since = now;
      check = first_check(tc, tc.initial_bank_ms(), now);
    }
    storage::save_clock(store, game_id,
                        {std::string(core::role_name(role)), tc.initial_bank_ms(), since, check,
                         std::nullopt, std::nullopt});
  }
}

void pass_turn(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
               const Seats& seats, Role actor, const std::vector<Role>& before,
               const std::vector<Role>& after, std::int64_t now) {
  if (!tc.timed()) return;
  const auto clocks = storage::load_clocks(store, game_id);
  for (Role role : {Role::Scotland, Role::England}) {
    auto clock = clock_of(clocks, role);
    if (!clock) continue;
    const bool was = contains(before, role);
    const bool is = contains(after, role);
    const bool own = role == actor;
    if (was && !is) {
      auto ended = stopped(store, tc, seats, *clock, now);
      if (own) {
        ended.paused_since = clock->running_since;
        ended.paused_bank_ms = clock->bank_ms;
      }
      storage::save_clock(store, game_id, ended);
    } else if (!was && is) {
      const bool resumes = own && clock->paused_since && clock->paused_bank_ms;
      clock->running_since = resumes ? *clock->paused_since : now;
      if (resumes) clock->bank_ms = *clock->paused_bank_ms;
      clock->paused_since.reset();
      clock->paused_bank_ms.reset();
      clock->check_at = first_check(tc, clock->bank_ms, *clock->running_since);
      storage::save_clock(store, game_id, *clock);
    } else if (!own && clock->paused_since) {
      clock->paused_since.reset();
      clock->paused_bank_ms.reset();
      storage::save_clock(store, game_id, *clock);
    }
  }
}

void stop_clocks(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                 const Seats& seats, std::int64_t now) {
  if (!tc.timed()) return;
  for (const auto& clock : storage::load_clocks(store, game_id)) {
    if (clock.running_since) {
      storage::save_clock(store, game_id, stopped(store, tc, seats, clock, now));
    }
  }
}

std::optional<Role> expired_role(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                                 const Seats& seats, std::int64_t now) {
  if (!tc.timed()) return std::nullopt;
  for (const auto& clock : storage::load_clocks(store, game_id)) {
    if (!clock.running_since) continue;
    const auto role = role_from(clock.role);
    // The computer's time never runs out: it plays the seat in the time it thinks.
    if (const auto& player = seats.of(role); player && player->computer) continue;
    // Each automatic vacation moves the deadline on by a day; the days of a year are few.
    for (;;) {
      const auto deadline = deadline_of(store, tc, seats, clock);
      if (deadline > now) break;
      const auto& seat = seats.of(role);
      if (tc.pauses_for_vacation() && seat &&
          vacation_days_left(store, seat->account_id, deadline) > 0) {
        storage::add_vacation(store, seat->account_id, deadline, deadline + kDayMs, true, now);
        continue;
      }
      return role;
    }
  }
  return std::nullopt;
}

json clocks_json(storage::Store& store, std::int64_t game_id, const TimeControl& tc,
                 const Seats& seats, std::int64_t now) {
  if (!tc.timed()) return nullptr;
  const auto clocks = storage::load_clocks(store, game_id);
  if (clocks.empty()) return nullptr;
  json j = {{"time_control", tc.to_json()}, {"now", now}};
  for (const auto& clock : clocks) {
    const auto role = role_from(clock.role);
    const auto from = clock.running_since.value_or(now);
    const auto pauses = pauses_of(store, tc, seats, role, std::min(from, now));
    json c = {{"bank_ms", clock.bank_ms}, {"running", clock.running_since.has_value()}};
    const auto allowance = tc.allowance_ms(clock.bank_ms);
    if (clock.running_since) {
      c["remaining_ms"] =
          std::max<std::int64_t>(0, allowance - running_ms(*clock.running_since, now, pauses));
      c["deadline"] = moment_after(*clock.running_since, allowance, pauses);
    } else {
      c["remaining_ms"] = allowance;
      c["deadline"] = nullptr;
    }
    c["vacation_until"] = nullptr;
    for (const auto& p : pauses) {
      if (p.start <= now && now < p.end) c["vacation_until"] = p.end;
    }
    j[clock.role] = c;
  }
  return j;
}

std::string result_against(Role loser, std::string_view reason) {
  const Role winner = loser == Role::Scotland ? Role::England : Role::Scotland;
  return json{{"winner", core::role_name(winner)}, {"reason", reason}}.dump();
}

std::optional<ComputerSeat> take_over_timed_out(storage::Store& store, std::int64_t game_id,
                                                Role role, std::int64_t now) {
  if (!storage::stand_in_allowed(store, game_id)) return std::nullopt;
  // Consents are taken only for a game the computer plays; this holds it where they are used.
  const auto row = store.find_game(game_id);
  const auto* kind = row ? games::find_game_kind(row->kind) : nullptr;
  if (!kind || !kind->choose_action) return std::nullopt;
  ComputerSeat seat{std::string(kStandInLevel), true};
  storage::add_computer_seat(store, game_id,
                             {std::string(core::role_name(role)), seat.level, true, now});
  return seat;
}

std::vector<EndedGame> finish_expired_games(storage::Store& store, std::int64_t now,
                                            const MayWriteGame& may_write) {
  std::vector<EndedGame> ended;
  for (const auto game_id : storage::list_games_with_clocks_to_check(store, now)) {
    storage::Transaction transaction(store.database());
    if (may_write && !may_write(store, game_id)) continue;
    const auto row = store.find_game(game_id);
    const bool active = row && row->status == storage::GameStatus::Active;
    const auto tc = load_time_control(store, game_id);
    const auto seats = load_seats(store, game_id);
    std::optional<Role> loser;
    if (active) loser = expired_role(store, game_id, tc, seats, now);
    if (loser) {
      if (auto seat = take_over_timed_out(store, game_id, *loser, now)) {
        ended.push_back({game_id, "", StandIn{*loser, std::move(*seat)}});
      } else {
        stop_clocks(store, game_id, tc, seats, now);
        auto result = result_against(*loser, "timeout");
        store.set_game_status(game_id, storage::GameStatus::Finished, now, result);
        ended.push_back({game_id, std::move(result), std::nullopt});
      }
    }
    // The game goes on (its clocks were looked at early, a vacation moved a deadline on, or
    // the computer stands in) or is over: the sweep looks at each running clock next at its
    // deadline as the vacations known now make it, and never at one that cannot run out.
    const auto players = load_seats(store, game_id);  // with the stand-in, if one took a seat
    for (auto clock : storage::load_clocks(store, game_id)) {
      if (!clock.check_at) continue;
      const auto& player = players.of(role_from(clock.role));
      const bool can_run_out = active && clock.running_since && !(player && player->computer);
      clock.check_at =
          can_run_out ? std::optional(deadline_of(store, tc, players, clock)) : std::nullopt;
      storage::save_clock(store, game_id, clock);
    }
    transaction.commit();
  }
  return ended;
}

Year year_of(std::int64_t ms) {
  using namespace std::chrono;
  const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(ms)));
  const year_month_day ymd(day);
  const auto start = sys_days(ymd.year() / January / 1);
  const auto end = sys_days((ymd.year() + years(1)) / January / 1);
  return {static_cast<int>(ymd.year()),
          duration_cast<milliseconds>(start.time_since_epoch()).count(),
          duration_cast<milliseconds>(end.time_since_epoch()).count()};
}

std::int64_t vacation_days_left(storage::Store& store, std::int64_t account_id, std::int64_t at) {
  const auto year = year_of(at);
  const auto used =
      storage::vacation_ms_starting_within(store, account_id, year.start_ms, year.end_ms);
  return std::max<std::int64_t>(0, kVacationDaysPerYear - (used + kDayMs - 1) / kDayMs);
}

}  // namespace blockfog::server
