#pragma once

// Programs run by tests as a user would run them (the tools, the server's one-shot commands,
// shell scripts), with what they print collected.

#include <string>
#include <vector>

namespace blockfog::server::testing {

struct CommandResult {
  int status = -1;     // the exit status, or -1 if the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh.
CommandResult run_command(const std::string& command);
// Runs `program` with `args`, each passed as one argument whatever it holds.
CommandResult run_program(const std::string& program, const std::vector<std::string>& args);
// `text` quoted for /bin/sh.
std::string shell_quote(const std::string& text);

}  // namespace blockfog::server::testing
