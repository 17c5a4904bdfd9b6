#pragma once

// Per-role view versions (docs/protocol.md, `seq`). A client's seq is the version of its own
// role's view: it moves only when what that role may see changed. A global action count would
// let a seat count the other seat's hidden decisions (how many victuals steps, builds or
// disbands England made in winter), which RULES 13.1.4 and 13.3 hide; a version that moves only
// with the seat's own view tells it nothing its view does not.
//
// A role nobody is connected as is parked: its view is not written with each action (the
// server would write it for nobody), and the action is stored without its version. The hash of
// its whole view (log included) is kept as it was when parked; when somebody of that role comes
// back, the whole view is written again and the version moves by one if the two differ.
// game_loader.cpp decides the same way on replay, so versions survive restarts exactly.
//
// A role's view is compared without its log lines: the engine's log only grows, except that
// an undo truncates it (never both in one action), so the view's log_size together with the
// rest of the view decides whether anything changed.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/core/game.h"
#include "rules/core/role.h"
#include "rules/core/sha256.h"
#include "storage/store.h"

namespace blockfog::server {

inline constexpr std::size_t kViewRoles = 3;  // Scotland, England, Observer

// One write of a role's view, in one allocation: its JSON text (with whichever log lines that
// write held), where its parts are, and the body of the view_patch frame that turns the
// version before into it (server/play/view_patch.h; empty in a role's first view).
struct WrittenView {
  std::string text;
  core::ViewLayout layout;
  std::string patch;
};

// What the room remembers of one role's current view.
struct RoleView {
  std::int64_t version = 0;
  std::size_t log_size = 0;
  // The view as last written: the text outside `lines` is the key, and equal keys mean equal
  // views. Shared with the frames that published it, so a view is written once per action and
  // never copied. Null while the role is parked.
  std::shared_ptr<const WrittenView> written;
  core::TextSpan lines;  // where its log lines are in `written->text`
  // Set while the role is parked: the SHA-256 of its whole view when it was parked.
  std::optional<core::Digest> parked;
  // This view was written for the last action accepted, so its version is stored with it.
  bool stored = false;
};

// The views of all three roles after one action, ready to be committed and then published.
struct ViewChange {
  std::array<RoleView, kViewRoles> next;
  // For each role whose view changed: its view holding only the lines its clients lack, as
  // the JSON text that goes into the frame (written by the engine, no DOM: this runs for
  // every action). Null for a role whose view did not change.
  std::array<std::shared_ptr<const std::string>, kViewRoles> increments;
  // For the same roles, where change_to was asked for it: the body of the view_patch frame
  // that turns the role's previous view into this one (server/play/view_patch.h), for the
  // connections that take patches.
  std::array<std::shared_ptr<const std::string>, kViewRoles> patches;
  std::array<std::int64_t, kViewRoles> log_from{};
  storage::ViewVersions versions() const;
  // As stored with the action: none for a parked role.
  storage::StoredVersions stored_versions() const;
};

class RoleViews {
 public:
  // The views of `game` at the given versions (0, 0, 0 right after setup).
  void reset(const core::Game& game, const storage::ViewVersions& versions);
  // For each role: whether a connection of it takes view_patch frames (Room::join).
  using PatchRoles = std::array<bool, kViewRoles>;
  // What changes when the game becomes `next`; *this is unchanged until accept(). A parked
  // role's view is not written: it stays as it is. Patches are written for `patches` only.
  ViewChange change_to(const core::Game& next, PatchRoles patches = {}) const;
  void accept(const ViewChange& change);  // shares the texts

  // `game` is the game of the last reset() or accepted change, in both. A role is parked only
  // where its version is stored (its view was written for the last action accepted): a replay
  // then compares its whole views at the same two states as the room (game_loader.cpp). Else
  // park does nothing, and the next action's view is written for it.
  void park(core::Role role, const core::Game& game);
  void unpark(core::Role role, const core::Game& game);
  bool parked(core::Role role) const { return views_[index(role)].parked.has_value(); }

  std::int64_t version(core::Role role) const { return views_[index(role)].version; }
  std::size_t log_size(core::Role role) const { return views_[index(role)].log_size; }
  storage::ViewVersions versions() const;

  static std::size_t index(core::Role role) { return static_cast<std::size_t>(role); }

 private:
  // Each role's core::ViewMemo: the cache of the parts of that role's views that the engine
  // writes from it (an action changes few areas). A cache only, so a copy of RoleViews
  // starts without one.
  class Memos {
   public:
    Memos() = default;
    Memos(const Memos&) {}
    Memos& operator=(const Memos&) { return *this; }
    core::ViewMemo& operator[](std::size_t role) { return memos_[role]; }

   private:
    std::array<core::ViewMemo, kViewRoles> memos_;
  };

  // Each role's write before its current one, kept to be written over by a later change (its
  // buffers hold a view's size): once the frames that sent it are gone, nobody else holds it.
  class Spares {
   public:
    Spares() = default;
    Spares(const Spares&) {}
    Spares& operator=(const Spares&) { return *this; }
    std::shared_ptr<WrittenView> take(std::size_t role);
    void keep(std::size_t role, std::shared_ptr<const WrittenView> written);

   private:
    std::array<std::shared_ptr<const WrittenView>, kViewRoles> spares_;
  };

  std::array<RoleView, kViewRoles> views_;
  mutable Memos memos_;  // change_to is const: it writes views, it does not change them
  mutable Spares spares_;
};

// The versions after replaying a whole log, for actions stored without them (before the
// migration that added them): `observe` is called once per state, setup first.
class VersionCounter {
 public:
  void observe(const core::Game& game);
  storage::ViewVersions versions() const { return views_.versions(); }

 private:
  RoleViews views_;
  bool started_ = false;
};

// The versions a room had after the last of `stored` (one entry per action, in order), found
// while the log is replayed: a role's version is the one stored last, moved by one if its
// whole view changed since that action while the role was parked; actions stored before
// versions were (a first run of entries with none) are counted as VersionCounter does.
// `observe` is called once per state: after setup (`applied` 0), then after each action.
class VersionReplay {
 public:
  explicit VersionReplay(std::vector<storage::StoredVersions> stored);
  void observe(std::size_t applied, const core::Game& game);
  // `last` is the game after the last action (or setup, when there is none).
  storage::ViewVersions versions(const core::Game& last) const;

 private:
  std::vector<storage::StoredVersions> stored_;
  std::size_t unversioned_ = 0;  // the first actions, stored before versions were
  // For each role: how many actions had been applied when its view was last written (its
  // version stored, or counted), and that whole view's hash if a later state must be compared
  // with it.
  std::array<std::size_t, kViewRoles> written_at_{};
  std::array<core::Digest, kViewRoles> written_{};
  std::optional<VersionCounter> counter_;
};

}  // namespace blockfog::server
