#include "server/play/role_views.h"

#include <algorithm>
#include <string_view>

#include "server/play/view_patch.h"

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

// Where the log's lines are in a view written with `layout`: between the brackets of "log".
core::TextSpan lines_of(const WrittenView& written) {
  for (const auto& member : written.layout.members) {
    if (core::text_of(written.text, member.name) == "log") {
      return {member.value.begin + 1, member.value.end - 1};
    }
  }
  return {written.text.size(), written.text.size()};  // never: every view has a log
}

// A role's view with no log lines (its log_size still in it): where a room starts.
RoleView first_view(const core::Game& game, Role role) {
  RoleView view;
  auto written = std::make_shared<WrittenView>();
  view.log_size = game.write_view(role, kNoLines, written->text, &written->layout);
  view.lines = lines_of(*written);
  view.written = std::move(written);
  return view;
}

// The SHA-256 of a role's whole view (log included): what is kept of a parked role's view, as
// whole views grow with the log and a server may hold many games nobody is at.
core::Digest whole_view(const core::Game& game, Role role) {
  std::string text;
  game.write_view(role, 0, text);
  return core::sha256(text);
}

std::string_view before_lines(const RoleView& view) {
  return std::string_view(view.written->text).substr(0, view.lines.begin);
}
std::string_view after_lines(const RoleView& view) {
  return std::string_view(view.written->text).substr(view.lines.end);
}

}  // namespace

storage::ViewVersions ViewChange::versions() const { return versions_of(next); }

storage::StoredVersions ViewChange::stored_versions() const {
  storage::StoredVersions stored = versions();
  if (next[0].parked) stored.scotland.reset();
  if (next[1].parked) stored.england.reset();
  if (next[2].parked) stored.observer.reset();
  return stored;
}

void RoleViews::reset(const core::Game& game, const storage::ViewVersions& versions) {
  const std::array<std::int64_t, kViewRoles> numbers{versions.scotland, versions.england,
                                                     versions.observer};
  for (Role role : kRoles) {
    auto& view = views_[index(role)];
    view = first_view(game, role);
    view.version = numbers[index(role)];
  }
}

ViewChange RoleViews::change_to(const core::Game& next, PatchRoles patches) const {
  ViewChange change;
  for (Role role : kRoles) {
    const auto i = index(role);
    const auto& before = views_[i];
    auto& after = change.next[i];
    if (before.parked) {
      after = before;
      after.stored = false;
      continue;
    }
    // One view written per role: with the lines the clients lack (they start where the log
    // was, if it grew, or where it now ends, if an undo shortened it: an action never does
    // both); the text around those lines is the key to compare.
    auto written = spares_.take(i);
    written->text.reserve(before.written->text.size() + kSlack);  // written in place
    after.log_size =
        next.write_view(role, before.log_size, written->text, &written->layout, &memos_[i]);
    after.lines = lines_of(*written);
    after.written = written;
    after.version = before.version;
    if (before_lines(after) == before_lines(before) && after_lines(after) == after_lines(before)) {
      after = before;  // the same key: keep the text that published this version
      after.stored = true;
      spares_.keep(i, std::move(written));  // unused: the next change writes over it
      continue;
    }
    after.stored = true;
    change.increments[i] = std::shared_ptr<const std::string>(written, &written->text);
    if (patches[i]) {
      write_view_patch({before.written->text, before.written->layout, before.lines},
                       {written->text, written->layout, after.lines}, written->patch);
      change.patches[i] = std::shared_ptr<const std::string>(written, &written->patch);
    }
    ++after.version;
    change.log_from[i] = static_cast<std::int64_t>(std::min(before.log_size, after.log_size));
  }
  return change;
}

void RoleViews::accept(const ViewChange& change) {
  for (std::size_t i = 0; i < kViewRoles; ++i) {
    if (change.next[i].written != views_[i].written) spares_.keep(i, views_[i].written);
  }
  views_ = change.next;
}

std::shared_ptr<WrittenView> RoleViews::Spares::take(std::size_t role) {
  auto& spare = spares_[role];
  // Only this holds it: no frame is still sending it, no change still refers to it.
  if (spare && spare.use_count() == 1) {
    auto reused = std::const_pointer_cast<WrittenView>(std::move(spare));
    spare.reset();
    return reused;
  }
  return std::make_shared<WrittenView>();
}

void RoleViews::Spares::keep(std::size_t role, std::shared_ptr<const WrittenView> written) {
  spares_[role] = std::move(written);
}

void RoleViews::park(Role role, const core::Game& game) {
  auto& view = views_[index(role)];
  if (view.parked || !view.stored) return;
  view.parked = whole_view(game, role);
  // Its texts are not read while it is parked (unpark writes the view afresh): a game nobody
  // is at keeps only the digest, as a server may hold many such games for days.
  view.written.reset();
  spares_.keep(index(role), nullptr);
}

void RoleViews::unpark(Role role, const core::Game& game) {
  auto& view = views_[index(role)];
  if (!view.parked) return;
  const bool changed = whole_view(game, role) != *view.parked;
  const auto version = view.version + (changed ? 1 : 0);
  view = first_view(game, role);
  view.version = version;
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

namespace {

std::optional<std::int64_t> stored_for(const storage::StoredVersions& v, Role role) {
  return role == Role::Scotland ? v.scotland : role == Role::England ? v.england : v.observer;
}

}  // namespace

VersionReplay::VersionReplay(std::vector<storage::StoredVersions> stored)
    : stored_(std::move(stored)) {
  while (unversioned_ < stored_.size() && stored_[unversioned_].none()) ++unversioned_;
  if (unversioned_ > 0) counter_.emplace();
  for (Role role : kRoles) {
    auto& at = written_at_[RoleViews::index(role)];
    at = unversioned_;
    for (std::size_t i = stored_.size(); i > unversioned_; --i) {
      if (stored_for(stored_[i - 1], role)) {
        at = i;
        break;
      }
    }
  }
}

void VersionReplay::observe(std::size_t applied, const core::Game& game) {
  if (counter_ && applied <= unversioned_) counter_->observe(game);
  for (Role role : kRoles) {
    const auto i = RoleViews::index(role);
    if (written_at_[i] == applied && applied < stored_.size()) written_[i] = whole_view(game, role);
  }
}

storage::ViewVersions VersionReplay::versions(const core::Game& last) const {
  std::array<std::int64_t, kViewRoles> numbers{};
  for (Role role : kRoles) {
    const auto i = RoleViews::index(role);
    const auto at = written_at_[i];
    auto& number = numbers[i];
    if (at > unversioned_) {
      number = *stored_for(stored_[at - 1], role);
    } else if (counter_) {
      number = *stored_for(counter_->versions(), role);  // all three counted
    }
    if (at < stored_.size() && whole_view(last, role) != written_[i]) ++number;
  }
  return {numbers[0], numbers[1], numbers[2]};
}

}  // namespace blockfog::server
