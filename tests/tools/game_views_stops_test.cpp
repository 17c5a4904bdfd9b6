// game-views' stops (tools/game-views/stops.h): how a stop is written on the command line and
// when it holds. Each check must be able to fail: a stop that held too early or never would
// give the web client's tests the wrong views.

#include "tools/game-views/stops.h"

#include <gtest/gtest.h>

namespace {

using blockfog::tools::parse_stop;
using blockfog::tools::StepFacts;
using blockfog::tools::Stop;
using nlohmann::json;

Stop stop_of(const std::string& text) {
  std::string error;
  auto stop = parse_stop(text, error);
  EXPECT_TRUE(stop) << text << ": " << error;
  return stop.value_or(Stop{});
}

TEST(GameViewsStops, RefusesMalformedStopsWithTheReason) {
  for (const char* bad : {"nocondition", "=start", "x=", "x=begin", "x=step:two", "x=legal:type",
                          "x=view:units=nojson", "x=view:=1", "bad name=start", "x=start&"}) {
    std::string error;
    EXPECT_FALSE(parse_stop(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(GameViewsStops, LegalMatchesAFieldExactlyOrInPart) {
  const json legal =
      json::array({{{"type", "scots_charge"}},
                   {{"type", "attack"}, {"unit", "sc_longbow1"}, {"target", "0807"}}});
  json view = json::object();
  StepFacts facts;
  facts.step = 3;
  facts.view = &view;
  facts.legal = &legal;
  EXPECT_FALSE(stop_holds(stop_of("c=legal:type=charge"), facts));
  EXPECT_TRUE(stop_holds(stop_of("c=legal:type~charge"), facts));
  EXPECT_TRUE(stop_holds(stop_of("l=legal:type=attack,unit~longbow"), facts));
  EXPECT_FALSE(stop_holds(stop_of("l=legal:type=attack,unit~pike"), facts));
  // Both fields must match the same action.
  EXPECT_FALSE(stop_holds(stop_of("l=legal:type=scots_charge,unit~longbow"), facts));
}

TEST(GameViewsStops, ViewPathsWithWildcardsAndEveryConditionTogether) {
  const json view = {{"phase", "actions"},
                     {"units", json::array({{{"id", "a"}, {"disordered", false}},
                                            {{"id", "b"}, {"disordered", true}}})}};
  const json legal = json::array();
  StepFacts facts;
  facts.step = 0;
  facts.view = &view;
  facts.legal = &legal;
  EXPECT_TRUE(stop_holds(stop_of("d=view:units.*.disordered=true"), facts));
  EXPECT_FALSE(stop_holds(stop_of("d=view:units.*.schiltron=true"), facts));
  EXPECT_TRUE(stop_holds(stop_of("p=view:phase=\"actions\""), facts));
  EXPECT_TRUE(stop_holds(stop_of("s=start&view:phase=\"actions\""), facts));
  EXPECT_FALSE(stop_holds(stop_of("s=start&view:phase=\"setup\""), facts));
  EXPECT_FALSE(stop_holds(stop_of("e=end"), facts));
  facts.step = 1;
  EXPECT_FALSE(stop_holds(stop_of("s=start"), facts));
  EXPECT_TRUE(stop_holds(stop_of("s=step:1"), facts));
  facts.finished = true;
  EXPECT_TRUE(stop_holds(stop_of("e=end"), facts));
}

TEST(GameViewsStops, LogMatchesOnlyTheLinesTheLastActionAdded) {
  const json view = json::object();
  const json legal = json::array();
  StepFacts facts;
  facts.view = &view;
  facts.legal = &legal;
  EXPECT_FALSE(stop_holds(stop_of("c=log: charges "), facts));
  facts.new_lines = {"Turn 2", "Scots ax sc_ax1 charges 0710: 3 dice hitting on 6+, rolled 1,1,2"};
  EXPECT_TRUE(stop_holds(stop_of("c=log: charges "), facts));
  EXPECT_FALSE(stop_holds(stop_of("c=log: attacks "), facts));
}

}  // namespace
