#pragma once

// Files and commands for the deployment tests, which drive shell scripts and system tools.

#include <filesystem>
#include <map>
#include <string>

namespace blockfog::server::testing {

struct CommandResult {
  int status = -1;     // the exit status, or -1 if the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh and collects what it prints.
CommandResult run_command(const std::string& command);
bool has_command(const std::string& name);
// 'text' quoted for /bin/sh.
std::string shell_quote(const std::string& text);

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& text);
// A file of the repository, e.g. "deploy/blockfog.service".
std::filesystem::path source_path(const std::string& relative);

// NAME=value lines (comments and blank lines skipped) of an environment file.
std::map<std::string, std::string> read_env_file(const std::filesystem::path& path);

}  // namespace blockfog::server::testing
