// Per-role view versions without sockets: a role's version moves exactly when its view
// changed, the increments and the patches rebuild the whole view, a parked role (nobody connected
// as it) comes back one version on exactly when its whole view changed meanwhile, and replaying a
// log gives the versions the room had, whether the log stored them all, some (parked roles) or none
// (actions stored before versions were); a change the room drops (a failed commit) leaves the next
// one right.

#include "server/play/role_views.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <random>

#include "protocol/messages.h"
#include "rules/core/hex.h"
#include "rules/hots/module.h"
#include "server/play/game_loader.h"
#include "storage/store.h"
#include "tests/server/server_process.h"
#include "tests/server/stored_games.h"

namespace blockfog::server {
namespace {

using core::Role;
using nlohmann::json;

constexpr std::array<Role, 3> kRoles{Role::Scotland, Role::England, Role::Observer};

#ifdef NDEBUG
constexpr int kActions = 1500;
#else
constexpr int kActions = 200;
#endif

std::unique_ptr<core::Game> new_game(std::uint8_t seed_byte) {
  core::Seed seed{};
  seed.fill(seed_byte);
  auto setup = hots::module().setup(seed, "braveheart", json());
  EXPECT_TRUE(setup.game) << setup.error;
  return std::move(setup.game);
}

// A random legal action of whichever side may act; none when nobody may.
std::optional<std::pair<Role, json>> choose(const core::Game& game, std::mt19937_64& rng) {
  std::vector<std::pair<Role, json>> choices;
  for (Role role : {Role::Scotland, Role::England}) {
    for (const auto& a : game.legal_actions(role)) choices.emplace_back(role, a);
  }
  if (choices.empty()) return std::nullopt;
  return choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
}

// One random legal action by whichever side may act; false when nobody may.
bool act(core::Game& game, std::mt19937_64& rng, std::string* role_out = nullptr,
         json* action_out = nullptr) {
  const auto choice = choose(game, rng);
  if (!choice) return false;
  const auto& [role, action] = *choice;
  EXPECT_FALSE(game.apply(role, action));
  if (role_out) *role_out = std::string(core::role_name(role));
  if (action_out) *action_out = action;
  return true;
}

// What a client of each role holds at first: the whole view.
std::array<json, 3> whole_views(const core::Game& game) {
  std::array<json, 3> views;
  for (Role role : kRoles) views[RoleViews::index(role)] = game.view(role);
  return views;
}

// The view a client of role `i` that held `held` holds after `change`, from its increment, its
// log merged as a client merges it.
json merge_increment(const json& held, const ViewChange& change, std::size_t i) {
  json merged = json::parse(*change.increments[i]);
  merged["log"] = protocol::merge_log(held["log"], change.log_from[i], merged["log"]);
  return merged;
}

// The same from the change's patch, as a client that takes patches applies it.
json apply_patch(const json& held, const protocol::ViewPatchMessage& patch) {
  json patched = held;
  EXPECT_TRUE(protocol::apply_view_patch(patched, patch)) << patch.patch.dump();
  return patched;
}

protocol::ViewPatchMessage patch_of(const ViewChange& change, std::size_t i) {
  return {change.next[i].version, json::parse(*change.patches[i]), change.log_from[i],
          std::nullopt};
}

TEST(RoleViews, AVersionMovesExactlyWhenItsViewChangedAndIncrementsAndPatchesRebuildTheView) {
  auto game = new_game(7);
  RoleViews views;
  views.reset(*game, {});
  auto held = whole_views(*game);  // log merged from the increments
  std::array<int, 3> unchanged{};
  std::map<std::string, int> parts{{"elements", 0}, {"set", 0}, {"unset", 0}};
  std::size_t patch_bytes = 0;
  std::size_t view_bytes = 0;
  std::mt19937_64 rng(11);
  for (int n = 0; n < kActions && act(*game, rng); ++n) {
    const auto change = views.change_to(*game, {true, true, true});
    for (Role role : kRoles) {
      const auto i = RoleViews::index(role);
      const json whole = game->view(role);
      if (!change.increments[i]) {
        EXPECT_EQ(whole, held[i]) << "a changed view kept its version, action " << n;
        EXPECT_EQ(change.next[i].version, views.version(role));
        ++unchanged[i];
        continue;
      }
      EXPECT_NE(whole, held[i]) << "a new version of the same view, action " << n;
      EXPECT_EQ(change.next[i].version, views.version(role) + 1);
      EXPECT_EQ(merge_increment(held[i], change, i), whole)
          << "the increment does not rebuild the view, action " << n;
      // The patch turns what the client held into the same view.
      const auto patch = patch_of(change, i);
      EXPECT_EQ(apply_patch(held[i], patch), whole)
          << "the patch does not rebuild the view, action " << n;
      for (const char* part : {"elements", "set", "unset"})
        parts[part] += patch.patch.contains(part);
      patch_bytes += change.patches[i]->size();
      view_bytes += change.increments[i]->size();
      held[i] = whole;
    }
    views.accept(change);
    if (::testing::Test::HasFailure()) break;
  }
  // Each part of a patch was used, and patches are a fraction of the views they replace.
  for (const auto& [part, count] : parts) EXPECT_GT(count, 0) << part;
  EXPECT_LT(patch_bytes * 3, view_bytes);
  // Hidden decisions exist, so the property above was exercised both ways; in a long stretch
  // of the game (release builds) for every role.
#ifdef NDEBUG
  for (int count : unchanged) EXPECT_GT(count, 0);
#else
  EXPECT_GT(unchanged[0] + unchanged[1] + unchanged[2], 0);
#endif
}

// A change the room does not accept (its commit failed) is dropped with the action: the memos
// have written views nobody holds, and the next change is made from the views accepted last.
// Its increments and patches still turn what the clients hold into the views of the game.
TEST(RoleViews, AfterAChangeNotAcceptedTheNextOneStillRebuildsTheView) {
  auto game = new_game(5);
  RoleViews views;
  views.reset(*game, {});
  auto held = whole_views(*game);
  std::mt19937_64 rng(21);
  int dropped = 0;
  int patched = 0;
  for (int n = 0; n < kActions / 2; ++n) {
    auto next = game->clone();
    if (!act(*next, rng)) break;
    const auto change = views.change_to(*next, {true, true, true});
    if (n % 4 == 1) {  // dropped: the game stays as it was, and the clients never see it
      ++dropped;
      continue;
    }
    game = std::move(next);
    for (Role role : kRoles) {
      const auto i = RoleViews::index(role);
      const json whole = game->view(role);
      if (!change.increments[i]) {
        EXPECT_EQ(whole, held[i]) << "a changed view sent nothing, action " << n;
        continue;
      }
      EXPECT_EQ(apply_patch(held[i], patch_of(change, i)), whole)
          << "the patch does not rebuild the view, action " << n;
      EXPECT_EQ(merge_increment(held[i], change, i), whole)
          << "the increment does not rebuild the view, action " << n;
      held[i] = whole;
      ++patched;
    }
    views.accept(change);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(dropped, 10);
  EXPECT_GT(patched, 30);
}

// A view's buffers are written over by a later change only once nothing holds them: a frame
// still being sent keeps its text and patch, however many actions follow.
TEST(RoleViews, AViewStillBeingSentIsNeverWrittenOver) {
  auto game = new_game(9);
  RoleViews views;
  views.reset(*game, {});
  std::mt19937_64 rng(3);
  std::vector<std::pair<std::shared_ptr<const std::string>, std::string>> held;
  for (int n = 0; n < 60 && act(*game, rng); ++n) {
    const auto change = views.change_to(*game, {true, true, true});
    for (std::size_t i = 0; i < change.increments.size(); ++i) {
      // Every third view is "still being sent": its text and patch are held.
      if (change.increments[i] && n % 3 == 0) {
        held.emplace_back(change.increments[i], *change.increments[i]);
        held.emplace_back(change.patches[i], *change.patches[i]);
      }
    }
    views.accept(change);
  }
  ASSERT_GT(held.size(), 10U);
  for (const auto& [text, copy] : held) EXPECT_EQ(*text, copy);
}

// A patch is written only for a role some connection of which takes patches.
TEST(RoleViews, PatchesAreWrittenOnlyForTheRolesThatTakeThem) {
  auto game = new_game(4);
  RoleViews views;
  views.reset(*game, {});
  std::mt19937_64 rng(8);
  int changed = 0;
  for (int n = 0; n < 40 && act(*game, rng); ++n) {
    const auto change = views.change_to(*game, {false, true, false});
    for (std::size_t i = 0; i < change.increments.size(); ++i) {
      changed += bool(change.increments[i]);
      EXPECT_EQ(bool(change.patches[i]), i == 1 && change.increments[i]) << "role " << i;
    }
    views.accept(change);
  }
  EXPECT_GT(changed, 40);
}

TEST(RoleViews, ALogStoredWithoutVersionsGetsTheSameVersionsByReplay) {
  testing::TempDir dir;
  storage::Store store(dir.path() / "blockfog.db", 1);
  const auto row = testing::start_stored_game(store, 31);

  // Play and store the actions the old way, without versions, counting versions meanwhile.
  auto game = setup_game(row).game;
  ASSERT_TRUE(game);
  RoleViews views;
  views.reset(*game, {});
  std::mt19937_64 rng(5);
  std::string role;
  json action;
  for (std::int64_t seq = 1; seq <= 300 && act(*game, rng, &role, &action); ++seq) {
    views.accept(views.change_to(*game));
    store.append_action(row.id, seq, role, action.dump(), game->state_hash(), seq);
  }
  const auto loaded = replay_game(store, *store.find_game(row.id));
  ASSERT_TRUE(loaded.game) << loaded.error;
  EXPECT_EQ(loaded.versions, views.versions());
  EXPECT_GT(loaded.versions.scotland, 0);

  // Once versions are stored, the last action's are taken as they are.
  ASSERT_TRUE(act(*game, rng, &role, &action));
  store.append_action(row.id, loaded.seq + 1, role, action.dump(), game->state_hash(), 999,
                      std::nullopt, storage::ViewVersions{1000, 2000, 3000});
  EXPECT_EQ(replay_game(store, *store.find_game(row.id)).versions,
            (storage::ViewVersions{1000, 2000, 3000}));
}

TEST(RoleViews, AParkedRoleComesBackOneVersionOnExactlyWhenItsWholeViewChanged) {
  auto game = new_game(9);
  RoleViews views;
  views.reset(*game, {});
  std::mt19937_64 rng(3);
  for (int n = 0; n < 40; ++n) {
    ASSERT_TRUE(act(*game, rng));
    views.accept(views.change_to(*game));
  }
  const auto before = views.versions();

  // Parked and back with nothing done meanwhile: the same view, the same version.
  views.park(Role::Observer, *game);
  EXPECT_TRUE(views.parked(Role::Observer));
  views.unpark(Role::Observer, *game);
  EXPECT_FALSE(views.parked(Role::Observer));
  EXPECT_EQ(views.versions(), before);

  // Not parked again before an action stored its version (it was written for none since).
  views.park(Role::Observer, *game);
  EXPECT_FALSE(views.parked(Role::Observer));
  ASSERT_TRUE(act(*game, rng));
  views.accept(views.change_to(*game));
  const auto parked_at = views.versions();

  // While parked, the role's view is not written, its version stays and is not stored.
  views.park(Role::Observer, *game);
  ASSERT_TRUE(views.parked(Role::Observer));
  const json parked_view = game->view(Role::Observer);
  int changed_meanwhile = 0;
  for (int n = 0; n < 30; ++n) {
    ASSERT_TRUE(act(*game, rng));
    const auto change = views.change_to(*game);
    EXPECT_FALSE(change.increments[RoleViews::index(Role::Observer)]);
    EXPECT_EQ(change.next[RoleViews::index(Role::Observer)].version, parked_at.observer);
    const auto stored = change.stored_versions();
    EXPECT_FALSE(stored.observer);
    EXPECT_TRUE(stored.scotland && stored.england);
    views.accept(change);
    changed_meanwhile += game->view(Role::Observer) != parked_view;
  }
  ASSERT_GT(changed_meanwhile, 0);
  views.unpark(Role::Observer, *game);
  EXPECT_EQ(views.version(Role::Observer), parked_at.observer + 1);

  // Back to one version per change, with increments that rebuild the view.
  json held = game->view(Role::Observer);
  for (int n = 0; n < 30; ++n) {
    ASSERT_TRUE(act(*game, rng));
    const auto change = views.change_to(*game);
    const auto i = RoleViews::index(Role::Observer);
    const json whole = game->view(Role::Observer);
    EXPECT_EQ(bool(change.increments[i]), whole != held);
    if (change.increments[i]) {
      EXPECT_EQ(merge_increment(held, change, i), whole) << "after unparking, action " << n;
      held = whole;
    }
    views.accept(change);
  }
}

// What a room with `views` would tell a client of each role joining now: parked roles are
// unparked first.
storage::ViewVersions as_told(RoleViews views, const core::Game& game) {
  for (Role role : kRoles) views.unpark(role, game);
  return views.versions();
}

// Two seats play while each role is parked and unparked at random (never the acting one, as
// in a room: the actor is connected), and the server restarts now and then (the room's views
// start again from the versions replay gives); the first `unversioned` actions are stored
// without versions, as before migration 2. Replay must give what the room would tell a client
// of each role, at every restart and at the end.
void replay_matches_the_room(std::uint64_t seed, int unversioned) {
  testing::TempDir dir;
  storage::Store store(dir.path() / "blockfog.db", 1);
  const auto row = testing::start_stored_game(store, 32);

  auto game = setup_game(row).game;
  ASSERT_TRUE(game);
  RoleViews views;
  views.reset(*game, {});
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution toggle(0.08);
  std::array<bool, 3> watched{true, true, true};
  int parked_actions = 0;
  int restarts = 0;
  for (std::int64_t seq = 1; seq <= 400; ++seq) {
    const auto choice = choose(*game, rng);
    if (!choice) break;
    const auto& [actor, action] = *choice;
    if (seq > unversioned) {
      // As a room does before each action: clients come and go; roles nobody is connected as
      // are parked (kept parked), the others unparked.
      for (Role role : kRoles) {
        auto& w = watched[RoleViews::index(role)];
        w = role == actor || (toggle(rng) ? !w : w);
        w ? views.unpark(role, *game) : views.park(role, *game);
      }
    }
    ASSERT_FALSE(game->apply(actor, action));
    const auto change = views.change_to(*game);
    const auto stored = seq > unversioned ? change.stored_versions() : storage::StoredVersions{};
    parked_actions += seq > unversioned && !(stored.scotland && stored.england && stored.observer);
    views.accept(change);
    store.append_action(row.id, seq, core::role_name(actor), action.dump(), game->state_hash(), seq,
                        std::nullopt, stored);
    if (seq > unversioned && seq % 37 == 0) {
      const auto loaded = replay_game(store, *store.find_game(row.id));
      ASSERT_TRUE(loaded.game) << loaded.error;
      ASSERT_EQ(loaded.versions, as_told(views, *game)) << "seed " << seed << ", action " << seq;
      views = RoleViews();
      views.reset(*game, loaded.versions);
      ++restarts;
    }
  }
  ASSERT_GT(parked_actions, 20);
  ASSERT_GT(restarts, 3);
  const auto loaded = replay_game(store, *store.find_game(row.id));
  ASSERT_TRUE(loaded.game) << loaded.error;
  EXPECT_EQ(loaded.versions, as_told(views, *game)) << "seed " << seed;
}

TEST(RoleViews, ReplayGivesParkedRolesTheVersionsTheRoomWouldGiveAcrossRestarts) {
  for (std::uint64_t seed : {1, 2, 3, 4}) replay_matches_the_room(seed, 0);
}

TEST(RoleViews, ReplayCountsActionsStoredBeforeVersionsThenReadsTheStoredOnes) {
  for (std::uint64_t seed : {5, 6}) replay_matches_the_room(seed, 60);
}

}  // namespace
}  // namespace blockfog::server
