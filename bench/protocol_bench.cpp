// What reading one client frame costs the server (the load goals: bench/RESULTS.md): every action a
// player sends is decoded by protocol::decode_client before its room sees it.

#include <benchmark/benchmark.h>

#include <string>
#include <variant>

#include "protocol/messages.h"

namespace {

using namespace blockfog;

// An action frame as the web client and blockfog-load send it.
const std::string kActionFrame =
    R"({"v":1,"type":"action","seq":412,"ref":"a-1733027000-17",)"
    R"("action":{"block":"sco_wallace","from":"selkirk","kind":"move","to":"lanark"}})";

void BM_DecodeAction(benchmark::State& state) {
  for (auto _ : state) {
    auto decoded = protocol::decode_client(kActionFrame);
    if (!std::holds_alternative<protocol::ClientMessage>(decoded)) {
      state.SkipWithError("the frame was refused");
      break;
    }
    benchmark::DoNotOptimize(decoded);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kActionFrame.size()));
}
BENCHMARK(BM_DecodeAction);

}  // namespace

BENCHMARK_MAIN();
