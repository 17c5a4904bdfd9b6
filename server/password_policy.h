#pragma once

// What a new password must be (registration only: an account made before the rule still logs
// in). At least protocol::kMinPassword characters, not blank, not one character or a short
// pattern repeated, not containing the user name, and not one of the most common passwords
// (the list in password_policy.cpp, compared without case).

#include <optional>
#include <string>
#include <string_view>

namespace blockfog::server {

// Why `password` is refused for `username`, or nothing when it is acceptable.
std::optional<std::string> weak_password_reason(std::string_view username,
                                                std::string_view password);

}  // namespace blockfog::server
