#pragma once

// A small thread-safe line logger on stderr: "2024-01-01T12:00:00.123Z info message".

#include <optional>
#include <string>
#include <string_view>

namespace blockfog::server {

enum class LogLevel { Debug, Info, Warn, Error };

std::optional<LogLevel> log_level_from_name(std::string_view name);
void set_log_level(LogLevel level);
bool log_enabled(LogLevel level);
void log(LogLevel level, std::string_view message);

inline void log_debug(std::string_view m) {
  if (log_enabled(LogLevel::Debug)) log(LogLevel::Debug, m);
}
inline void log_info(std::string_view m) { log(LogLevel::Info, m); }
inline void log_warn(std::string_view m) { log(LogLevel::Warn, m); }
inline void log_error(std::string_view m) { log(LogLevel::Error, m); }

// An error that may repeat many times a second (every action while the disk is full): at most
// one line per `topic` every 10 seconds; the next line logged for the topic says how many were
// left out since the last one.
void log_error_throttled(std::string_view topic, std::string_view message);

}  // namespace blockfog::server
