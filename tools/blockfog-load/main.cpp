// blockfog-load: drives a running blockfog-server with N concurrent games, two WebSocket
// clients each, in a closed loop (bench/RESULTS.md, "The goals"): at most one action in flight
// per game, the acting seat picks uniformly among its legal actions and sends the next action
// as soon as the answer to the last one arrives; finished games are replaced by new ones.
// Reports accepted actions per second, the latency from send to the sender's answer, errors,
// the server's CPU time and memory, and its own CPU time. With --idle N it holds N idle
// connections instead.
//
// The server must allow the load: a WebSocket message rate and connections per address above
// its defaults (see bench/load.sh).

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/blockfog-load/load_client.h"
#include "tools/blockfog-load/process_stats.h"

namespace {

using blockfog::load::LoadOptions;
using blockfog::load::LoadResult;
using blockfog::load::ProcessSample;
using nlohmann::json;

constexpr const char* kUsage =
    "usage: blockfog-load [options]\n"
    "  --host ADDRESS       server address (default 127.0.0.1)\n"
    "  --port N             server port (default 8080)\n"
    "  --unix PATH          instead: the server's Unix-domain socket (--listen unix:PATH)\n"
    "  --games N            concurrent games, two WebSocket clients each (default 1)\n"
    "  --duration SECONDS   measured time after the warm-up (default 10)\n"
    "  --actions N          end the measured time early once N actions were accepted\n"
    "  --warmup N           each game first plays a random number of actions below N,\n"
    "                       unmeasured, so the measurement sees games at all stages (default 0)\n"
    "  --scenario ID        braveheart, bruce or campaign (default braveheart)\n"
    "  --seed N             random choices (default 1)\n"
    "  --views KIND         patches (view_patch frames after actions, as the web client\n"
    "                       asks) or whole (whole views) (default patches)\n"
    "  --idle N             instead: hold N idle observer connections, report server memory\n"
    "  --server-pid PID     the server process, for its CPU time and memory\n"
    "Prints a human summary, then one JSON line.\n";

// Samples the server, and this load client, when the measured window opens and closes: the
// two share the machine's cores, so what the client costs per action bounds the rate too.
struct Sampler : blockfog::load::WindowHooks {
  pid_t pid = 0;
  std::optional<ProcessSample> before;
  std::optional<ProcessSample> after;
  std::optional<ProcessSample> client_before;
  std::optional<ProcessSample> client_after;
  void window_started() override {
    if (pid > 0) before = blockfog::load::sample_process(pid);
    client_before = blockfog::load::sample_process(getpid());
  }
  void window_ended() override {
    if (pid > 0) after = blockfog::load::sample_process(pid);
    client_after = blockfog::load::sample_process(getpid());
  }
};

double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1));
  return sorted[index];
}

bool parse_args(int argc, char** argv, LoadOptions& o, pid_t& pid) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return false;
    if (i + 1 >= argc) {
      std::cerr << "blockfog-load: " << arg << " needs a value\n";
      return false;
    }
    const std::string value = argv[++i];
    try {
      if (arg == "--host") {
        o.server.host = value;
      } else if (arg == "--port") {
        o.server.port = std::stoi(value);
      } else if (arg == "--unix") {
        o.server.unix_socket = value;
      } else if (arg == "--games") {
        o.games = std::stoi(value);
      } else if (arg == "--duration") {
        o.duration = std::stod(value);
      } else if (arg == "--actions") {
        o.actions = std::stoll(value);
      } else if (arg == "--warmup") {
        o.warmup = std::stoi(value);
      } else if (arg == "--scenario") {
        o.scenario = value;
      } else if (arg == "--seed") {
        o.seed = std::stoull(value);
      } else if (arg == "--views") {
        if (value != "patches" && value != "whole") {
          std::cerr << "blockfog-load: --views is patches or whole\n";
          return false;
        }
        o.patches = value == "patches";
      } else if (arg == "--idle") {
        o.idle = std::stoi(value);
      } else if (arg == "--server-pid") {
        pid = static_cast<pid_t>(std::stoi(value));
      } else {
        std::cerr << "blockfog-load: unknown option " << arg << "\n";
        return false;
      }
    } catch (const std::exception&) {
      std::cerr << "blockfog-load: bad value for " << arg << ": " << value << "\n";
      return false;
    }
  }
  if (o.games < 1 || o.duration <= 0 || o.warmup < 0 || o.idle < 0 || o.actions < 0) {
    std::cerr << "blockfog-load: --games must be at least 1, --duration positive\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  LoadOptions options;
  Sampler sampler;
  if (!parse_args(argc, argv, options, sampler.pid)) {
    std::cerr << kUsage;
    return 2;
  }
  LoadResult result;
  try {
    result = options.idle > 0 ? blockfog::load::run_idle(options, sampler)
                              : blockfog::load::run_games(options, sampler);
  } catch (const std::exception& e) {
    std::cerr << "blockfog-load: " << e.what() << "\n";
    return 1;
  }

  json report = {{"games", options.games},    {"scenario", options.scenario},
                 {"warmup", options.warmup},  {"views", options.patches ? "patches" : "whole"},
                 {"seconds", result.seconds}, {"errors", result.errors}};
  std::int64_t error_count = 0;
  for (const auto& [code, n] : result.errors) error_count += n;
  if (options.idle > 0) {
    report["idle_connections"] = result.idle_connected;
    std::cout << "idle connections held: " << result.idle_connected << " of " << options.idle
              << "\n";
  } else {
    auto& latencies = result.latencies_us;
    std::sort(latencies.begin(), latencies.end());
    const double rate =
        result.seconds > 0 ? static_cast<double>(result.accepted) / result.seconds : 0;
    report["accepted"] = result.accepted;
    report["actions_per_sec"] = rate;
    report["stale"] = result.stale;
    report["latency_us"] = {{"p50", percentile(latencies, 50)},
                            {"p95", percentile(latencies, 95)},
                            {"p99", percentile(latencies, 99)}};
    report["games_finished"] = result.games_finished;
    std::printf(
        "%d games, %.1f s: %lld actions accepted (%.0f/s), %lld stale, %lld errors\n"
        "latency send -> answer: p50 %.0f us, p95 %.0f us, p99 %.0f us; %lld games finished\n",
        options.games, result.seconds, static_cast<long long>(result.accepted), rate,
        static_cast<long long>(result.stale), static_cast<long long>(error_count),
        percentile(latencies, 50), percentile(latencies, 95), percentile(latencies, 99),
        static_cast<long long>(result.games_finished));
  }
  if (sampler.before && sampler.after) {
    const double cpu = sampler.after->cpu_seconds - sampler.before->cpu_seconds;
    const double window = options.idle > 0 ? 3.0 : result.seconds;
    report["server"] = {{"cpu_seconds", cpu},
                        {"cpu_cores_busy", window > 0 ? cpu / window : 0},
                        {"rss_mib", sampler.after->rss_mib},
                        {"peak_rss_mib", sampler.after->peak_rss_mib}};
    std::printf("server: %.2f CPU seconds (%.2f cores busy), RSS %.1f MiB (peak %.1f MiB)\n", cpu,
                window > 0 ? cpu / window : 0, sampler.after->rss_mib, sampler.after->peak_rss_mib);
  }
  if (sampler.client_before && sampler.client_after && options.idle == 0) {
    const double cpu = sampler.client_after->cpu_seconds - sampler.client_before->cpu_seconds;
    report["client"] = {{"cpu_seconds", cpu},
                        {"cpu_cores_busy", result.seconds > 0 ? cpu / result.seconds : 0}};
    std::printf("load client: %.2f CPU seconds (%.2f cores busy)\n", cpu,
                result.seconds > 0 ? cpu / result.seconds : 0);
  }
  for (const auto& [code, n] : result.errors) {
    std::printf("  error %s: %lld\n", code.c_str(), static_cast<long long>(n));
  }
  std::cout << report.dump() << std::endl;
  return error_count == 0 ? 0 : 1;
}
