#include "server/auth/password_policy.h"

#include <algorithm>
#include <cctype>

#include "protocol/http.h"
#include "server/auth/common_passwords.h"

namespace blockfog::server {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// True when `s` is a piece of at most 3 characters repeated ("aaaaaaaa", "abcabcab").
bool is_short_repeat(std::string_view s) {
  for (std::size_t period = 1; period <= 3 && period < s.size(); ++period) {
    bool repeats = true;
    for (std::size_t i = period; i < s.size() && repeats; ++i) repeats = s[i] == s[i - period];
    if (repeats) return true;
  }
  return false;
}

// True for a run of consecutive characters up or down ("12345678", "abcdefgh", "87654321").
bool is_sequence(std::string_view s) {
  if (s.size() < 2) return false;
  const int step = static_cast<unsigned char>(s[1]) - static_cast<unsigned char>(s[0]);
  if (step != 1 && step != -1) return false;
  for (std::size_t i = 2; i < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) - static_cast<unsigned char>(s[i - 1]) != step) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::string> weak_password_reason(std::string_view username,
                                                std::string_view password) {
  if (password.size() < protocol::kMinPassword) {
    return "a password has at least " + std::to_string(protocol::kMinPassword) + " characters";
  }
  if (std::all_of(password.begin(), password.end(),
                  [](unsigned char c) { return std::isspace(c) != 0; })) {
    return "a password cannot be only spaces";
  }
  const auto folded = lower(password);
  if (is_short_repeat(folded) || is_sequence(folded)) {
    return "that password is too easy to guess: avoid repeats and sequences";
  }
  if (!username.empty() && folded.find(lower(username)) != std::string::npos) {
    return "a password cannot contain the user name";
  }
  if (is_common_password(password)) {
    return "that password is one of the most common ones; choose another";
  }
  return std::nullopt;
}

}  // namespace blockfog::server
