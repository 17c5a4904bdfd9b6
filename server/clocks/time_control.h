#pragma once

// A game's time control and the arithmetic of its clocks (docs/protocol.md, "Time controls").
// Pure functions of stored numbers: what a clock shows is recomputed from the stored bank, the
// start of the current wait and the player's vacations, never counted down in memory.
//
// - live: each seat has `minutes`; while awaited its time runs; when its wait ends it gets
//   `increment_seconds` back. At zero the seat loses by time.
// - correspondence: each wait ("turn": the stretch during which the seat stays awaited) may
//   last `days_per_turn`; time beyond that comes out of the seat's bank of `bank_days`. When
//   the turn's time and the bank are used up the seat loses by time, unless it has vacation
//   days left (taken automatically then). Vacations pause the clocks, unless the game's
//   organiser forbade them (`vacation`: false).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::server {

inline constexpr std::int64_t kMinuteMs = 60 * 1000;
inline constexpr std::int64_t kDayMs = 24 * 60 * kMinuteMs;

struct TimeControl {
  enum class Kind { None, Live, Correspondence };
  Kind kind = Kind::None;
  // live
  std::int64_t minutes = 0;            // 1..600
  std::int64_t increment_seconds = 0;  // 0..600
  // correspondence
  std::int64_t days_per_turn = 0;  // 1..30
  std::int64_t bank_days = 0;      // 0..60
  bool vacation = true;            // vacations pause this game's clocks

  bool timed() const { return kind != Kind::None; }
  // What the game stores and the lobby shows: {"kind":"none"}, {"kind":"live","minutes":60,
  // "increment_seconds":30}, {"kind":"correspondence","days_per_turn":3,"bank_days":7,
  // "vacation":true}.
  nlohmann::json to_json() const;
  // A seat's bank when the game starts.
  std::int64_t initial_bank_ms() const;
  // How long a wait that starts with `bank_ms` may last before time runs out.
  std::int64_t allowance_ms(std::int64_t bank_ms) const;
  // The bank after a wait that used `used_ms` of running time (never below zero).
  std::int64_t bank_after(std::int64_t bank_ms, std::int64_t used_ms) const;
  // Whether the player's vacations pause this game's clocks.
  bool pauses_for_vacation() const { return kind == Kind::Correspondence && vacation; }
};

// The request's time control (absent: none), or the message of a typed bad_field error. Unknown
// members, wrong types and values out of range are refused.
std::variant<TimeControl, std::string> parse_time_control(const nlohmann::json* request);
// The stored form (to_json's); none when absent. Throws std::runtime_error if it does not parse.
TimeControl stored_time_control(const std::optional<std::string>& stored);

// A span [start, end) during which a clock stands still.
struct Pause {
  std::int64_t start = 0;
  std::int64_t end = 0;
};

// Milliseconds of [from, to) outside every pause (pauses in any order, may overlap).
std::int64_t running_ms(std::int64_t from, std::int64_t to, std::vector<Pause> pauses);
// The moment at which a clock started at `from` has run `amount_ms` outside the pauses.
std::int64_t moment_after(std::int64_t from, std::int64_t amount_ms, std::vector<Pause> pauses);

}  // namespace blockfog::server
