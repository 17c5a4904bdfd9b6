// Promise 2 of docs/architecture.md: a crash (kill -9) at any moment loses no acknowledged action.
// A child process appends actions and acknowledges each committed seq through a pipe; the test
// kills it mid-stream and checks the reopened database. (kill -9 leaves the OS page cache
// intact; surviving power loss rests on synchronous=FULL, which sqlite_test.cpp checks.)

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "storage/store.h"
#include "tests/storage/damage.h"
#include "tests/storage/now.h"
#include "tests/storage/temp_dir.h"

namespace blockfog::storage {
namespace {

using testing::kNow;
constexpr int kReadTimeoutMs = 60'000;

std::int64_t create_active_game(const std::filesystem::path& path) {
  Store store(path, kNow);
  return testing::create_active_game(store, kNow);
}

// The child: opens its own connection (never one inherited through fork) and appends until
// killed, writing each seq to `ack_fd` only after append_action returned.
[[noreturn]] void append_until_killed(const std::filesystem::path& path, std::int64_t game_id,
                                      int ack_fd) {
  try {
    Store store(path, kNow);
    std::int64_t seq = store.find_game(game_id)->next_seq;
    for (int i = 0; i < 100'000; ++i, ++seq) {
      const std::string action = R"({"kind":"pass","n":)" + std::to_string(seq) + "}";
      const std::optional<std::string_view> snapshot =
          seq % 10 == 0 ? std::optional<std::string_view>(R"({"turn":1})") : std::nullopt;
      store.append_action(game_id, seq, seq % 2 == 0 ? "scotland" : "england", action,
                          "hash" + std::to_string(seq), kNow + seq, snapshot);
      if (write(ack_fd, &seq, sizeof seq) != static_cast<ssize_t>(sizeof seq)) _exit(3);
    }
    _exit(0);
  } catch (...) {
    _exit(2);
  }
}

// Reads acknowledged seqs until `wanted` have arrived, the pipe closes, or the timeout passes.
void read_acks(int fd, std::vector<std::int64_t>& acks, std::size_t wanted) {
  std::string buffer;
  while (acks.size() < wanted) {
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, kReadTimeoutMs) <= 0) return;
    char chunk[512];
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) return;
    buffer.append(chunk, static_cast<std::size_t>(n));
    while (buffer.size() >= sizeof(std::int64_t)) {
      std::int64_t seq = 0;
      std::memcpy(&seq, buffer.data(), sizeof seq);
      acks.push_back(seq);
      buffer.erase(0, sizeof seq);
    }
  }
}

TEST(Durability, EveryAcknowledgedActionSurvivesKill9) {
  testing::TempDir dir;
  const std::filesystem::path path = dir.file("blockfog.sqlite");
  const std::int64_t game_id = create_active_game(path);

  std::vector<std::int64_t> acks;
  // Several rounds, killed after different numbers of actions, each resuming the last.
  for (const std::size_t kill_after : {60u, 97u, 131u, 13u, 211u}) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      close(fds[0]);
      append_until_killed(path, game_id, fds[1]);
    }
    close(fds[1]);
    read_acks(fds[0], acks, acks.size() + kill_after);
    kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    read_acks(fds[0], acks, SIZE_MAX);  // whatever was acknowledged before the kill
    close(fds[0]);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the child stopped before it was killed (exit status " << WEXITSTATUS(status) << ")";
    ASSERT_FALSE(acks.empty());

    Store store(path, kNow);
    const std::vector<ActionRow> log = store.load_actions(game_id);
    std::set<std::int64_t> stored;
    for (const ActionRow& action : log) stored.insert(action.seq);
    for (const std::int64_t seq : acks) EXPECT_TRUE(stored.count(seq)) << "lost seq " << seq;
    // The log is whole: 1..n without gaps, at most one committed action unacknowledged.
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.back().seq, static_cast<std::int64_t>(log.size()));
    EXPECT_LE(log.back().seq, acks.back() + 1);
    EXPECT_EQ(store.find_game(game_id)->next_seq, log.back().seq + 1);
    const std::optional<SnapshotRow> snapshot = store.latest_snapshot(game_id);
    ASSERT_TRUE(snapshot.has_value());
    EXPECT_EQ(snapshot->seq, log.back().seq / 10 * 10);
  }
}

}  // namespace
}  // namespace blockfog::storage
