#pragma once

// Files and commands for the deployment tests, which drive shell scripts and system tools.

#include <filesystem>
#include <map>
#include <string>

#include "tests/server/command.h"

namespace blockfog::server::testing {

// Whether `name` is a command this machine has.
bool has_command(const std::string& name);

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& text);
// A file of the repository, e.g. "deploy/blockfog.service".
std::filesystem::path source_path(const std::string& relative);

// NAME=value lines (comments and blank lines skipped) of an environment file.
std::map<std::string, std::string> read_env_file(const std::filesystem::path& path);

}  // namespace blockfog::server::testing
