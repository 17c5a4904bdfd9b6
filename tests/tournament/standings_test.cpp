// Standings and their tie-breaks (docs/tournaments.md).

#include "server/tournaments/standings.h"

#include <gtest/gtest.h>

namespace blockfog::tournament {
namespace {

TEST(Standings, SwissBreaksTiesByBuchholzThenSonnebornBerger) {
  // 1 beats 2, 3 beats 4 (round 1); 1 beats 3, 4 beats 2 (round 2); 3 beats 2? no: round 3
  // 4 beats 1, 2 beats 3. Points: 1:2, 2:1, 3:1, 4:2.
  const std::vector<PlayerId> players{1, 2, 3, 4};
  History h;
  h.games = {{1, 1, 2, GameOutcome::ScotlandWon}, {1, 3, 4, GameOutcome::ScotlandWon},
             {2, 1, 3, GameOutcome::ScotlandWon}, {2, 4, 2, GameOutcome::ScotlandWon},
             {3, 4, 1, GameOutcome::ScotlandWon}, {3, 2, 3, GameOutcome::ScotlandWon}};
  const auto s = standings(Format::Swiss, players, h);
  ASSERT_EQ(s.size(), 4u);
  // 1 met 2, 3, 4 (1+1+2 = 4); 4 met 3, 2, 1 (1+1+2 = 4): Buchholz level. SB: 1 beat 2 and 3
  // (1+1 = 2); 4 beat 2 and 1 (1+2 = 3): 4 first.
  EXPECT_EQ(s[0].player, 4);
  EXPECT_EQ(s[1].player, 1);
  EXPECT_DOUBLE_EQ(s[0].points, 2);
  EXPECT_DOUBLE_EQ(s[0].buchholz, 4);
  EXPECT_DOUBLE_EQ(s[0].sonneborn_berger, 3);
  EXPECT_DOUBLE_EQ(s[1].sonneborn_berger, 2);
  EXPECT_EQ(s[0].rank, 1);
  EXPECT_EQ(s[3].rank, 4);
}

TEST(Standings, AByeScoresAWinWorthThePairingsGames) {
  const std::vector<PlayerId> players{1, 2, 3};
  History h;
  h.games_per_pairing = 2;
  h.games = {{1, 1, 2, GameOutcome::ScotlandWon}, {1, 2, 1, GameOutcome::ScotlandWon}};
  h.byes = {{1, 3}};
  const auto s = standings(Format::Swiss, players, h);
  EXPECT_EQ(s[0].player, 3);
  EXPECT_DOUBLE_EQ(s[0].points, 2);
  EXPECT_EQ(s[0].byes, 1);
  EXPECT_DOUBLE_EQ(s[0].buchholz, 0);
}

TEST(Standings, RoundRobinBreaksTiesHeadToHeadThenWinsAsScotland) {
  const std::vector<PlayerId> players{1, 2, 3, 4};
  History h;
  // 3 and 2 finish on 2 points; 3 beat 2, so 3 ranks above despite the later seed.
  h.games = {{1, 1, 2, GameOutcome::EnglandWon},  {1, 3, 4, GameOutcome::ScotlandWon},
             {2, 1, 3, GameOutcome::ScotlandWon}, {2, 2, 4, GameOutcome::ScotlandWon},
             {3, 3, 2, GameOutcome::ScotlandWon}, {3, 4, 1, GameOutcome::ScotlandWon}};
  auto s = standings(Format::RoundRobin, players, h);
  // Points: 1: 1, 2: 2, 3: 2, 4: 1.
  EXPECT_EQ(s[0].player, 3);
  EXPECT_EQ(s[1].player, 2);
  // 1 and 4: 4 beat 1 as Scotland, head-to-head decides: 4 above 1.
  EXPECT_EQ(s[2].player, 4);
  EXPECT_EQ(s[3].player, 1);

  // Head-to-head level (no winner between them): wins as Scotland decide.
  History level;
  level.games = {{1, 1, 2, GameOutcome::NoWinner},
                 {1, 3, 4, GameOutcome::NoWinner},
                 {2, 3, 1, GameOutcome::EnglandWon},
                 {2, 2, 4, GameOutcome::ScotlandWon}};
  s = standings(Format::RoundRobin, players, level);
  // 1 (won as England) and 2 (won as Scotland) on 1.5 each: 2 first.
  EXPECT_EQ(s[0].player, 2);
  EXPECT_EQ(s[1].player, 1);
}

TEST(Standings, EliminationRanksByTheRoundLost) {
  const std::vector<PlayerId> players{1, 2, 3, 4};
  History h;
  h.games = {{1, 1, 4, GameOutcome::EnglandWon},
             {1, 2, 3, GameOutcome::ScotlandWon},
             {2, 2, 4, GameOutcome::EnglandWon}};
  const auto s = standings(Format::SingleElimination, players, h);
  EXPECT_EQ(s[0].player, 4);
  EXPECT_EQ(s[0].out_in_round, 0);
  EXPECT_EQ(s[1].player, 2);
  EXPECT_EQ(s[1].out_in_round, 2);
  EXPECT_EQ(s[2].out_in_round, 1);
}

}  // namespace
}  // namespace blockfog::tournament
