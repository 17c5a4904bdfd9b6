// "State copies and views must not allocate per action": over whole random games of
// every scenario, listing the legal actions into an ActionList and writing each role's view
// into a reused buffer make no heap allocation at all. A separate executable, because it
// replaces the global operator new to count.

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "rules/core/chacha20.h"
#include "rules/hots/engine.h"
#include "rules/hots/legal_cache.h"
#include "rules/hots/view.h"

namespace {

std::atomic<long> allocations{0};

}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace blockfog::hots {
namespace {

using core::Role;

static_assert(std::is_trivially_copyable_v<Position>, "Position copies must not allocate");

TEST(NoAllocation, LegalActionsAndTextViewsOverWholeGamesOfEveryScenario) {
  ActionList list;
  std::vector<std::string> views(3);
  for (auto& v : views) v.reserve(1 << 20);  // room for any view but the final one
  std::vector<std::pair<Role, Action>> choices;
  choices.reserve(4096);
  long calls = 0;
  long counted = 0;
  for (int scenario = 0; scenario < 3; ++scenario) {
    core::Seed seed{};
    seed[2] = static_cast<std::uint8_t>(scenario + 1);
    State s = setup(seed, scenario, Options{scenario == 2});
    std::mt19937 gen(static_cast<std::mt19937::result_type>(scenario));
    std::size_t seen[3] = {0, 0, 0};
    for (bool warm = scenario == 0; s.phase != Phase::GameOver; warm = false) {
      // (The very first round builds the view writer's static tables: not counted.)
      const long before = allocations.load();
      choices.clear();
      for (Role role : {Role::Scotland, Role::England}) {
        legal_actions(s, role, list);
        for (const auto& a : list) choices.emplace_back(role, a);
      }
      for (Role role : {Role::Scotland, Role::England, Role::Observer}) {
        const auto r = static_cast<int>(role);
        seen[r] = write_view(s, role, r == 2 ? 0 : seen[r], views[r]);  // observers: whole log
      }
      if (!warm) counted += allocations.load() - before;
      ++calls;
      ASSERT_FALSE(choices.empty());
      const auto& [role, action] = choices[gen() % choices.size()];
      apply_legal(s, role, action);
    }
  }
  EXPECT_GT(calls, 3000);
  EXPECT_EQ(counted, 0) << "heap allocations in " << calls << " rounds of legal_actions and views";
}

// A random playout as the benchmark plays it (bench/engine_bench.cpp): lists through a reused
// LegalCache and applies through it. Once the cache has its buffers and the state's log and
// undo history have room, a whole game makes no heap allocation, draws and levies included.
long playout_allocations(int scenario, LegalCache& cache) {
  core::Seed seed{};
  seed[5] = static_cast<std::uint8_t>(scenario + 7);
  State s = setup(seed, scenario, Options{});
  s.log.reserve(1 << 16);
  s.undo.reserve(256);
  core::ChaCha20Stream chooser(seed, 1);
  cache.reset();
  const long before = allocations.load();
  while (s.phase != Phase::GameOver) {
    const ActionList& scotland = legal_actions(s, Role::Scotland, cache);
    const ActionList& england = legal_actions(s, Role::England, cache);
    const auto total = scotland.size() + england.size();
    if (total == 0) break;
    const std::size_t i = chooser.uniform(static_cast<std::uint32_t>(total));
    if (i < scotland.size()) {
      apply_legal(s, Role::Scotland, scotland[i], cache);
    } else {
      apply_legal(s, Role::England, england[i - scotland.size()], cache);
    }
  }
  return allocations.load() - before;
}

TEST(NoAllocation, PlayoutsThroughAReusedLegalCache) {
  LegalCache cache;
  for (int scenario = 0; scenario < 3; ++scenario) {
    playout_allocations(scenario, cache);  // the same game once, to give the cache its buffers
    EXPECT_EQ(playout_allocations(scenario, cache), 0) << "scenario " << scenario;
  }
}

TEST(NoAllocation, TheCounterSeesAllocations) {
  const long before = allocations.load();
  auto legal = legal_actions(setup(core::Seed{}, 0, Options{}), Role::Scotland);  // a vector
  EXPECT_GT(allocations.load(), before);
  EXPECT_FALSE(legal.empty());
}

}  // namespace
}  // namespace blockfog::hots
