// sample_state_json (ai/determinize.h) writes exactly the same state JSON, draw for draw, as the
// recorded digests: the sampler's output and its use of the random generator are pinned, so
// that a rewrite of how the JSON is built cannot change a sample (and so the computer's
// choices, which the recorded strength figures in docs/ai.md are of).

#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "ai/determinize.h"
#include "rules/core/hex.h"
#include "rules/core/sha256.h"
#include "rules/hots/engine.h"
#include "rules/hots/view.h"

namespace blockfog::ai {
namespace {

using nlohmann::json;

struct Digested {
  std::string digest;
  int samples = 0;
  std::map<std::string, int> per_phase;
};

// Samples a seat's view at decisions of seeded random games of `scenario`: the first
// `per_phase` decisions of each phase the sampler rebuilds (every third of the move phase,
// whose moving blocks come later), each passed the seat's last views as history. The digest
// covers each sample's JSON text and the generator's next output after it.
Digested digest_samples(int scenario, int games, int per_phase) {
  core::Sha256 hash;
  Digested out;
  hots::ActionList list;
  for (int g = 1; g <= games; ++g) {
    core::Seed seed{};
    seed[0] = static_cast<std::uint8_t>(g);
    seed[1] = static_cast<std::uint8_t>(scenario);
    auto s = hots::setup(seed, scenario, hots::Options{});
    std::mt19937_64 play(static_cast<std::uint64_t>(g * 7 + scenario));
    Random random(static_cast<std::uint64_t>(g * 31 + scenario));
    std::array<std::deque<json>, 2> history;
    for (int i = 0; i < 4000 && !hots::outcome(s).finished; ++i) {
      const auto role = hots::active_roles(s).at(0);
      hots::legal_actions(s, role, list);
      std::size_t forward = list.size();
      if (forward > 0 && list[forward - 1].kind == hots::ActionKind::Undo) --forward;
      if (forward == 0) break;
      const std::string phase(hots::phase_name(s.phase));
      if (out.per_phase[phase] < per_phase && (s.phase != hots::Phase::Move || i % 3 == 0)) {
        const auto view = hots::view(s, role);
        if (can_determinize(view)) {
          auto& seen = history[static_cast<std::size_t>(role)];
          const std::vector<json> earlier(seen.begin(), seen.end());
          std::string text;
          try {
            text = sample_state_json(view, earlier, random).dump();
          } catch (const std::exception& e) {
            text = std::string("error: ") + e.what();
          }
          hash.update(text);
          hash.update(std::to_string(random()));
          ++out.samples;
          ++out.per_phase[phase];
          seen.push_back(view);
          if (seen.size() > 4) seen.pop_front();
        }
      }
      hots::apply_legal(s, role, list[play() % forward]);
    }
  }
  out.digest = core::to_hex(hash.finish());
  return out;
}

std::string phases(const Digested& d) {
  std::string text;
  for (const auto& [phase, n] : d.per_phase) text += phase + "=" + std::to_string(n) + " ";
  return text;
}

TEST(AiSampleStateJson, EachScenarioGivesTheRecordedSamples) {
  const std::array<const char*, 3> recorded = {
      "931cdb7e9bc4b72260fa9081dace7a310373e634457ac1324e2c23aab6697063",
      "3f8dcd11d1ec9ec0536473f652a9e363ac421011789816d92aeb52ad9c21dc88",
      "6302ed4f15c5e863e604d77962b13b040888b084753be14982b97777edd8b4ef",
  };
  for (int scenario = 0; scenario < 3; ++scenario) {
    const auto got = digest_samples(scenario, 2, 25);
    EXPECT_GT(got.samples, 150) << phases(got);
    EXPECT_GE(got.per_phase.size(), 7U) << phases(got);
    EXPECT_EQ(got.digest, recorded[scenario]) << "scenario " << scenario << ": " << phases(got);
  }
}

}  // namespace
}  // namespace blockfog::ai
