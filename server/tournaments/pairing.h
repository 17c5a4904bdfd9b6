#pragma once

// Tournament pairings without I/O (docs/tournaments.md): round robin by the circle method
// (Berger tables), Swiss by a simplified Dutch system, and single elimination. Players are
// account ids given in seed order (the first is seed 1). A pairing's `scotland` plays Scotland
// in its first game; when a pairing plays two games, the second has the sides swapped.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace blockfog::tournament {

using PlayerId = std::int64_t;

enum class Format { RoundRobin, Swiss, SingleElimination };
std::string_view format_name(Format format);  // "round_robin", "swiss", "single_elimination"
std::optional<Format> format_from_name(std::string_view name);

struct Pair {
  PlayerId scotland = 0;
  PlayerId england = 0;
  friend bool operator==(const Pair&, const Pair&) = default;
};

struct RoundPairings {
  std::vector<Pair> pairs;
  std::vector<PlayerId> byes;  // round robin and Swiss: at most one; elimination: round 1 only
};

// How one game of a tournament ended (a game not ended yet is Pending).
enum class GameOutcome { Pending, ScotlandWon, EnglandWon, NoWinner };

struct PlayedGame {
  int round = 0;  // from 1
  PlayerId scotland = 0;
  PlayerId england = 0;
  GameOutcome outcome = GameOutcome::Pending;
};

struct ByeGiven {
  int round = 0;
  PlayerId player = 0;
};

// Everything played so far: the input of the next round's pairing and of the standings.
struct History {
  std::vector<PlayedGame> games;
  std::vector<ByeGiven> byes;
  int games_per_pairing = 1;  // 1 (sides by lot) or 2 (sides swapped)
};

// The number of rounds a format takes for `players` entrants (Swiss: as configured).
int round_robin_rounds(int players);
int elimination_rounds(int players);

// Round `round` (from 1) of a round robin of `players` (seed order): the circle method, the last
// seed fixed (a bye for an odd number). Over all rounds each player's sides differ by at most one.
RoundPairings round_robin_round(const std::vector<PlayerId>& players, int round);

struct PairingError {
  std::string message;
};

// The next Swiss round, or why none exists without a repeat pairing.
std::variant<RoundPairings, PairingError> swiss_round(const std::vector<PlayerId>& players,
                                                      const History& history);

// Round `round` of a single elimination. Round 1 seeds the bracket (1 against the last, ...),
// the top seeds getting the byes up to the next power of two; later rounds pair the winners of
// adjacent matches of the round before, which must all have ended. A tied match (two games one
// each, or a game without a winner) goes to the higher seed.
std::variant<RoundPairings, PairingError> elimination_round(const std::vector<PlayerId>& players,
                                                            const History& history, int round);

// The points each scored in round `round` against each other: a win 1, a game without a
// winner 1/2 each. Used by the standings and by elimination's winners.
struct MatchScore {
  PlayerId a = 0;
  PlayerId b = 0;
  double a_points = 0;
  double b_points = 0;
  bool finished = false;  // all its games ended
};
std::vector<MatchScore> match_scores(const History& history, int round);

}  // namespace blockfog::tournament
