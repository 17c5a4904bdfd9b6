#pragma once

// The server's one source of wall-clock time: milliseconds since the Unix epoch, the time unit
// of the store (docs/storage.md). Everything the server stores or compares with stored times
// (sessions, game clocks, vacations) reads it through now_ms(), so that a test can install a
// FakeClock and drive days of a correspondence game in a moment. Durations of work (latency,
// drain timeouts) use std::chrono::steady_clock instead and are not game time.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>

namespace blockfog::server {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t now_ms() const = 0;
};

// The system clock.
class SystemClock final : public Clock {
 public:
  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// A clock that moves only when told to (tests).
class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::int64_t start_ms) : now_(start_ms) {}
  std::int64_t now_ms() const override { return now_.load(); }
  void set(std::int64_t ms) { now_.store(ms); }
  void advance(std::int64_t ms) { now_.fetch_add(ms); }

 private:
  std::atomic<std::int64_t> now_;
};

// Test servers only (the environment's BLOCKFOG_TEST_CLOCK_FILE, docs/server.md): the time is
// the decimal number of milliseconds in a file, read at every call, so that a test drives a
// server process's clock from outside. The system clock's while the file cannot be read.
class FileClock final : public Clock {
 public:
  explicit FileClock(std::filesystem::path path) : path_(std::move(path)) {}
  std::int64_t now_ms() const override;

 private:
  std::filesystem::path path_;
};

namespace clock_detail {
inline const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}
inline std::atomic<const Clock*>& installed() {
  static std::atomic<const Clock*> clock{&system_clock()};
  return clock;
}
}  // namespace clock_detail

// The time now, from the installed clock.
inline std::int64_t now_ms() { return clock_detail::installed().load()->now_ms(); }

// Installs `clock` for the server's whole process while it lives (tests only; one at a time),
// and puts the system clock back when it ends.
class ScopedClock {
 public:
  explicit ScopedClock(const Clock& clock) { clock_detail::installed().store(&clock); }
  ~ScopedClock() { clock_detail::installed().store(&clock_detail::system_clock()); }
  ScopedClock(const ScopedClock&) = delete;
  ScopedClock& operator=(const ScopedClock&) = delete;
};

}  // namespace blockfog::server
