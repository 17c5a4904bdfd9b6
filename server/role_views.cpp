#include "server/role_views.h"

#include <algorithm>

namespace blockfog::server {

using core::Role;

namespace {

constexpr std::array<Role, kViewRoles> kRoles{Role::Scotland, Role::England, Role::Observer};
constexpr std::size_t kNoLines = SIZE_MAX;

storage::ViewVersions versions_of(const std::array<RoleView, kViewRoles>& views) {
  return {views[0].version, views[1].version, views[2].version};
}

// The key of a role's view: the whole view without log lines (its log_size still in it).
RoleView key_of(const core::Game& game, Role role) {
  RoleView view;
  view.log_size = game.write_view_from(role, kNoLines, view.key);
  return view;
}

}  // namespace

storage::ViewVersions ViewChange::versions() const { return versions_of(next); }

void RoleViews::reset(const core::Game& game, const storage::ViewVersions& versions) {
  const std::array<std::int64_t, kViewRoles> numbers{versions.scotland, versions.england,
                                                     versions.observer};
  for (Role role : kRoles) {
    auto& view = views_[index(role)];
    view = key_of(game, role);
    view.version = numbers[index(role)];
  }
}

ViewChange RoleViews::change_to(const core::Game& next) const {
  ViewChange change;
  for (Role role : kRoles) {
    const auto i = index(role);
    const auto& before = views_[i];
    auto& after = change.next[i];
    // One view written per role: with the lines the clients lack (they start where the log
    // was, if it grew, or where it now ends, if an undo shortened it: an action never does
    // both), and cut out of it, the key to compare.
    auto& text = change.increments[i].emplace();
    core::TextSpan lines;
    after.log_size = next.write_view_from(role, before.log_size, text, &lines);
    after.key.reserve(text.size() - (lines.end - lines.begin));
    after.key.assign(text, 0, lines.begin).append(text, lines.end);
    after.version = before.version;
    if (after.key == before.key) {
      change.increments[i].reset();
      continue;
    }
    ++after.version;
    change.log_from[i] = static_cast<std::int64_t>(std::min(before.log_size, after.log_size));
  }
  return change;
}

storage::ViewVersions RoleViews::versions() const { return versions_of(views_); }

void VersionCounter::observe(const core::Game& game) {
  if (!started_) {
    views_.reset(game, {});
    started_ = true;
    return;
  }
  views_.accept(views_.change_to(game));
}

}  // namespace blockfog::server
