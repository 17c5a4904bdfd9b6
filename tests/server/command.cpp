#include "tests/server/command.h"

#include <stdio.h>
#include <sys/wait.h>

#include <stdexcept>

namespace blockfog::server::testing {

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen(("( " + command + " ) 2>&1").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed: " + command);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CommandResult run_program(const std::string& program, const std::vector<std::string>& args) {
  std::string command = shell_quote(program);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  return run_command(command);
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace blockfog::server::testing
