#include "storage/glicko2.h"

#include <cmath>
#include <numbers>

namespace blockfog::storage::glicko2 {
namespace {

constexpr double kScale = 173.7178;  // Glicko to Glicko-2 scale (step 2)
constexpr double kEpsilon = 0.000001;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility, by the Illinois algorithm.
double new_volatility(double sigma, double phi, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b = 0.0;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    double k = 1.0;
    while (f(a - k * tau) < 0.0) k += 1.0;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  while (std::fabs(big_b - big_a) > kEpsilon) {
    const double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(c);
    if (f_c * f_b <= 0.0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a /= 2.0;
    }
    big_b = c;
    f_b = f_c;
  }
  return std::exp(big_a / 2.0);
}

}  // namespace

Rating update(const Rating& player, std::span<const Result> results, double tau) {
  const double mu = (player.rating - kInitialRating) / kScale;
  const double phi = player.deviation / kScale;
  if (results.empty()) {
    const double phi_star = std::sqrt(phi * phi + player.volatility * player.volatility);
    return {player.rating, phi_star * kScale, player.volatility};
  }
  // Steps 3 and 4: the estimated variance v and the improvement delta.
  double inverse_v = 0.0;
  double sum = 0.0;
  for (const auto& r : results) {
    const double mu_j = (r.opponent.rating - kInitialRating) / kScale;
    const double phi_j = r.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
    sum += g(phi_j) * (r.score - e);
  }
  const double v = 1.0 / inverse_v;
  const double delta = v * sum;
  const double sigma = new_volatility(player.volatility, phi, v, delta, tau);
  // Steps 6 to 8.
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double new_phi = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double new_mu = mu + new_phi * new_phi * sum;
  return {kScale * new_mu + kInitialRating, kScale * new_phi, sigma};
}

}  // namespace blockfog::storage::glicko2
