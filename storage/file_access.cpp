#include "storage/file_access.h"

#include <fcntl.h>
#include <pwd.h>
#include <sqlite3.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "storage/sqlite.h"

namespace blockfog::storage {
namespace {

std::filesystem::path folder_of(const std::filesystem::path& path) {
  const auto parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

std::filesystem::path with_suffix(const std::filesystem::path& path, const char* suffix) {
  auto other = path;
  other += suffix;
  return other;
}

// 0, or errno of checking `mode` (R_OK, W_OK, X_OK) on `path` for this process's effective ids.
int access_error(const std::filesystem::path& path, int mode) {
  return faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0 ? 0 : errno;
}

std::string reason(int error) { return std::generic_category().message(error); }

// The first folder from the root down to `folder` that this process may not search, or
// `folder` itself when each of them may be searched.
std::filesystem::path first_unsearchable(const std::filesystem::path& folder) {
  std::filesystem::path walked;
  for (const auto& part : std::filesystem::absolute(folder)) {
    walked /= part;
    if (access_error(walked, X_OK) != 0) return walked;
  }
  return folder;
}

[[noreturn]] void refuse(int code, const std::string& message) {
  throw StorageError(code, message);
}

// What `error`, from checking write access to `what`, means in plain words.
std::string cannot_write(const std::string& what, int error) {
  if (error == EROFS) return what + " is on a read-only file system";
  return what + " is not writable by " + process_user() + ": " + reason(error);
}

}  // namespace

std::string process_user() {
  const uid_t uid = geteuid();
  std::array<char, 4096> buffer{};
  passwd entry{};
  passwd* found = nullptr;
  std::string name = "uid " + std::to_string(uid);
  if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) {
    return std::string("user ") + found->pw_name + " (" + name + ")";
  }
  return name;
}

bool database_exists(const std::filesystem::path& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!error) return status.type() != std::filesystem::file_type::not_found;
  if (error == std::errc::no_such_file_or_directory) return false;
  const auto folder = folder_of(path);
  if (error == std::errc::permission_denied) {
    refuse(SQLITE_CANTOPEN, "the folder " + first_unsearchable(folder).string() +
                                " cannot be searched by " + process_user() +
                                " (permission denied), so whether " + path.string() +
                                " exists cannot be told");
  }
  refuse(SQLITE_CANTOPEN, "cannot look for " + path.string() + ": " + error.message());
}

void check_writable(const std::filesystem::path& path) {
  const auto folder = folder_of(path);
  if (const int error = access_error(folder, X_OK); error != 0) {
    refuse(SQLITE_CANTOPEN, "the folder " + first_unsearchable(folder).string() +
                                " cannot be searched by " + process_user() + ": " + reason(error));
  }
  if (const int error = access_error(folder, W_OK); error != 0) {
    refuse(SQLITE_READONLY, cannot_write("the folder " + folder.string(), error) +
                                " (SQLite makes " + with_suffix(path.filename(), "-wal").string() +
                                " and " + with_suffix(path.filename(), "-shm").string() +
                                " beside the database there)");
  }
  const bool exists = database_exists(path);
  std::vector<std::filesystem::path> files;
  if (exists) files.push_back(path);
  for (const char* suffix : {"-wal", "-shm"}) {
    if (database_exists(with_suffix(path, suffix))) files.push_back(with_suffix(path, suffix));
  }
  for (const auto& file : files) {
    if (const int error = access_error(file, R_OK); error != 0) {
      refuse(SQLITE_READONLY,
             file.string() + " is not readable by " + process_user() + ": " + reason(error));
    }
    if (const int error = access_error(file, W_OK); error != 0) {
      refuse(SQLITE_READONLY, cannot_write(file.string(), error));
    }
  }
  // The superuser may use the blocks a file system keeps back for it.
  struct statvfs space {};
  const auto measured = exists ? path : folder;
  if (statvfs(measured.c_str(), &space) == 0) {
    const auto blocks = geteuid() == 0 ? space.f_bfree : space.f_bavail;
    const std::uintmax_t free_bytes = std::uintmax_t{blocks} * space.f_frsize;
    if (free_bytes < kMinimumFreeBytes) {
      refuse(SQLITE_FULL, "the file system holding " + measured.string() +
                              " is full: " + std::to_string(free_bytes) +
                              " bytes free, and the server needs at least " +
                              std::to_string(kMinimumFreeBytes / 1024) + " KiB to start");
    }
  }
}

std::string read_problem(const std::filesystem::path& path) {
  const auto folder = folder_of(path);
  if (const int error = access_error(folder, X_OK); error != 0) {
    return "the folder " + first_unsearchable(folder).string() + " cannot be searched by " +
           process_user() + ": " + reason(error);
  }
  for (const auto& file : {path, with_suffix(path, "-wal"), with_suffix(path, "-shm")}) {
    std::error_code ignored;
    if (!std::filesystem::exists(file, ignored)) continue;
    if (const int error = access_error(file, R_OK); error != 0) {
      return file.string() + " is not readable by " + process_user() + ": " + reason(error);
    }
  }
  return "";
}

void create_database_folder(const std::filesystem::path& path) {
  const auto folder = path.parent_path();
  if (folder.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    refuse(SQLITE_CANTOPEN, "cannot make the folder " + folder.string() + " for the database as " +
                                process_user() + ": " + error.message());
  }
}

}  // namespace blockfog::storage
