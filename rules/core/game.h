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

// A caller's cache for the views of one role (the server keeps one per role of a game): the
// module may keep there the text of parts of the views it wrote, each with what it was
// written from, and reuse a part while those inputs are unchanged. The view's text is the same
// with or without it. Made empty by the caller, filled and read by the module only.
struct ViewMemo {
  struct Parts {
    virtual ~Parts() = default;
  };
  std::unique_ptr<Parts> parts;
};

// One game in progress, behind the module interface of docs/architecture.md, "The engine contract".
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
  // What `role` may know, and nothing more (RULES 13), as JSON text written into `out`
  // (replacing its contents, keeping its capacity): the module's one view writer, from which
  // every other form of a view derives. Only the log lines `role` may read from index
  // `log_from` on are included (the view still says how many there are, "log_size", which is
  // returned): a client that holds the earlier lines gets only new ones. `layout`, when given,
  // receives where the view's members are in `out`; `memo`, when given, is the caller's cache
  // for views of `role` (ViewMemo).
  virtual std::size_t write_view(Role role, std::size_t log_from, std::string& out,
                                 ViewLayout* layout = nullptr, ViewMemo* memo = nullptr) const = 0;
  // The same view as a JSON tree (parsed from write_view's text).
  nlohmann::json view(Role role, std::size_t log_from = 0) const;
  std::string view_text(Role role) const {
    std::string out;
    write_view(role, 0, out);
    return out;
  }
  virtual Outcome outcome() const = 0;
  // The complete state (secrets included): for tools and tests, never for a client.
  virtual nlohmann::json to_json() const = 0;
  // The complete state as snapshots store it (replacing `out`), read back by
  // GameModule::from_snapshot: by default the JSON text; a module may write a compact form,
  // which must say what it is in its first bytes.
  virtual void write_snapshot(std::string& out) const { out = to_json().dump(); }
  // SHA-256 (hex) of the canonical serialisation: identifies a position.
  virtual std::string state_hash() const = 0;
  // Broken invariants, empty when the state is sound.
  virtual std::vector<std::string> check_invariants() const = 0;
  // A copy: the state is a value (docs/architecture.md), and a caller that must keep a state while
  // trying an action on it (the server, until the action is stored) applies it to a copy.
  virtual std::unique_ptr<Game> clone() const = 0;
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
