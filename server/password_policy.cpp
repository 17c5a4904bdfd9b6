#include "server/password_policy.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "protocol/http.h"

namespace blockfog::server {
namespace {

// Passwords of at least 8 characters that lead the published lists of leaked passwords, and
// a few this game invites. Lower case; compared with the lower-cased password.
constexpr std::array<std::string_view, 96> kCommon = {
    "password",   "password1",  "password12",    "password123", "passw0rd",   "p@ssword",
    "p@ssw0rd",   "12345678",   "123456789",     "1234567890",  "0123456789", "87654321",
    "987654321",  "11111111",   "00000000",      "12341234",    "12344321",   "12121212",
    "123123123",  "1q2w3e4r",   "1q2w3e4r5t",    "q1w2e3r4",    "qwertyui",   "qwertyuiop",
    "qwerty123",  "qwerty12",   "1qaz2wsx",      "zaq12wsx",    "asdfghjk",   "asdfghjkl",
    "zxcvbnm1",   "iloveyou",   "iloveyou1",     "sunshine",    "princess",   "football",
    "baseball",   "basketball", "superman",      "batman123",   "trustno1",   "welcome1",
    "welcome123", "letmein1",   "letmein123",    "whatever",    "starwars",   "computer",
    "internet",   "michelle",   "jennifer",      "jordan23",    "charlie1",   "master12",
    "mustang1",   "shadow12",   "dragon12",      "monkey12",    "freedom1",   "changeme",
    "changeme1",  "secret12",   "secret123",     "abcd1234",    "abc12345",   "abcdefgh",
    "aaaaaaaa",   "default1",   "administrator", "admin123",    "admin1234",  "root1234",
    "test1234",   "testtest",   "guest123",      "hello123",    "helloworld", "loveme12",
    "lovely12",   "sunshine1",  "football1",     "baseball1",   "princess1",  "11223344",
    "qazwsxedc",  "access14",   "blockfog",      "blockfog1",   "scotland",   "scotland1",
    "england1",   "braveheart", "wallace1",      "robertbruce", "edward123",  "hammerofthescots",
};

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
  if (std::find(kCommon.begin(), kCommon.end(), folded) != kCommon.end()) {
    return "that password is one of the most common ones; choose another";
  }
  return std::nullopt;
}

}  // namespace blockfog::server
