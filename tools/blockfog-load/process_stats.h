#pragma once

// What the load tool reads about the server process from /proc (Linux): CPU time and memory.

#include <sys/types.h>
#include <optional>

namespace blockfog::load {

struct ProcessSample {
  double cpu_seconds = 0;   // user + system time so far
  double rss_mib = 0;       // resident memory now
  double peak_rss_mib = 0;  // the most resident memory so far (VmHWM)
};

std::optional<ProcessSample> sample_process(pid_t pid);

}  // namespace blockfog::load
