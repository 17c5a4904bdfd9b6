#include "rules/core/rule_error.h"

namespace blockfog::core {

std::string_view rule_error_code_name(RuleErrorCode code) {
  switch (code) {
    case RuleErrorCode::MalformedAction:
      return "malformed_action";
    case RuleErrorCode::NotYourTurn:
      return "not_your_turn";
    case RuleErrorCode::IllegalAction:
      return "illegal_action";
    case RuleErrorCode::GameOver:
      return "game_over";
  }
  return "illegal_action";
}

}  // namespace blockfog::core
