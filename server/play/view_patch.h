#pragma once

// The body of a `view_patch` frame (docs/protocol.md): what turns one version of a role's view
// into the next, written from the two views' texts and layouts without parsing either. An
// action changes a few of a view's members and one or two of its areas; the patch is about a
// sixth of the view's bytes, which is what the server sends and the client reads per action.

#include <string>
#include <string_view>

#include "rules/core/view_layout.h"

namespace blockfog::server {

// A view as the engine wrote it: its text, where its parts are, and where its log lines are.
struct ViewText {
  std::string_view text;
  const core::ViewLayout& layout;
  core::TextSpan lines;  // between the brackets of its "log"
};

// Writes into `out` (replacing it) the JSON object with `elements`, `set` and `unset` that
// turns `before` into `after`: members sorted as both views are (so the body is what nlohmann
// would write), `log` set only when `after` holds new lines (its log_size is a member of its
// own). A top-level array of unchanged length sends only its changed elements, unless they
// are most of it.
void write_view_patch(const ViewText& before, const ViewText& after, std::string& out);

}  // namespace blockfog::server
