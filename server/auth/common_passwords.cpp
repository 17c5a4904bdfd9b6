#include "server/auth/common_passwords.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace blockfog::server {
namespace {

constexpr std::size_t kMinCore = 4;

bool listed(std::string_view word) {
  const auto list = common_password_list();
  return std::binary_search(list.begin(), list.end(), word);
}

bool is_letter(char c) { return c >= 'a' && c <= 'z'; }
// A letter, or a symbol written for one at a word's edge ("$ecret", "@dmin").
bool is_letter_or_look_alike(char c) { return is_letter(c) || c == '@' || c == '$'; }

// `core` with the substitutions of letters by look-alike digits and symbols undone; `one` is
// what 1 stands for (i or l).
std::string undo_substitutions(std::string_view core, char one) {
  std::string out(core);
  for (char& c : out) {
    switch (c) {
      case '@':
      case '4':
        c = 'a';
        break;
      case '3':
        c = 'e';
        break;
      case '1':
        c = one;
        break;
      case '!':
        c = 'i';
        break;
      case '0':
        c = 'o';
        break;
      case '$':
      case '5':
        c = 's';
        break;
      case '7':
      case '+':
        c = 't';
        break;
      default:
        break;
    }
  }
  return out;
}

}  // namespace

bool is_common_password(std::string_view password) {
  std::string folded(password);
  std::transform(folded.begin(), folded.end(), folded.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (listed(folded)) return true;
  for (auto* edge : {is_letter, is_letter_or_look_alike}) {
    const auto first = std::find_if(folded.begin(), folded.end(), edge);
    const auto last = std::find_if(folded.rbegin(), folded.rend(), edge).base();
    if (first >= last || static_cast<std::size_t>(last - first) < kMinCore) continue;
    const std::string_view core(&*first, static_cast<std::size_t>(last - first));
    if (listed(core) || listed(undo_substitutions(core, 'i')) ||
        listed(undo_substitutions(core, 'l'))) {
      return true;
    }
  }
  return false;
}

}  // namespace blockfog::server
