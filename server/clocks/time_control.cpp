#include "server/clocks/time_control.h"

#include <algorithm>
#include <stdexcept>

namespace blockfog::server {

using nlohmann::json;

json TimeControl::to_json() const {
  switch (kind) {
    case Kind::None:
      return {{"kind", "none"}};
    case Kind::Live:
      return {{"kind", "live"}, {"minutes", minutes}, {"increment_seconds", increment_seconds}};
    case Kind::Correspondence:
      return {{"kind", "correspondence"},
              {"days_per_turn", days_per_turn},
              {"bank_days", bank_days},
              {"vacation", vacation}};
  }
  return {{"kind", "none"}};
}

std::int64_t TimeControl::initial_bank_ms() const {
  switch (kind) {
    case Kind::Live:
      return minutes * kMinuteMs;
    case Kind::Correspondence:
      return bank_days * kDayMs;
    case Kind::None:
      break;
  }
  return 0;
}

std::int64_t TimeControl::allowance_ms(std::int64_t bank_ms) const {
  return kind == Kind::Correspondence ? days_per_turn * kDayMs + bank_ms : bank_ms;
}

std::int64_t TimeControl::bank_after(std::int64_t bank_ms, std::int64_t used_ms) const {
  if (kind == Kind::Live)
    return std::max<std::int64_t>(0, bank_ms - used_ms) + increment_seconds * 1000;
  const auto over = std::max<std::int64_t>(0, used_ms - days_per_turn * kDayMs);
  return std::max<std::int64_t>(0, bank_ms - over);
}

namespace {

// The member as an integer within [low, high], or an error message.
std::variant<std::int64_t, std::string> whole(const json& j, const char* name, std::int64_t low,
                                              std::int64_t high, std::int64_t fallback) {
  const auto it = j.find(name);
  if (it == j.end()) return fallback;
  if (!it->is_number_integer()) {
    return "time_control." + std::string(name) + " must be a whole number";
  }
  const auto v = it->get<std::int64_t>();
  if (v < low || v > high) {
    return "time_control." + std::string(name) + " must be between " + std::to_string(low) +
           " and " + std::to_string(high);
  }
  return v;
}

}  // namespace

std::variant<TimeControl, std::string> parse_time_control(const json* request) {
  TimeControl tc;
  if (!request || request->is_null()) return tc;
  if (!request->is_object()) return std::string("field 'time_control' must be an object");
  const auto kind = request->find("kind");
  if (kind == request->end() || !kind->is_string()) {
    return std::string("time_control.kind must be none, live or correspondence");
  }
  const auto name = kind->get<std::string>();
  std::vector<std::string> allowed{"kind"};
  if (name == "none") {
    tc.kind = TimeControl::Kind::None;
  } else if (name == "live") {
    tc.kind = TimeControl::Kind::Live;
    allowed = {"kind", "minutes", "increment_seconds"};
    auto minutes = whole(*request, "minutes", 1, 600, 60);
    if (auto* e = std::get_if<std::string>(&minutes)) return *e;
    auto increment = whole(*request, "increment_seconds", 0, 600, 30);
    if (auto* e = std::get_if<std::string>(&increment)) return *e;
    tc.minutes = std::get<std::int64_t>(minutes);
    tc.increment_seconds = std::get<std::int64_t>(increment);
  } else if (name == "correspondence") {
    tc.kind = TimeControl::Kind::Correspondence;
    allowed = {"kind", "days_per_turn", "bank_days", "vacation"};
    auto days = whole(*request, "days_per_turn", 1, 30, 3);
    if (auto* e = std::get_if<std::string>(&days)) return *e;
    auto bank = whole(*request, "bank_days", 0, 60, 7);
    if (auto* e = std::get_if<std::string>(&bank)) return *e;
    tc.days_per_turn = std::get<std::int64_t>(days);
    tc.bank_days = std::get<std::int64_t>(bank);
    if (const auto v = request->find("vacation"); v != request->end()) {
      if (!v->is_boolean()) return std::string("time_control.vacation must be true or false");
      tc.vacation = v->get<bool>();
    }
  } else {
    return std::string("time_control.kind must be none, live or correspondence");
  }
  for (const auto& [key, value] : request->items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return "time_control." + key + " is not a setting of a " + name + " time control";
    }
  }
  return tc;
}

TimeControl stored_time_control(const std::optional<std::string>& stored) {
  if (!stored) return {};
  const auto j = json::parse(*stored, nullptr, false);
  auto parsed = parse_time_control(&j);
  if (auto* e = std::get_if<std::string>(&parsed)) {
    throw std::runtime_error("stored time control: " + *e);
  }
  return std::get<TimeControl>(parsed);
}

namespace {

std::vector<Pause> merged(std::vector<Pause> pauses) {
  std::sort(pauses.begin(), pauses.end(),
            [](const Pause& a, const Pause& b) { return a.start < b.start; });
  std::vector<Pause> out;
  for (const auto& p : pauses) {
    if (p.end <= p.start) continue;
    if (!out.empty() && p.start <= out.back().end) {
      out.back().end = std::max(out.back().end, p.end);
    } else {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

std::int64_t running_ms(std::int64_t from, std::int64_t to, std::vector<Pause> pauses) {
  if (to <= from) return 0;
  std::int64_t total = to - from;
  for (const auto& p : merged(std::move(pauses))) {
    const auto start = std::max(p.start, from);
    const auto end = std::min(p.end, to);
    if (end > start) total -= end - start;
  }
  return total;
}

std::int64_t moment_after(std::int64_t from, std::int64_t amount_ms, std::vector<Pause> pauses) {
  std::int64_t at = from;
  std::int64_t left = std::max<std::int64_t>(0, amount_ms);
  for (const auto& p : merged(std::move(pauses))) {
    if (p.end <= at) continue;
    // A pause that begins just when the time would run out (an automatic vacation) still
    // postpones it.
    if (p.start > at + left) break;
    if (p.start > at) left -= p.start - at;
    at = p.end;
  }
  return at + left;
}

}  // namespace blockfog::server
