#include "tools/blockfog-load/process_stats.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace blockfog::load {

std::optional<ProcessSample> sample_process(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat(dir + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  // Fields after the command name (which may hold spaces, so skip to its closing parenthesis):
  // utime and stime are the 14th and 15th fields of the whole line.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  double utime = 0;
  double stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  ProcessSample sample;
  sample.cpu_seconds = (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::ifstream status(dir + "/status");
  while (std::getline(status, line)) {
    const auto kib = [&line] { return std::stod(line.substr(line.find(':') + 1)) / 1024.0; };
    if (line.rfind("VmRSS:", 0) == 0) sample.rss_mib = kib();
    if (line.rfind("VmHWM:", 0) == 0) sample.peak_rss_mib = kib();
  }
  return sample;
}

}  // namespace blockfog::load
