// What reading a server frame costs blockfog-load (tools/blockfog-load/frame_scan.h): the client
// shares the machine with the server it loads, so its time per frame is taken from the server.
// The frames are real ones, written by `room-bench --dump-frames PATH` (views and patches as a
// load client gets them, one a line). The client scans a frame just received, in cache: so each
// iteration copies the next frames of the file (up to 64 KiB) into a buffer, untimed, and scans
// them there. `frame` is the mean time per frame (the file's frames in turn).
//
// Usage: frame-scan-bench [benchmark flags] FRAMES_FILE

#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/blockfog-load/frame_scan.h"

namespace {

std::vector<std::string> g_frames;       // every frame of the file
std::vector<std::string> g_patches;      // its view_patch frames
std::vector<std::string> g_whole_views;  // its view frames

void scan_all(benchmark::State& state, const std::vector<std::string>& frames) {
  if (frames.empty()) {
    state.SkipWithError("no such frames in the file");
    return;
  }
  constexpr std::size_t kBatchBytes = 64 * 1024;
  blockfog::load::ScannedFrame scanned;  // reused, as the client reuses its scratch frame
  std::string batch;
  std::vector<std::size_t> ends;  // of each frame in `batch`
  std::size_t next = 0;
  std::size_t bytes = 0;
  std::size_t scanned_frames = 0;
  for (auto _ : state) {
    state.PauseTiming();
    batch.clear();
    ends.clear();
    do {
      batch += frames[next];
      ends.push_back(batch.size());
      if (++next == frames.size()) next = 0;
    } while (batch.size() + frames[next].size() <= kBatchBytes);
    state.ResumeTiming();
    std::size_t begin = 0;
    for (const auto end : ends) {
      if (!blockfog::load::scan_frame(std::string_view(batch).substr(begin, end - begin),
                                      scanned)) {
        state.SkipWithError("a frame was not read");
        return;
      }
      benchmark::DoNotOptimize(scanned);
      begin = end;
    }
    bytes += batch.size();
    scanned_frames += ends.size();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["frame"] =
      benchmark::Counter(static_cast<double>(scanned_frames),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_ScanFrames(benchmark::State& state) { scan_all(state, g_frames); }
void BM_ScanPatches(benchmark::State& state) { scan_all(state, g_patches); }
void BM_ScanWholeViews(benchmark::State& state) { scan_all(state, g_whole_views); }
BENCHMARK(BM_ScanFrames);
BENCHMARK(BM_ScanPatches);
BENCHMARK(BM_ScanWholeViews);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: frame-scan-bench [benchmark flags] FRAMES_FILE "
                 "(written by room-bench --dump-frames)\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.find("\"type\":\"view_patch\"") != std::string::npos) {
      g_patches.push_back(line);
    } else if (line.find("\"type\":\"view\"") != std::string::npos) {
      g_whole_views.push_back(line);
    }
    g_frames.push_back(std::move(line));
  }
  if (g_frames.empty()) {
    std::cerr << "frame-scan-bench: no frames in " << argv[1] << "\n";
    return 1;
  }
  std::cerr << "frame-scan-bench: " << g_frames.size() << " frames (" << g_patches.size()
            << " patches, " << g_whole_views.size() << " whole views)\n";
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
