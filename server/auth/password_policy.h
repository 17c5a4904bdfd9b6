#pragma once

// What a new password must be (registration only: an account made before the rule still logs
// in). At least protocol::kMinPassword characters, not blank, not one character or a short
// pattern repeated, not containing the user name, and not a common password, nor one dressed
// up with digits, symbols or look-alike characters (common_passwords.h).

#include <optional>
#include <string>
#include <string_view>

namespace blockfog::server {

// Why `password` is refused for `username`, or nothing when it is acceptable.
std::optional<std::string> weak_password_reason(std::string_view username,
                                                std::string_view password);

}  // namespace blockfog::server
