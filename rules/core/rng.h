#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "rules/core/chacha20.h"

namespace blockfog::core {

// One scripted random outcome: "the next die is 6" or "the next draw is item 12".
struct ScriptedOutcome {
  enum class Kind : std::uint8_t { Die, Pick };
  Kind kind = Kind::Die;
  int value = 0;  // die face 1-6, or the item picked (a game-defined id)

  bool operator==(const ScriptedOutcome&) const = default;
};

// Raised when a scripted test's script does not match what the rules asked for: a test bug.
class ScriptMismatch : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// The game's only source of randomness (RULES 1.9): ChaCha20 seeded with 256 bits, so that no
// seat can predict a future die or deal from those it has seen. Tests may queue scripted
// outcomes, which are consumed before the stream is used again.
class Rng {
 public:
  Rng() = default;
  explicit Rng(const Seed& seed) : stream_(seed) {}

  int roll_die();
  // Picks one of `items` uniformly (a draw from a pool, a card of the deck).
  int pick(std::span<const int> items);

  void script(std::vector<ScriptedOutcome> outcomes);
  bool has_script() const { return next_ < script_.size(); }

  const ChaCha20Stream& stream() const { return stream_; }
  const std::vector<ScriptedOutcome>& script_queue() const { return script_; }
  std::size_t script_position() const { return next_; }
  static Rng restore(const ChaCha20Stream& stream, std::vector<ScriptedOutcome> script,
                     std::size_t position);

  bool operator==(const Rng&) const = default;

 private:
  ChaCha20Stream stream_;
  std::vector<ScriptedOutcome> script_;
  std::size_t next_ = 0;
};

}  // namespace blockfog::core
