#include "tools/hots-sim/redaction.h"

#include <unordered_set>

#include "rules/core/hex.h"

namespace blockfog::tools {
namespace {

using core::Role;

// A block whose identity `role` may not know now: an enemy's (or, for observers, anyone's)
// block on the map or in a pool. Dead blocks and blocks not in play are public (RULES 13.2).
bool is_hidden(const hots::State& s, Role role, hots::BlockId b) {
  const auto& block = s.blocks[b];
  if (block.loc != hots::kPool && block.loc >= hots::kAreaCount) return false;
  // RULES 13.2: the non-reserve blocks of the battle being fought are revealed to everybody.
  if (s.battle.area == block.loc && s.battle.victor == hots::kNone && !block.reserve) {
    return false;
  }
  return role == Role::Observer || hots::owner_of(b) != role;
}

// Every string in the view, keys included: block ids always stand as whole JSON strings.
void collect_strings(const nlohmann::json& j, std::unordered_set<std::string>& out) {
  if (j.is_string()) {
    out.insert(j.get<std::string>());
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      out.insert(key);
      collect_strings(value, out);
    }
  } else if (j.is_array()) {
    for (const auto& value : j) collect_strings(value, out);
  }
}

}  // namespace

std::vector<std::string> find_leaks(const hots::State& s, Role role, const nlohmann::json& view) {
  std::vector<std::string> leaks;
  if (s.phase == hots::Phase::GameOver) return leaks;  // RULES 13.1.6: all may be shown
  std::unordered_set<std::string> strings;
  collect_strings(view, strings);
  const auto& data = hots::game_data();
  for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) {
    if (is_hidden(s, role, b) && strings.count(data.blocks[b].id) > 0) {
      leaks.push_back(std::string(core::role_name(role)) + " view names hidden block " +
                      data.blocks[b].id);
    }
  }
  // Enemy sides of areas carry counts only: no per-block entries, hence no strengths.
  for (const auto& area : view.at("areas")) {
    for (const char* side : {"scotland", "england"}) {
      if (side == core::role_name(role)) continue;
      for (const auto& [key, value] : area.at(side).items()) {
        if (key != "count" && key != "moved" && key != "reserves") {
          leaks.push_back(std::string(core::role_name(role)) + " view shows '" + key +
                          "' of enemy blocks in " + area.at("id").get<std::string>());
        }
      }
    }
  }
  if (strings.count(core::to_hex(s.rng.stream().key())) > 0) {
    leaks.push_back(std::string(core::role_name(role)) + " view holds the generator key");
  }
  return leaks;
}

}  // namespace blockfog::tools
