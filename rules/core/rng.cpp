#include "rules/core/rng.h"

#include <algorithm>
#include <string>

namespace blockfog::core {

int Rng::roll_die() {
  if (has_script()) {
    const auto outcome = script_[next_];
    if (outcome.kind != ScriptedOutcome::Kind::Die || outcome.value < 1 || outcome.value > 6) {
      throw ScriptMismatch("scripted randomness: a die roll was asked for");
    }
    ++next_;
    return outcome.value;
  }
  return static_cast<int>(stream_.uniform(6)) + 1;
}

int Rng::pick(std::span<const int> items) {
  if (items.empty()) throw std::logic_error("Rng::pick from nothing");
  if (has_script()) {
    const auto outcome = script_[next_];
    if (outcome.kind != ScriptedOutcome::Kind::Pick ||
        std::find(items.begin(), items.end(), outcome.value) == items.end()) {
      throw ScriptMismatch("scripted randomness: a draw among other items was asked for (" +
                           std::to_string(outcome.value) + " not eligible)");
    }
    ++next_;
    return outcome.value;
  }
  return items[stream_.uniform(static_cast<std::uint32_t>(items.size()))];
}

void Rng::script(std::vector<ScriptedOutcome> outcomes) {
  script_.erase(script_.begin(), script_.begin() + static_cast<std::ptrdiff_t>(next_));
  next_ = 0;
  script_.insert(script_.end(), outcomes.begin(), outcomes.end());
}

Rng Rng::restore(const ChaCha20Stream& stream, std::vector<ScriptedOutcome> script,
                 std::size_t position) {
  Rng rng;
  rng.stream_ = stream;
  rng.script_ = std::move(script);
  rng.next_ = std::min(position, rng.script_.size());
  return rng;
}

}  // namespace blockfog::core
