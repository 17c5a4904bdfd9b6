#include "tests/server/restricted_process.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <iterator>

#include "server/crypto.h"

namespace blockfog::server::testing {

std::optional<UserIds> unprivileged_user(std::string& why_not) {
  if (geteuid() != 0) {
    why_not = "the tests run as uid " + std::to_string(geteuid()) +
              ", which may not take another user's ids";
    return std::nullopt;
  }
  const passwd* nobody = getpwnam("nobody");
  if (nobody == nullptr) {
    why_not = "this machine has no user nobody";
    return std::nullopt;
  }
  return UserIds{nobody->pw_uid, nobody->pw_gid};
}

bool become(const UserIds& user) {
  return setgroups(0, nullptr) == 0 && setgid(user.gid) == 0 && setuid(user.uid) == 0;
}

bool mount_read_only(const char* folder) {
  // Private first, so that nothing mounted here reaches the machine's own namespace.
  return unshare(CLONE_NEWNS) == 0 &&
         mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
         mount(folder, folder, nullptr, MS_BIND, nullptr) == 0 &&
         mount(nullptr, folder, nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
}

std::string read_only_mount_unavailable(const std::filesystem::path& folder) {
  const std::string path = folder.string();
  const pid_t child = fork();
  if (child < 0) return "fork failed";
  if (child == 0) _exit(mount_read_only(path.c_str()) ? 0 : 1);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return "this machine does not let the tests mount a folder read-only (a mount namespace and a "
         "bind mount need CAP_SYS_ADMIN)";
}

Finished run_binary(const std::vector<std::string>& args, const std::function<bool()>& in_child) {
  std::vector<std::string> command = {BLOCKFOG_SERVER_BIN};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : command) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::array<int, 2> pipe_ends{};
  if (pipe2(pipe_ends.data(), O_CLOEXEC) != 0) return {-1, "pipe failed"};
  const pid_t child = fork();
  if (child < 0) return {-1, "fork failed"};
  if (child == 0) {
    dup2(pipe_ends[1], 1);
    dup2(pipe_ends[1], 2);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    if (in_child && !in_child()) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipe_ends[1]);
  Finished finished;
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  while ((n = read(pipe_ends[0], buffer.data(), buffer.size())) > 0) {
    finished.output.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(pipe_ends[0]);
  int status = 0;
  waitpid(child, &status, 0);
  finished.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return finished;
}

std::map<std::string, std::string> sha256_listing(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_directory()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    files[entry.path().filename().string()] = sha256_hex(bytes);
  }
  return files;
}

}  // namespace blockfog::server::testing
