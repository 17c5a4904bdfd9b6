#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/chacha20.h"
#include "rules/core/role.h"
#include "rules/core/rule_error.h"
#include "rules/core/view_layout.h"

namespace blockfog::core {

// How a game stands: running, or finished with a winner (or none) and a reason.
struct Outcome {
  bool finished = false;
  std::optional<Role> winner;
  std::string reason;  // machine-readable, e.g. "nobles_majority", "king_killed"

  bool operator==(const Outcome&) const = default;
};

// Where a role's reading of the log stopped: the log's first `raw` entries hold `visible` lines
// that role may read. A view writer given the cursor of its last view resumes counting there
// instead of from the first line (long games have thousands). It stays valid while the log
// only grows or only shrinks; one action does one or the other (an undo shortens the log,
// anything else appends to it), so a caller renews it with every action's view. The module
// checks what it can: a cursor beyond the log's end is ignored, unless the entries cut off are
// among the last ones it remembers.
struct LogCursor {
  std::size_t raw = 0;
  std::size_t visible = 0;
  // Of the last `recent_known` entries before `raw` (at most 64), which are the role's lines:
  // bit 0 is entry raw - 1. An undo cuts back a few entries: those are then uncounted, instead
  // of the whole log counted again.
  std::uint64_t recent = 0;
  std::uint32_t recent_known = 0;
};

// Kept by a caller that writes views of one role again and again (the server keeps one per
// role of a game): a module may keep there the text of parts of the views it wrote, keyed by
// everything each part is written from, and reuse it where those inputs did not change. A
// part's text is a function of its inputs alone, so one memo serves views of any state of any
// game of its module, for the role it was made for. Opaque to the caller.
class ViewMemo {
 public:
  virtual ~ViewMemo() = default;
};

// One game in progress, behind the module interface of DESIGN.md "The engine contract".
// The server, the tools and the store speak to every game through this JSON boundary; each
// game module keeps its own typed state behind it.
class Game {
 public:
  virtual ~Game() = default;

  virtual std::vector<Role> active_roles() const = 0;
  // The complete list of what `role` may do now, each in the JSON form `apply` takes.
  virtual nlohmann::json legal_actions(Role role) const = 0;
  // Applies an action, running automatic steps up to the next decision. On error the state is
  // unchanged.
  virtual std::optional<RuleError> apply(Role role, const nlohmann::json& action) = 0;
  // What `role` may know, and nothing more (RULES 13).
  virtual nlohmann::json view(Role role) const = 0;
  // The same view with only the log lines `role` may read from index `log_from` on (the view
  // still says how many there are): a client that holds the earlier lines gets only new ones.
  virtual nlohmann::json view_from(Role role, std::size_t log_from) const = 0;
  // The same view as JSON text, exactly view(role).dump(), written into `out` (replacing its
  // contents, keeping its capacity). Modules override it to skip the JSON DOM: what the server
  // sends after every action should not allocate a tree per client.
  virtual void write_view(Role role, std::string& out) const { out = view(role).dump(); }
  // view_from(role, log_from) as JSON text, exactly its dump(), written into `out` the same
  // way; returns the role's log_size. When `lines` is given it receives where the log's lines
  // are: what lies between the brackets of the view's "log" array. The server writes one per
  // role per action, and cuts the lines out to compare the rest with the role's last view.
  // `cursor`, when given, is read (if the module can use it) and set for the next view.
  // `memo`, when given, is one new_view_memo() made for `role` (or null): the text is the same
  // with or without it. `layout`, when given, receives where the view's parts are in `out`.
  virtual std::size_t write_view_from(Role role, std::size_t log_from, std::string& out,
                                      TextSpan* lines = nullptr, LogCursor* /*cursor*/ = nullptr,
                                      ViewMemo* /*memo*/ = nullptr,
                                      ViewLayout* layout = nullptr) const {
    auto view = view_from(role, log_from);
    out = view.dump();
    if (layout) scan_view_layout(out, *layout);
    if (lines) {
      // The view with an empty log and with a log of one element first differ just inside the
      // log's brackets, where the lines start; everything before is the same in `out`.
      view["log"] = nlohmann::json::array();
      const std::string bare = view.dump();
      view["log"].push_back(0);
      const std::string one = view.dump();
      std::size_t i = 0;
      while (bare[i] == one[i]) ++i;
      *lines = {i, i + (out.size() - bare.size())};
    }
    return view.at("log_size").get<std::size_t>();
  }
  // A memo for write_view_from, or null if the module keeps none.
  virtual std::unique_ptr<ViewMemo> new_view_memo() const { return nullptr; }
  std::string view_text(Role role) const {
    std::string out;
    write_view(role, out);
    return out;
  }
  virtual Outcome outcome() const = 0;
  // Moves when the game enters a new turn of play (for Hammer of the Scots: a game turn or the
  // winter), and never otherwise: the server stores a snapshot of the state there.
  virtual std::int64_t turn_marker() const = 0;
  // The complete state (secrets included): for tools and tests, never for a client.
  virtual nlohmann::json to_json() const = 0;
  // The complete state as the server's snapshots store it (replacing `out`), read back by
  // GameModule::from_snapshot. By default the JSON text; a module may write a compact binary
  // form instead (Hammer of the Scots does: a third of the JSON's size, written by copying
  // fields), which must say what it is in its first bytes.
  virtual void write_snapshot(std::string& out) const { out = to_json().dump(); }
  // SHA-256 (hex) of the canonical serialisation: identifies a position.
  virtual std::string state_hash() const = 0;
  // Broken invariants, empty when the state is sound.
  virtual std::vector<std::string> check_invariants() const = 0;
  virtual std::unique_ptr<Game> clone() const = 0;
  // Makes `target` a copy of this game, reusing its buffers (log, undo history), and says
  // whether it could: only a game of the same module can be. The server copies its game for
  // every action; copying into the last action's spare game spares the allocations.
  virtual bool copy_to(Game& /*target*/) const { return false; }
};

struct SetupResult {
  std::unique_ptr<Game> game;  // null on error
  std::string error;
};

// A game's rules: how to start one and how to restore one.
class GameModule {
 public:
  virtual ~GameModule() = default;
  virtual std::string_view id() const = 0;
  virtual std::string_view rules_version() const = 0;
  virtual std::vector<std::string> scenarios() const = 0;
  virtual SetupResult setup(const Seed& seed, std::string_view scenario,
                            const nlohmann::json& options) const = 0;
  // A game of a stored rules version (games.rules_version, a record's rules_version): a module
  // may go on playing games created under an earlier version of its own. By default only
  // rules_version() itself.
  virtual SetupResult setup_as(std::string_view rules_version, const Seed& seed,
                               std::string_view scenario, const nlohmann::json& options) const {
    if (rules_version != this->rules_version()) {
      return {nullptr, "rules version '" + std::string(rules_version) + "' is not played here"};
    }
    return setup(seed, scenario, options);
  }
  virtual SetupResult from_json(const nlohmann::json& state) const = 0;
  // Reads what Game::write_snapshot wrote (by default, JSON text) for a game of `rules_version`.
  virtual SetupResult from_snapshot(std::string_view rules_version, std::string_view bytes) const {
    if (rules_version != this->rules_version()) {
      return {nullptr, "rules version '" + std::string(rules_version) + "' is not played here"};
    }
    const auto state = nlohmann::json::parse(bytes, nullptr, false);
    if (state.is_discarded()) return {nullptr, "a snapshot that is not JSON"};
    return from_json(state);
  }
};

}  // namespace blockfog::core
