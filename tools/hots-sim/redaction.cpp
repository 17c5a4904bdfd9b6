#include "tools/hots-sim/redaction.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "rules/core/hex.h"

namespace blockfog::tools {
namespace {

using core::Role;

// A block whose identity `role` may not know now: an enemy's (or, for observers, anyone's)
// block on the map or in a pool. Dead blocks and blocks not in play are public (RULES 13.2).
bool is_hidden(const hots::State& s, Role role, hots::BlockId b) {
  const hots::BlockState block = s.blocks.get(b);
  if (block.loc != hots::kPool && block.loc >= hots::kAreaCount) return false;
  // RULES 13.2: the non-reserve blocks of the battle being fought are revealed to everybody.
  if (s.battle.area == block.loc && s.battle.victor == hots::kNone && !block.reserve) {
    return false;
  }
  return role == Role::Observer || hots::owner_of(b) != role;
}

// The block whose id is `text`, or kNone: a hash lookup, as every string of a view is looked up.
// Most strings are not block ids: tables of the ids' lengths per first and per fourth character
// turn them away before the hash.
hots::BlockId block_named(std::string_view text) {
  struct Ids {
    std::unordered_map<std::string_view, hots::BlockId> map;
    std::array<std::uint64_t, 256> first{};   // per first character: bit per id length < 64
    std::array<std::uint64_t, 256> fourth{};  // per fourth character (ids are longer than 4)
  };
  static const auto ids = [] {
    Ids out;
    const auto& data = hots::game_data();
    for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) {
      const std::string_view id = data.blocks[b].id;
      out.map.emplace(id, b);
      const auto bit = std::uint64_t{1} << std::min<std::size_t>(id.size(), 63);
      out.first[static_cast<unsigned char>(id[0])] |= bit;
      out.fourth[static_cast<unsigned char>(id.size() > 3 ? id[3] : 0)] |= bit;
    }
    return out;
  }();
  if (text.empty()) return hots::kNone;
  const auto bit = std::uint64_t{1} << std::min<std::size_t>(text.size(), 63);
  if ((ids.first[static_cast<unsigned char>(text[0])] & bit) == 0) return hots::kNone;
  if ((ids.fourth[static_cast<unsigned char>(text.size() > 3 ? text[3] : 0)] & bit) == 0) {
    return hots::kNone;
  }
  const auto it = ids.map.find(text);
  return it == ids.map.end() ? hots::kNone : it->second;
}

// Where in the view a value stands, as far as the checks care.
enum class Where { Root, Other, Areas, Area, EnemySide };

// One pass over the view text: a small JSON parser that hands every string (keys included,
// escapes resolved) to the checks and knows when it is inside an enemy side of an area.
class Scanner {
 public:
  Scanner(const hots::State& s, Role role, std::string_view text, std::vector<std::string>& leaks)
      : role_(role), text_(text), leaks_(leaks), key_hex_(core::to_hex(s.rng.stream().key())) {
    for (hots::BlockId b = 0; b < hots::kBlockCount; ++b) hidden_[b] = is_hidden(s, role, b);
    enemy_ = role == Role::Scotland ? "england" : role == Role::England ? "scotland" : "";
  }

  void run() {
    skip_space();
    value(Where::Root);
    skip_space();
    if (ok_ && pos_ != text_.size()) fail();
    if (!ok_) leaks_.push_back(std::string(core::role_name(role_)) + " view is not valid JSON");
  }

 private:
  void fail() { ok_ = false; }
  bool more() const { return ok_ && pos_ < text_.size(); }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void value(Where where) {
    skip_space();
    if (!more()) return fail();
    const char c = text_[pos_];
    if (c == '{') return object(where);
    if (c == '[') return array(where);
    if (c == '"') return check(string());
    literal();
  }

  void object(Where where) {
    ++pos_;
    if (eat('}')) return;
    do {
      skip_space();
      if (!more() || text_[pos_] != '"') return fail();
      const std::string_view key = string();
      check(key);
      if (!eat(':')) return fail();
      Where inner = Where::Other;
      if (where == Where::Root && key == "areas") inner = Where::Areas;
      if (where == Where::Area && !enemy_.empty() && key == enemy_) inner = Where::EnemySide;
      // Enemy sides of areas carry counts only: no per-block entries, hence no strengths.
      if (where == Where::EnemySide && key != "count" && key != "moved" && key != "reserves") {
        leaks_.push_back(std::string(core::role_name(role_)) + " view shows '" + std::string(key) +
                         "' of enemy blocks in area " + std::to_string(area_index_));
      }
      value(inner);
    } while (ok_ && eat(','));
    if (!eat('}')) fail();
  }

  void array(Where where) {
    ++pos_;
    if (eat(']')) return;
    if (where == Where::Areas) area_index_ = 0;
    do {
      value(where == Where::Areas ? Where::Area : Where::Other);
      area_index_ += where == Where::Areas;
    } while (ok_ && eat(','));
    if (!eat(']')) fail();
  }

  // The string at pos_ (which is a quote); escapes are resolved into scratch_.
  std::string_view string() {
    ++pos_;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '"') return text_.substr(start, pos_++ - start);
    scratch_.assign(text_.substr(start, pos_ - start));
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        c = text_[pos_++];
        switch (c) {
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'n':
            c = '\n';
            break;
          case 'r':
            c = '\r';
            break;
          case 't':
            c = '\t';
            break;
          case 'u': {
            // Only what our writers produce below U+0080 can spell an id: decode those.
            if (pos_ + 4 > text_.size()) return fail(), std::string_view();
            const auto code = std::stoi(std::string(text_.substr(pos_, 4)), nullptr, 16);
            pos_ += 4;
            c = code < 0x80 ? static_cast<char>(code) : '?';
            break;
          }
          default:
            break;  // \" \\ \/
        }
      }
      scratch_ += c;
    }
    if (pos_ >= text_.size()) return fail(), std::string_view();
    ++pos_;
    return scratch_;
  }

  void literal() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != ']' &&
           text_[pos_] != ' ') {
      ++pos_;
    }
    const auto word = text_.substr(start, pos_ - start);
    if (word == "true" || word == "false" || word == "null") return;
    if (word.empty()) return fail();
    for (std::size_t i = 0; i < word.size(); ++i) {
      const char c = word[i];
      const bool sign =
          (c == '-' || c == '+') && (i == 0 || word[i - 1] == 'e' || word[i - 1] == 'E');
      if (!(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E' && !sign) return fail();
    }
  }

  void check(std::string_view text) {
    if (!ok_) return;
    if (const auto b = block_named(text); b != hots::kNone && hidden_[b]) {
      leaks_.push_back(std::string(core::role_name(role_)) + " view names hidden block " +
                       std::string(text));
    }
    if (text.size() == key_hex_.size() && text == key_hex_) {
      leaks_.push_back(std::string(core::role_name(role_)) + " view holds the generator key");
    }
  }

  Role role_;
  std::string_view text_;
  std::vector<std::string>& leaks_;
  std::string key_hex_;
  std::array<bool, hots::kBlockCount> hidden_{};
  std::string_view enemy_;
  int area_index_ = 0;  // of the area being read, in the view's "areas" list
  std::string scratch_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace

std::vector<std::string> find_leaks(const hots::State& s, Role role, std::string_view view_text) {
  std::vector<std::string> leaks;
  if (s.phase == hots::Phase::GameOver) return leaks;  // RULES 13.1.6: all may be shown
  Scanner(s, role, view_text, leaks).run();
  return leaks;
}

}  // namespace blockfog::tools
