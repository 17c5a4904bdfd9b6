#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace blockfog::core {

// Why an action was refused. The state is always unchanged when one of these is returned.
enum class RuleErrorCode : std::uint8_t {
  MalformedAction,  // not a well-formed action of this game (unknown kind, missing field, bad id)
  NotYourTurn,      // the role is not awaited now (or is an observer)
  IllegalAction,    // well-formed, but not among the role's legal actions now
  GameOver,         // the game has ended; nothing more can be done
};

std::string_view rule_error_code_name(RuleErrorCode code);

struct RuleError {
  RuleErrorCode code;
  std::string message;
};

}  // namespace blockfog::core
