#include "server/log.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace blockfog::server {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::Info)};
std::mutex g_mutex;

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return "debug";
    case LogLevel::Info:
      return "info";
    case LogLevel::Warn:
      return "warn";
    case LogLevel::Error:
      return "error";
  }
  return "info";
}

}  // namespace

std::optional<LogLevel> log_level_from_name(std::string_view name) {
  for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warn, LogLevel::Error}) {
    if (name == level_name(l)) return l;
  }
  return std::nullopt;
}

void set_log_level(LogLevel level) { g_level = static_cast<int>(level); }

bool log_enabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(); }

void log(LogLevel level, std::string_view message) {
  if (!log_enabled(level)) return;
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  std::lock_guard lock(g_mutex);
  std::fprintf(stderr, "%s.%03dZ %s %.*s\n", stamp, static_cast<int>(ms % 1000), level_name(level),
               static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
}

void log_error_throttled(std::string_view topic, std::string_view message) {
  constexpr auto kQuiet = std::chrono::seconds(10);
  struct Topic {
    std::chrono::steady_clock::time_point last;
    std::uint64_t left_out = 0;
  };
  static std::mutex mutex;
  static std::map<std::string, Topic, std::less<>> topics;
  const auto now = std::chrono::steady_clock::now();
  std::uint64_t left_out = 0;
  {
    std::lock_guard lock(mutex);
    auto it = topics.find(topic);
    if (it == topics.end()) it = topics.emplace(std::string(topic), Topic{now - kQuiet, 0}).first;
    if (now - it->second.last < kQuiet) {
      ++it->second.left_out;
      return;
    }
    left_out = std::exchange(it->second.left_out, 0);
    it->second.last = now;
  }
  if (left_out == 0) return log_error(message);
  log_error(std::string(message) + " (and " + std::to_string(left_out) +
            " more like it left out of the log since the last one)");
}

}  // namespace blockfog::server
