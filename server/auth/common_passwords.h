#pragma once

// Whether a password is a common one, or a common one dressed up: the list
// (common_passwords_list.cpp, written by scripts/make-common-passwords.sh from John the
// Ripper's public-domain word list and the project's additions) compared without case, as
// typed and by its core. The core is the password without the digits and symbols before its
// first letter and after its last ("monkey123" -> "monkey", "letmein!" -> "letmein"; @ and $
// may also start or end it: "$ecret1" -> "$ecret"), as written and with the usual
// substitutions undone ("p@ssw0rd" -> "password"); only cores of 4 characters or more, so
// that a random string's few letters are not taken for a word.

#include <span>
#include <string_view>

namespace blockfog::server {

// The list, lower case, sorted bytewise.
std::span<const std::string_view> common_password_list();

bool is_common_password(std::string_view password);

}  // namespace blockfog::server
