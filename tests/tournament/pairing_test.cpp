// Pairings of the three formats (docs/tournaments.md): who meets whom, sides and byes.

#include "server/tournaments/pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace blockfog::tournament {
namespace {

std::vector<PlayerId> players_1_to(int n) {
  std::vector<PlayerId> players;
  for (int i = 1; i <= n; ++i) players.push_back(100 + i);
  return players;
}

std::pair<PlayerId, PlayerId> key(PlayerId a, PlayerId b) {
  return {std::min(a, b), std::max(a, b)};
}

// Plays a round's pairings: the lower id wins when `upsets` is false, else a fixed mix.
void play(History& history, int round, const RoundPairings& pairings, unsigned salt) {
  for (const auto& p : pairings.pairs) {
    const unsigned h = static_cast<unsigned>(p.scotland * 31 + p.england * 17) + salt;
    history.games.push_back({round, p.scotland, p.england,
                             h % 3 == 0   ? GameOutcome::ScotlandWon
                             : h % 3 == 1 ? GameOutcome::EnglandWon
                                          : GameOutcome::NoWinner});
  }
  for (const auto b : pairings.byes) history.byes.push_back({round, b});
}

TEST(RoundRobin, EveryPairMeetsOnceWithSidesBalanced) {
  for (int n : {2, 4, 6, 7, 8, 9}) {
    const auto players = players_1_to(n);
    std::set<std::pair<PlayerId, PlayerId>> met;
    std::map<PlayerId, int> balance;
    std::map<PlayerId, int> byes;
    ASSERT_EQ(round_robin_rounds(n), n % 2 == 0 ? n - 1 : n);
    for (int r = 1; r <= round_robin_rounds(n); ++r) {
      const auto round = round_robin_round(players, r);
      std::set<PlayerId> seen;
      for (const auto& p : round.pairs) {
        EXPECT_TRUE(met.insert(key(p.scotland, p.england)).second) << "repeat in round " << r;
        EXPECT_TRUE(seen.insert(p.scotland).second);
        EXPECT_TRUE(seen.insert(p.england).second);
        ++balance[p.scotland];
        --balance[p.england];
      }
      ASSERT_EQ(round.byes.size(), static_cast<std::size_t>(n % 2));
      for (const auto b : round.byes) {
        EXPECT_TRUE(seen.insert(b).second);
        ++byes[b];
      }
      EXPECT_EQ(seen.size(), players.size()) << "everybody plays or has the bye";
    }
    EXPECT_EQ(met.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << n << " players";
    for (const auto p : players) {
      EXPECT_LE(std::abs(balance[p]), 1) << "sides of " << p << " with " << n << " players";
      if (n % 2 == 1) {
        EXPECT_EQ(byes[p], 1);
      }
    }
  }
}

TEST(Swiss, FirstRoundPairsTopHalfAgainstBottomHalf) {
  const auto players = players_1_to(8);
  const auto round = std::get<RoundPairings>(swiss_round(players, {}));
  ASSERT_EQ(round.pairs.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(key(round.pairs[i].scotland, round.pairs[i].england),
              key(players[i], players[i + 4]));
  }
  EXPECT_TRUE(round.byes.empty());
}

TEST(Swiss, SixteenPlayersFiveRoundsNeverRepeatAndPairWithinScoreGroups) {
  const auto players = players_1_to(16);
  History history;
  std::set<std::pair<PlayerId, PlayerId>> met;
  std::map<PlayerId, int> balance;
  for (int r = 1; r <= 5; ++r) {
    // Points before the round, to check that pairs come from the same score group mostly.
    std::map<PlayerId, double> points;
    for (const auto& g : history.games) {
      points[g.scotland] += g.outcome == GameOutcome::ScotlandWon ? 1
                            : g.outcome == GameOutcome::NoWinner  ? 0.5
                                                                  : 0;
      points[g.england] += g.outcome == GameOutcome::EnglandWon ? 1
                           : g.outcome == GameOutcome::NoWinner ? 0.5
                                                                : 0;
    }
    const auto result = swiss_round(players, history);
    ASSERT_TRUE(std::holds_alternative<RoundPairings>(result)) << "round " << r;
    const auto& round = std::get<RoundPairings>(result);
    ASSERT_EQ(round.pairs.size(), 8u);
    EXPECT_TRUE(round.byes.empty());
    std::set<PlayerId> seen;
    int same_group = 0;
    for (const auto& p : round.pairs) {
      EXPECT_TRUE(met.insert(key(p.scotland, p.england)).second) << "repeat in round " << r;
      seen.insert(p.scotland);
      seen.insert(p.england);
      ++balance[p.scotland];
      --balance[p.england];
      if (points[p.scotland] == points[p.england]) ++same_group;
    }
    EXPECT_EQ(seen.size(), 16u);
    EXPECT_GE(same_group, 4) << "most pairs in round " << r << " within a score group";
    play(history, r, round, static_cast<unsigned>(r));
  }
  for (const auto p : players) EXPECT_LE(std::abs(balance[p]), 2) << p;
}

TEST(Swiss, OddFieldGivesAtMostOneByeEachToTheLowestRankedWithout) {
  const auto players = players_1_to(15);
  History history;
  std::set<std::pair<PlayerId, PlayerId>> met;
  std::map<PlayerId, int> byes;
  for (int r = 1; r <= 5; ++r) {
    const auto result = swiss_round(players, history);
    ASSERT_TRUE(std::holds_alternative<RoundPairings>(result)) << "round " << r;
    const auto& round = std::get<RoundPairings>(result);
    ASSERT_EQ(round.byes.size(), 1u);
    const auto bye = round.byes.front();
    EXPECT_EQ(++byes[bye], 1) << "a second bye for " << bye;
    // Nobody without a bye has fewer points than the one who got it.
    std::map<PlayerId, double> points;
    for (const auto& g : history.games) {
      points[g.scotland] += g.outcome == GameOutcome::ScotlandWon ? 1
                            : g.outcome == GameOutcome::NoWinner  ? 0.5
                                                                  : 0;
      points[g.england] += g.outcome == GameOutcome::EnglandWon ? 1
                           : g.outcome == GameOutcome::NoWinner ? 0.5
                                                                : 0;
    }
    for (const auto& b : history.byes) points[b.player] += 1;
    for (const auto p : players) {
      if (byes[p] == 0) {
        EXPECT_GE(points[p], points[bye]) << "round " << r;
      }
    }
    for (const auto& p : round.pairs) {
      EXPECT_TRUE(met.insert(key(p.scotland, p.england)).second) << "repeat in round " << r;
    }
    play(history, r, round, static_cast<unsigned>(r) * 7);
  }
  EXPECT_EQ(history.byes.size(), 5u);
  // Round 1's bye goes to the last seed.
  EXPECT_EQ(history.byes.front().player, players.back());
}

TEST(Swiss, RefusesWhenEveryPairingWouldRepeat) {
  const auto players = players_1_to(2);
  History history;
  history.games.push_back({1, players[0], players[1], GameOutcome::ScotlandWon});
  const auto result = swiss_round(players, history);
  ASSERT_TRUE(std::holds_alternative<PairingError>(result));
  EXPECT_NE(std::get<PairingError>(result).message.find("repeat"), std::string::npos);
}

TEST(Elimination, TopSeedsGetTheByesAndWinnersMeet) {
  const auto players = players_1_to(6);  // a bracket of 8: seeds 1 and 2 have byes
  ASSERT_EQ(elimination_rounds(6), 3);
  History history;
  const auto r1 = std::get<RoundPairings>(elimination_round(players, history, 1));
  EXPECT_EQ(r1.byes, (std::vector<PlayerId>{players[0], players[1]}));
  ASSERT_EQ(r1.pairs.size(), 2u);
  EXPECT_EQ(key(r1.pairs[0].scotland, r1.pairs[0].england), key(players[3], players[4]));
  EXPECT_EQ(key(r1.pairs[1].scotland, r1.pairs[1].england), key(players[2], players[5]));
  for (const auto b : r1.byes) history.byes.push_back({1, b});
  // Round 2 cannot be paired before round 1 ended.
  history.games.push_back({1, players[3], players[4], GameOutcome::Pending});
  history.games.push_back({1, players[2], players[5], GameOutcome::Pending});
  EXPECT_TRUE(std::holds_alternative<PairingError>(elimination_round(players, history, 2)));
  // Seed 5 beats seed 4; seeds 3 and 6 end without a winner: the higher seed (3) goes on.
  history.games[0].outcome =
      history.games[0].scotland == players[4] ? GameOutcome::ScotlandWon : GameOutcome::EnglandWon;
  history.games[1].outcome = GameOutcome::NoWinner;
  const auto r2 = std::get<RoundPairings>(elimination_round(players, history, 2));
  EXPECT_TRUE(r2.byes.empty());
  ASSERT_EQ(r2.pairs.size(), 2u);
  EXPECT_EQ(key(r2.pairs[0].scotland, r2.pairs[0].england), key(players[0], players[4]));
  EXPECT_EQ(key(r2.pairs[1].scotland, r2.pairs[1].england), key(players[1], players[2]));
}

TEST(Formats, NamesRoundTripAndUnknownIsRefused) {
  for (auto f : {Format::RoundRobin, Format::Swiss, Format::SingleElimination}) {
    EXPECT_EQ(format_from_name(format_name(f)), f);
  }
  EXPECT_FALSE(format_from_name("knockout").has_value());
}

}  // namespace
}  // namespace blockfog::tournament
