#include "tests/deploy/shell.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace blockfog::server::testing {

bool has_command(const std::string& name) {
  return run_command("command -v " + shell_quote(name)).status == 0;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(BLOCKFOG_SOURCE_DIR) / relative;
}

std::map<std::string, std::string> read_env_file(const std::filesystem::path& path) {
  std::map<std::string, std::string> env;
  std::istringstream lines(read_file(path));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw std::runtime_error("not NAME=value: " + line);
    env[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return env;
}

}  // namespace blockfog::server::testing
