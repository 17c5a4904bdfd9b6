// The view_patch body (server/play/view_patch.h) from two views' texts: members set, unset, arrays
// by changed elements while that is shorter than the whole, the log's new lines only; applied to
// the first view (protocol::apply_view_patch) it gives the second. Whole games:
// role_views_test.cpp.

#include "server/play/view_patch.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "protocol/messages.h"

namespace blockfog::server {
namespace {

using nlohmann::json;

// A view's text as the server holds it: `lines` between the brackets of its log.
struct Text {
  explicit Text(const json& view) : text(view.dump()) {
    EXPECT_TRUE(core::scan_view_layout(text, layout)) << text;
    const auto at = text.find(R"("log":[)");
    lines.begin = at + 7;
    lines.end = text.find("],\"log_size\"", lines.begin);
  }
  ViewText written() const { return {text, layout, lines}; }
  std::string text;
  core::ViewLayout layout;
  core::TextSpan lines;
};

json area(const char* name, int blocks) { return {{"name", name}, {"blocks", blocks}}; }

json base_view() {
  return {{"areas", {area("fife", 1), area("lothian", 2), area("mar", 0), area("moray", 3)}},
          {"battle", {{"area", "fife"}}},
          {"legal_actions", {{{"kind", "pass"}}}},
          {"log", json::array()},
          {"log_size", 2},
          {"phase", "move"}};
}

json patch_between(const json& before, const json& after) {
  std::string out;
  write_view_patch(Text(before).written(), Text(after).written(), out);
  return json::parse(out);
}

TEST(ViewPatch, SetsUnsetsAndReplacesChangedElements) {
  json before = base_view();
  json after = before;
  after["areas"][1]["blocks"] = 5;
  after.erase("battle");
  after["move"] = {{"moved", 1}};
  after["phase"] = "battle";
  after["log"] = {{{"i", 2}, {"text", "Moved."}}};
  after["log_size"] = 3;
  const json patch = patch_between(before, after);
  EXPECT_EQ(patch, json({{"elements", {{"areas", {{1, area("lothian", 5)}}}}},
                         {"set",
                          {{"log", after["log"]},
                           {"log_size", 3},
                           {"move", {{"moved", 1}}},
                           {"phase", "battle"}}},
                         {"unset", {"battle"}}}));
  // The patch is written as nlohmann writes it: the same bytes as its dump.
  std::string out;
  write_view_patch(Text(before).written(), Text(after).written(), out);
  EXPECT_EQ(out, patch.dump());
}

TEST(ViewPatch, AnArrayWhoseChangedElementsAreLongerOrResizedIsSetWhole) {
  json before = base_view();
  json after = before;
  for (int k = 0; k < 4; ++k) after["areas"][k]["blocks"] = 9;
  after["legal_actions"].push_back({{"kind", "move"}});
  const json patch = patch_between(before, after);
  EXPECT_FALSE(patch.contains("elements"));
  EXPECT_EQ(patch["set"]["areas"], after["areas"]);
  EXPECT_EQ(patch["set"]["legal_actions"], after["legal_actions"]);
}

TEST(ViewPatch, TheLogIsSetOnlyWithNewLinesAndAnUnchangedViewIsEmpty) {
  json before = base_view();
  before["log"] = {{{"i", 0}, {"text", "a"}}, {{"i", 1}, {"text", "b"}}};
  json after = base_view();  // the same view, sent without lines: nothing to patch
  EXPECT_EQ(patch_between(before, after), json::object());
  after["log_size"] = 1;  // an undo took a line back
  EXPECT_EQ(patch_between(before, after), json({{"set", {{"log_size", 1}}}}));
}

TEST(ViewPatch, AppliedToTheClientsViewGivesTheNextView) {
  json held = base_view();
  held["log"] = {{{"i", 0}, {"text", "a"}}, {{"i", 1}, {"text", "b"}}};
  json next = held;
  next["areas"][3]["blocks"] = 0;
  next["battle"]["area"] = "moray";
  next["log"].push_back({{"i", 2}, {"text", "c"}});
  next["log_size"] = 3;
  json sent = next;  // pushed with its new line only
  sent["log"] = json::array({next["log"][2]});
  const protocol::ViewPatchMessage patch{7, patch_between(held, sent), 2, std::nullopt};
  json patched = held;
  ASSERT_TRUE(protocol::apply_view_patch(patched, patch));
  EXPECT_EQ(patched, next);
}

}  // namespace
}  // namespace blockfog::server
