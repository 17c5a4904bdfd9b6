#pragma once

// Reads the few fields the load client needs from a server frame without building a JSON
// document: at 20,000 actions a second on the machine that also runs the server, parsing every
// whole view would cost the client more than the server spends. It relies on what the server
// writes (nlohmann's dump: keys in sorted order, no spaces), so "view" (or "view_patch") is the
// envelope's last key and every envelope field precedes it; it is a load tool's shortcut, not a
// JSON parser.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockfog::load {

// A view's legal actions: the text of its legal_actions array and where each action is in it.
// One buffer for all (a string per action cost the client an allocation per action listed, a
// tenth of its time at 1,000 games); assign() keeps the capacity of the buffers.
class ActionList {
 public:
  // Splits `array` (a JSON array's text); an empty list if it is not one.
  void assign(std::string_view array);
  // The same for the array that starts at text[at]: returns where it ends (past its ']'), or
  // npos (the list empty) if no whole array starts there.
  std::size_t assign_at(std::string_view text, std::size_t at);
  // Replaces elements by index as a view_patch's `elements` gives them: `pairs` is the text of
  // an array of [index, action]; false (the list unchanged) if an index is not in the list.
  bool replace(std::string_view pairs);
  void clear();
  std::size_t size() const { return spans_.size(); }
  bool empty() const { return spans_.empty(); }
  std::string_view operator[](std::size_t i) const {
    return std::string_view(text_).substr(spans_[i].first, spans_[i].second);
  }

 private:
  std::string text_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> spans_;  // offset, length in text_
};

struct ScannedFrame {
  std::string type;                 // "view", "view_patch", "error", "welcome", ...
  std::optional<std::int64_t> seq;  // a view's (or patch's) version
  std::optional<std::string> ref;   // the action this frame answers
  bool stale = false;               // a view answering a stale action
  // A view's legal_actions, each as its JSON text; a patch's when it sets them.
  ActionList actions;
  bool actions_given = false;  // `actions` is the seat's list (always, in a whole view)
  // A patch's changed legal_actions elements (the text of its [index, action] pairs), when it
  // gives the list by its changes: ActionList::replace applies them.
  std::string action_changes;
  bool finished = false;   // a view of a finished game (it has, or a patch sets, an outcome)
  std::string error_code;  // an error's code

  bool is_view() const { return type == "view" || type == "view_patch"; }
};

// False if the frame is not an object with a "type" the server sends. `out` is overwritten
// (its buffers reused).
bool scan_frame(std::string_view frame, ScannedFrame& out);
// The same into a new ScannedFrame; nullopt for false.
std::optional<ScannedFrame> scan_frame(std::string_view frame);

// The JSON value starting at `at` (an object, array, string or scalar), as text; empty if the
// text ends first.
std::string_view json_value_at(std::string_view text, std::size_t at);

}  // namespace blockfog::load
