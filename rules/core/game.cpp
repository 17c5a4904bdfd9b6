#include "rules/core/game.h"

namespace blockfog::core {

nlohmann::json Game::view(Role role, std::size_t log_from) const {
  std::string text;
  write_view(role, log_from, text);
  return nlohmann::json::parse(text);
}

}  // namespace blockfog::core
