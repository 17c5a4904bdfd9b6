// The server's work per action without the network: N game rooms, each with its two seats as
// in-process clients, played in a closed loop (one action in flight per game, a random legal
// action of a seat that may act) through Room::receive, the engine, the view writers and the
// storage thread committing to SQLite in WAL mode, exactly as in blockfog-server, but with no
// socket, no WebSocket framing and no load client sharing the cores. On this shared machine
// blockfog-load's numbers drift by a quarter from hour to hour and include the kernel's TCP
// work; this one isolates what the server's own code costs.
//
// Usage: room-bench [--games N] [--actions K] [--warmup W] [--views patches|whole] [--seed S]
//                   [--dump-frames PATH]
// Prints one JSON line: actions/s and CPU per action of the server's code (the process's CPU
// time less what this driver spends choosing actions and reading frames). --dump-frames also
// writes every frame the seats receive, whole, one a line (compact JSON has no raw newline), as
// frame-scan-bench's input: real server frames in the order a load client gets them (the
// timings then include the writes).

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/view_frame.h"
#include "rules/core/role.h"
#include "server/db_worker.h"
#include "server/metrics.h"
#include "server/play/game_loader.h"
#include "server/play/room.h"
#include "server/play/room_registry.h"
#include "tools/blockfog-load/frame_scan.h"
#include "tools/blockfog-load/process_stats.h"

namespace {

using blockfog::core::Role;
using blockfog::server::Room;
using blockfog::server::RoomClient;
using nlohmann::json;

struct Options {
  int games = 100;
  long actions = 50'000;
  long warmup = 10'000;
  bool patches = true;
  std::uint64_t seed = 1;
  std::string dump_frames;  // a file for every frame received, or empty
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// This process's CPU time (all threads: the storage thread's commits included), read as
// blockfog-load reads the server's.
double process_cpu_seconds() {
  const auto sample = blockfog::load::sample_process(getpid());
  return sample ? sample->cpu_seconds : 0;
}

// Every room's strand: tasks run in order on the driver's thread (the server's network
// thread), posted by the rooms and by the storage thread's commits.
class TaskQueue {
 public:
  blockfog::server::Strand strand() {
    return [this](std::function<void()> task) {
      {
        std::lock_guard lock(mutex_);
        tasks_.push_back(std::move(task));
      }
      posted_.notify_one();
    };
  }
  // Runs what is queued; waits for a task if there is none.
  void run_some() {
    std::deque<std::function<void()>> batch;
    {
      std::unique_lock lock(mutex_);
      posted_.wait(lock, [this] { return !tasks_.empty(); });
      batch.swap(tasks_);
    }
    for (auto& task : batch) task();
  }

 private:
  std::mutex mutex_;
  std::condition_variable posted_;
  std::deque<std::function<void()>> tasks_;
};

// What one seat reads of its frames: its view version, whether an answer to its action came.
class Seat : public RoomClient {
 public:
  std::int64_t seq = 0;
  std::string awaited_ref;  // the ref of this seat's action in flight
  bool answered = false;
  bool applied = false;           // the answer was the new view, not a stale view or an error
  std::ofstream* dump = nullptr;  // where every frame received is written (--dump-frames)

  void send(std::shared_ptr<const std::string> frame) override {
    if (dump) *dump << *frame << '\n';
    read(*frame);
  }
  void send_view(std::shared_ptr<const std::string> head,
                 std::shared_ptr<const std::string> body) override {
    if (dump) *dump << *head << *body << blockfog::protocol::kViewFrameTail << '\n';
    // Everything this seat needs is in the frame's head (the version, the ref, stale): the
    // driver's own copy of the game knows the legal actions.
    read(*head + "{}" + std::string(blockfog::protocol::kViewFrameTail));
  }
  void close() override {}

 private:
  void read(const std::string& frame) {
    if (!blockfog::load::scan_frame(frame, scanned_)) return;
    if (scanned_.is_view() && scanned_.seq) seq = *scanned_.seq;
    if (!awaited_ref.empty() && scanned_.ref == awaited_ref) {
      answered = true;
      applied = scanned_.is_view() && !scanned_.stale;
    }
  }
  blockfog::load::ScannedFrame scanned_;
};

struct Game {
  std::shared_ptr<Room> room;
  std::shared_ptr<blockfog::core::Game> shadow;  // the same game, to choose legal actions
  std::shared_ptr<Seat> seats[2];
  int actor = -1;
  json action;
  long refs = 0;
};

// False (the usage is printed) for an unknown option, a missing or malformed value, or
// --views other than patches or whole.
bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const std::string value = argv[i + 1];
    try {
      if (arg == "--games") {
        o.games = std::stoi(value);
      } else if (arg == "--actions") {
        o.actions = std::stol(value);
      } else if (arg == "--warmup") {
        o.warmup = std::stol(value);
      } else if (arg == "--views") {
        if (value != "patches" && value != "whole") return false;
        o.patches = value == "patches";
      } else if (arg == "--seed") {
        o.seed = std::stoull(value);
      } else if (arg == "--dump-frames") {
        o.dump_frames = value;
      } else {
        return false;
      }
    } catch (const std::exception&) {  // std::invalid_argument, std::out_of_range
      std::cerr << "room-bench: bad value for " << arg << ": " << value << "\n";
      return false;
    }
  }
  return argc % 2 == 1 && o.games > 0 && o.actions > 0 && o.warmup >= 0;
}

std::int64_t create_game(blockfog::server::DbWorker& db, int n, std::mt19937_64& rng) {
  char seed_hex[65];
  std::snprintf(seed_hex, sizeof seed_hex, "%016llx%016llx%016llx%016llx",
                static_cast<unsigned long long>(rng()), static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng()), static_cast<unsigned long long>(rng()));
  return db.call([&](blockfog::storage::Store& store) {
    constexpr std::int64_t kNow = 1'700'000'000'000;
    const auto scot = store.create_account("bench_scot_" + std::to_string(n), "x", kNow);
    const auto eng = store.create_account("bench_eng_" + std::to_string(n), "x", kNow);
    blockfog::storage::NewGame game;
    game.rules_version = "hots-2";
    game.scenario = "braveheart";
    game.seed_hex = seed_hex;
    game.seed_sha256 = blockfog::server::seed_commitment(seed_hex);
    game.created_by = scot->id;
    game.creator_role = "scotland";
    game.visibility = blockfog::storage::Visibility::Public;
    const auto row = store.create_game(game, kNow);
    store.take_seat(row.id, "england", eng->id, kNow);
    store.set_game_status(row.id, blockfog::storage::GameStatus::Active, kNow);
    return row.id;
  });
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::cerr << "usage: room-bench [--games N] [--actions K] [--warmup W] "
                 "[--views patches|whole] [--seed S] [--dump-frames PATH]\n";
    return 2;
  }
  const auto dir = std::filesystem::temp_directory_path() /
                   ("room-bench-" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::create_directories(dir);
  long played = 0;
  long measured_from = 0;
  bool measuring = false;
  double driver_cpu = 0;  // this thread's time taking answers and choosing actions
  double cpu_start = 0;
  double driver_start = 0;
  auto wall_start = std::chrono::steady_clock::now();
  std::ofstream dump;
  if (!o.dump_frames.empty()) {
    dump.open(o.dump_frames, std::ios::binary | std::ios::trunc);
    if (!dump) {
      std::cerr << "room-bench: cannot write " << o.dump_frames << "\n";
      return 1;
    }
  }
  {
    blockfog::server::DbWorker db(dir / "bench.db", blockfog::storage::Sync::Normal);
    blockfog::server::Metrics metrics;
    TaskQueue queue;
    blockfog::server::RoomRegistry registry(db, metrics,
                                            [&](std::int64_t) { return queue.strand(); });
    std::mt19937_64 rng(o.seed);
    std::vector<Game> games;
    const auto updates =
        o.patches ? blockfog::server::ViewUpdates::Patches : blockfog::server::ViewUpdates::Views;
    const auto start = [&](Game& g, int n) {
      const auto id = create_game(db, n, rng);
      g = Game{};
      g.room = registry.open(id);
      const auto row = db.call([id](blockfog::storage::Store& s) { return *s.find_game(id); });
      g.shadow = blockfog::server::setup_game(row).game;
      for (int s = 0; s < 2; ++s) {
        g.seats[s] = std::make_shared<Seat>();
        if (dump.is_open()) g.seats[s]->dump = &dump;
        g.room->join(g.seats[s], s == 0 ? Role::Scotland : Role::England,
                     blockfog::server::Player{0, "bench", std::nullopt}, 0, updates);
      }
    };
    games.resize(static_cast<std::size_t>(o.games));
    for (int n = 0; n < o.games; ++n) start(games[static_cast<std::size_t>(n)], n);
    int next_game = o.games;
    const long total = o.warmup + o.actions;
    std::vector<Game*> sending;
    while (played < total) {
      // The driver's part, timed as a whole (a thread CPU clock reading is a system call):
      // answers taken, the driver's copies of the games moved on, the next actions chosen.
      const double t0 = thread_cpu_seconds();
      sending.clear();
      for (auto& g : games) {
        if (g.actor >= 0) {
          auto& seat = *g.seats[g.actor];
          if (!seat.answered) continue;
          if (seat.applied) {
            g.shadow->apply(g.actor == 0 ? Role::Scotland : Role::England, g.action);
            ++played;
          }
          seat.awaited_ref.clear();
          g.actor = -1;
        }
        std::vector<std::pair<int, json>> choices;
        for (int s = 0; s < 2; ++s) {
          for (const auto& a : g.shadow->legal_actions(s == 0 ? Role::Scotland : Role::England)) {
            choices.emplace_back(s, a);
          }
        }
        if (choices.empty()) {
          // The game is over: a new one in its place (timed with the driver: in the server the
          // lobby's requests set games up).
          start(g, next_game++);
          continue;
        }
        const auto& [s, action] =
            choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
        g.actor = s;
        g.action = action;
        auto& seat = *g.seats[s];
        seat.awaited_ref = "r" + std::to_string(++g.refs);
        seat.answered = false;
        sending.push_back(&g);
      }
      driver_cpu += thread_cpu_seconds() - t0;
      if (!measuring && played >= o.warmup) {
        measuring = true;
        measured_from = played;
        cpu_start = process_cpu_seconds();
        driver_start = driver_cpu;
        wall_start = std::chrono::steady_clock::now();
      }
      // The server's part: each action received by its room, then whatever the rooms and the
      // storage thread's commits queue on the strands.
      for (Game* g : sending) {
        auto& seat = *g->seats[g->actor];
        g->room->receive(&seat,
                         blockfog::protocol::ActionMessage{seat.seq, g->action, seat.awaited_ref},
                         std::chrono::steady_clock::now());
      }
      queue.run_some();
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    const auto measured = static_cast<double>(played - measured_from);
    const double driver = driver_cpu - driver_start;
    const double cpu = process_cpu_seconds() - cpu_start - driver;
    const json report = {{"games", o.games},
                         {"actions", played - measured_from},
                         {"views", o.patches ? "patches" : "whole"},
                         {"seconds", wall},
                         {"actions_per_sec", measured / wall},
                         {"server_cpu_us_per_action", cpu * 1e6 / measured},
                         {"driver_cpu_us_per_action", driver * 1e6 / measured}};
    std::cout << report.dump() << "\n";
    db.stop();
  }
  std::filesystem::remove_all(dir);
  return 0;
}
