#include "server/role_views.h"

#include <algorithm>

namespace blockfog::server {

using core::Role;
using nlohmann::json;

namespace {

constexpr std::array<Role, kViewRoles> kRoles{Role::Scotland, Role::England, Role::Observer};

storage::ViewVersions versions_of(const std::array<RoleView, kViewRoles>& views) {
  return {views[0].version, views[1].version, views[2].version};
}

// The view from `log_from` on, and the key of the whole view (the same view without lines).
struct Made {
  json view;
  RoleView role_view;
};

Made make(const core::Game& game, Role role, std::size_t log_from) {
  Made made{game.view_from(role, log_from), {}};
  made.role_view.log_size = made.view.at("log_size").get<std::size_t>();
  json lines = std::move(made.view["log"]);
  made.view["log"] = json::array();
  made.role_view.key = made.view.dump();
  made.view["log"] = std::move(lines);
  return made;
}

}  // namespace

storage::ViewVersions ViewChange::versions() const { return versions_of(next); }

void RoleViews::reset(const core::Game& game, const storage::ViewVersions& versions) {
  const std::array<std::int64_t, kViewRoles> numbers{versions.scotland, versions.england,
                                                     versions.observer};
  for (Role role : kRoles) {
    auto& view = views_[index(role)];
    view = make(game, role, SIZE_MAX).role_view;
    view.version = numbers[index(role)];
  }
}

ViewChange RoleViews::change_to(const core::Game& next) const {
  ViewChange change;
  for (Role role : kRoles) {
    const auto i = index(role);
    const auto& before = views_[i];
    // Lines the clients lack start where the log was (it grew) or where it now ends (an undo
    // shortened it): an action never does both.
    auto made = make(next, role, before.log_size);
    auto& after = change.next[i];
    after = std::move(made.role_view);
    after.version = before.version;
    if (after.key != before.key) {
      ++after.version;
      change.log_from[i] = static_cast<std::int64_t>(std::min(before.log_size, after.log_size));
      change.increments[i] = std::move(made.view);
    }
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
