#include "server/play/game_loader.h"

#include <array>
#include <optional>

#include "games/registry.h"
#include "rules/core/hex.h"
#include "rules/core/role.h"
#include "rules/core/sha256.h"
#include "server/play/role_views.h"

namespace blockfog::server {

using nlohmann::json;

std::string seed_commitment(std::string_view seed_hex) {
  const auto bytes = core::from_hex(seed_hex);
  if (!bytes) return "";
  const std::string raw(bytes->begin(), bytes->end());
  return core::to_hex(core::sha256(raw));
}

LoadedGame setup_game(const storage::GameRow& row) {
  LoadedGame loaded;
  // Set up from the dice's seed (server/play/dice.h); a game started before shared dice from
  // the server's secret alone.
  const auto seed = core::seed_from_hex(row.play_seed_hex.value_or(row.seed_hex));
  if (!seed) {
    loaded.error = "game " + std::to_string(row.id) + ": bad seed";
    return loaded;
  }
  const json options = json::parse(row.options_json, nullptr, false);
  if (options.is_discarded()) {
    loaded.error = "game " + std::to_string(row.id) + ": bad options";
    return loaded;
  }
  // The rules of the game's kind, as the game was created: a game of an earlier rules version
  // goes on with that version's state hashes.
  const auto* kind = games::find_game_kind(row.kind);
  if (!kind) {
    loaded.error = "game " + std::to_string(row.id) + ": no game '" + row.kind + "' is served";
    return loaded;
  }
  auto setup = kind->module->setup_as(row.rules_version, *seed, row.scenario, options);
  if (!setup.game) {
    loaded.error = "game " + std::to_string(row.id) + ": " + setup.error;
    return loaded;
  }
  loaded.game = std::move(setup.game);
  return loaded;
}

std::optional<std::string> apply_logged_actions(std::int64_t game_id, core::Game& game,
                                                const std::vector<storage::ActionRow>& actions,
                                                const OnApplied& on_applied) {
  const std::string game_name = "game " + std::to_string(game_id);
  std::int64_t expected = 1;
  for (const auto& a : actions) {
    const auto role = core::role_from_name(a.role);
    const json action = json::parse(a.action_json, nullptr, false);
    if (!role || action.is_discarded() || a.seq != expected) {
      return game_name + ": unreadable action " + std::to_string(a.seq);
    }
    if (auto error = game.apply(*role, action)) {
      return game_name + ": action " + std::to_string(a.seq) +
             " refused on replay: " + error->message;
    }
    if (game.state_hash() != a.state_hash) {
      return game_name + ": state hash differs after action " + std::to_string(a.seq);
    }
    if (on_applied) on_applied(*role, action, game);
    ++expected;
  }
  return std::nullopt;
}

std::string result_json(const core::Outcome& outcome) {
  return nlohmann::json{{"winner", outcome.winner ? nlohmann::json(core::role_name(*outcome.winner))
                                                  : nlohmann::json()},
                        {"reason", outcome.reason}}
      .dump();
}

LoadedGame replay_game(storage::Store& store, const storage::GameRow& row) {
  LoadedGame loaded = setup_game(row);
  if (!loaded.game) return loaded;
  const auto actions = store.load_actions(row.id);
  std::vector<storage::StoredVersions> stored;
  stored.reserve(actions.size());
  for (const auto& a : actions) stored.push_back(a.view_versions);
  VersionReplay versions(std::move(stored));
  versions.observe(0, *loaded.game);
  // Each seat's last action: the marks are taken there, and only there.
  std::array<std::size_t, 2> last_decision{};
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const auto role = core::role_from_name(actions[i].role);
    if (role && *role != core::Role::Observer) {
      last_decision[static_cast<std::size_t>(*role)] = i + 1;
    }
  }
  std::size_t applied = 0;
  const OnApplied observe = [&](core::Role role, const json&, const core::Game& after) {
    versions.observe(++applied, after);
    if (role != core::Role::Observer && last_decision[static_cast<std::size_t>(role)] == applied) {
      loaded.marks[static_cast<std::size_t>(role)] = decision_mark(after, role);
    }
  };
  if (auto failure = apply_logged_actions(row.id, *loaded.game, actions, observe)) {
    return {nullptr, 0, {}, {}, std::move(*failure)};
  }
  if (!actions.empty()) loaded.seq = actions.back().seq;
  loaded.versions = versions.versions(*loaded.game);
  return loaded;
}

}  // namespace blockfog::server
