#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/sha256.h"
#include "rules/hots/state.h"

namespace blockfog::hots {

class StateFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The complete state, secrets included (tools and tests; clients get `view`). Round-trips
// exactly: from_json(to_json(s)) == s.
nlohmann::json to_json(const State& s);
// Throws StateFormatError when the JSON is not a state this engine wrote (under any rules
// version it plays; "rules_version" gives the state's procedures).
State state_from_json(const nlohmann::json& json);

// SHA-256 (hex) identifying a state, undo history included; the format of rules versions hots-2
// to hots-4 (the version is the game's, kept with it, and not hashed): SHA-256 of "hots-state-2",
// the position, the generator, the counts and the scripted outcomes, the SHA-256 of the log's
// entries (8 bytes each), then the undo points. The log, which grows by a few entries per action to
// ~1,300 in a year of play, enters as its digest so that StateHasher can keep it between calls.
std::string state_hash(const State& s);
// The hots-1 format: the same fields with the log's entries themselves between the scripted
// outcomes and the undo points. Games created under hots-1 are verified with it.
std::string state_hash_v1(const State& s);

// state_hash(s), computed for a sequence of states of one game (the server hashes the state
// after every action): the log's digest is fed only the entries added since the last call.
// Before reusing anything it checks that the log it hashed is still the start of the state's
// (an undo truncates the log); comparing is forty times cheaper than hashing. Not for
// concurrent use.
class StateHasher {
 public:
  std::string hash(const State& s);
  // The same for a caller that knows whether `s.log` still starts with the entries this
  // hasher was fed (`grown`: the log only grew since the last call): nothing is compared, and
  // no copy of the entries is kept, only their count. A hasher is used in one way or the
  // other, never both.
  std::string hash_grown(const State& s, bool grown);
  // The same after the log was cut back to its first `kept` entries (an undo), which the
  // caller knows to be the first entries this hasher was fed: the log's digest resumes from
  // the last checkpoint within them instead of from nothing.
  std::string hash_cut(const State& s, std::size_t kept);

 private:
  std::string finish(const State& s);
  void restart();

  // log_ after every kCheckpointEntries entries fed: checkpoints_[i] after (i + 1) times as
  // many. An undo then costs the entries since the last one, not the whole log again (a late
  // game's log is tens of KiB, and undo is one of the commonest actions).
  static constexpr std::size_t kCheckpointEntries = 128;

  std::vector<LogEntry> fed_;  // the log entries hashed into log_ (hash() only)
  std::size_t fed_count_ = 0;  // how many
  core::Sha256 log_;
  std::vector<core::Sha256> checkpoints_;  // fed_count_ / kCheckpointEntries of them
  std::string bytes_;                      // what finish() hashes
};

}  // namespace blockfog::hots
