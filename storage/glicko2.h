#pragma once

// The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013), with
// its published defaults: a new player is 1500, deviation 350, volatility 0.06; the system
// constant tau is 0.5 and the volatility iteration stops at 1e-6. Pure arithmetic on the
// Glicko scale (1500-centred); docs/ratings.md says how Blockfog uses it.

#include <span>

namespace blockfog::storage::glicko2 {

inline constexpr double kInitialRating = 1500.0;
inline constexpr double kInitialDeviation = 350.0;
inline constexpr double kInitialVolatility = 0.06;
inline constexpr double kTau = 0.5;

struct Rating {
  double rating = kInitialRating;
  double deviation = kInitialDeviation;
  double volatility = kInitialVolatility;
};

// One game of the rating period: the opponent's rating before the period, and the score
// (1 a win, 0.5 a draw, 0 a loss).
struct Result {
  Rating opponent;
  double score = 0.0;
};

// The player's rating after a rating period with `results` (steps 2 to 8 of the paper). With
// no results only the deviation grows (step 6).
Rating update(const Rating& player, std::span<const Result> results, double tau = kTau);

}  // namespace blockfog::storage::glicko2
