#include "server/role_views.h"

#include <algorithm>
#include <string_view>

namespace blockfog::server {

using core::Role;

namespace {

constexpr std::array<Role, kViewRoles> kRoles{Role::Scotland, Role::England, Role::Observer};
constexpr std::size_t kNoLines = SIZE_MAX;
// Room for the next view to grow past the last one (a few log lines, a battle) in place.
constexpr std::size_t kSlack = 1024;

storage::ViewVersions versions_of(const std::array<RoleView, kViewRoles>& views) {
  return {views[0].version, views[1].version, views[2].version};
}

// A role's view with no log lines (its log_size still in it): where a room starts.
RoleView first_view(const core::Game& game, Role role) {
  RoleView view;
  auto text = std::make_shared<std::string>();
  view.log_size = game.write_view_from(role, kNoLines, *text, &view.lines, &view.cursor);
  view.text = std::move(text);
  return view;
}

std::string_view before_lines(const RoleView& view) {
  return std::string_view(*view.text).substr(0, view.lines.begin);
}
std::string_view after_lines(const RoleView& view) {
  return std::string_view(*view.text).substr(view.lines.end);
}

}  // namespace

storage::ViewVersions ViewChange::versions() const { return versions_of(next); }

void RoleViews::reset(const core::Game& game, const storage::ViewVersions& versions) {
  const std::array<std::int64_t, kViewRoles> numbers{versions.scotland, versions.england,
                                                     versions.observer};
  for (Role role : kRoles) {
    auto& view = views_[index(role)];
    view = first_view(game, role);
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
    // both); the text around those lines is the key to compare.
    auto text = std::make_shared<std::string>();
    text->reserve(before.text->size() + kSlack);  // written in place, no regrowth
    // `next` is one action past `before`'s game, so before's log cursor still holds.
    after.cursor = before.cursor;
    after.log_size =
        next.write_view_from(role, before.log_size, *text, &after.lines, &after.cursor);
    after.text = std::move(text);
    after.version = before.version;
    if (before_lines(after) == before_lines(before) && after_lines(after) == after_lines(before)) {
      const auto cursor = after.cursor;  // the log may have changed unseen: keep it current
      after = before;                    // the same key: keep the text that published this version
      after.cursor = cursor;
      continue;
    }
    change.increments[i] = after.text;
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
