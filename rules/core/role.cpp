#include "rules/core/role.h"

namespace blockfog::core {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::Scotland:
      return "scotland";
    case Role::England:
      return "england";
    case Role::Observer:
      return "observer";
  }
  return "observer";
}

std::optional<Role> role_from_name(std::string_view name) {
  for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
    if (role_name(role) == name) return role;
  }
  return std::nullopt;
}

}  // namespace blockfog::core
