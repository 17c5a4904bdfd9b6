#pragma once

// Reads the few fields the load client needs from a server frame without building a JSON
// document: at 20,000 actions a second on the machine that also runs the server, parsing every
// whole view would cost the client more than the server spends. It relies on what the server
// writes (nlohmann's dump: keys in sorted order, no spaces), so "view" is the envelope's last
// key and every envelope field precedes it; it is a load tool's shortcut, not a JSON parser.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockfog::load {

struct ScannedFrame {
  std::string type;                  // "view", "error", "welcome", ...
  std::optional<std::int64_t> seq;   // a view's version
  std::optional<std::string> ref;    // the action this frame answers
  bool stale = false;                // a view answering a stale action
  std::vector<std::string> actions;  // a view's legal_actions, each as its JSON text
  bool finished = false;             // a view of a finished game (it has an outcome)
  std::string error_code;            // an error's code
};

// Nullopt if the frame is not an object with a "type" the server sends.
std::optional<ScannedFrame> scan_frame(std::string_view frame);

// The JSON value starting at `at` (an object, array, string or scalar), as text; empty if the
// text ends first.
std::string_view json_value_at(std::string_view text, std::size_t at);

}  // namespace blockfog::load
