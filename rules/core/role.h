#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace blockfog::core {

// A seat at the table, or a spectator. The two playing roles double as side indices (0, 1).
enum class Role : std::uint8_t { Scotland = 0, England = 1, Observer = 2 };

inline constexpr int kPlayingRoles = 2;

std::string_view role_name(Role role);  // "scotland", "england", "observer"
std::optional<Role> role_from_name(std::string_view name);

constexpr Role other_side(Role role) {
  return role == Role::Scotland ? Role::England : Role::Scotland;
}

constexpr int side_index(Role role) { return static_cast<int>(role); }

}  // namespace blockfog::core
