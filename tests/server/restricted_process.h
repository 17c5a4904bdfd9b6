#pragma once

// Running the server binary as the tests of databases it may not write need it
// (db_access_test.cpp): as an unprivileged user, or with a folder mounted read-only in a mount
// namespace of its own. Both need the privileges of root, which the tests have in CI; without
// them the tests skip, saying why. Also: a folder's listing with each file's SHA-256, to show
// that a run left it as it was.

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blockfog::server::testing {

struct UserIds {
  uid_t uid = 0;
  gid_t gid = 0;
};

// The user `nobody`, when this process may take its ids (it runs as root); otherwise nullopt,
// with the reason in `why_not`.
std::optional<UserIds> unprivileged_user(std::string& why_not);

// For ServerProcess's and run_binary's `in_child`: system calls only.
// Drops every group and takes `user`'s group and user ids.
bool become(const UserIds& user);
// Enters a mount namespace of its own and mounts `folder` (a C string made before the fork)
// over itself read-only: the process sees a read-only file system there, and nobody else does.
bool mount_read_only(const char* folder);

// "" when this machine lets a process mount `folder` read-only (tried in a child), else why not.
std::string read_only_mount_unavailable(const std::filesystem::path& folder);

struct Finished {
  int status = -1;     // the exit status, or -1 if it did not exit normally
  std::string output;  // what it wrote to stdout and stderr
};
// Runs the server binary with `args` until it exits; `in_child` as in ServerProcess.
Finished run_binary(const std::vector<std::string>& args,
                    const std::function<bool()>& in_child = {});

// Every file in `dir` (not its subfolders) by name, with the SHA-256 of its bytes.
std::map<std::string, std::string> sha256_listing(const std::filesystem::path& dir);

}  // namespace blockfog::server::testing
