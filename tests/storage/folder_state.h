#pragma once

// What the storage tests compare to show that a read or a refusal left a folder as it was: every
// file's name, size and a hash of all its bytes (a -shm's included); and another program holding
// a database open from a process of its own, as it would in the field (within one process
// SQLite shares one mapping of a -shm between connections, so the test's own would not do).

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace blockfog::storage::testing {

// Each file in `dir` by name: "SIZE bytes, fnv1a HASH" of its whole content.
inline std::map<std::string, std::string> folder_state(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ULL;
    std::array<char, 64> text{};
    std::snprintf(text.data(), text.size(), "%zu bytes, fnv1a %016llx", bytes.size(),
                  static_cast<unsigned long long>(hash));
    files[entry.path().filename().string()] = text.data();
  }
  return files;
}

// A child process that opens `path` with SQLite, runs `sql`, and keeps the connection open until
// this object is destroyed; ready() once it has.
class OwnerProcess {
 public:
  OwnerProcess(const std::filesystem::path& path, const std::string& sql) {
    std::array<int, 2> ready{};
    std::array<int, 2> done{};
    if (pipe(ready.data()) != 0 || pipe(done.data()) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(ready[0]);
      close(done[1]);
      sqlite3* db = nullptr;
      const bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
                      sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
      const char answer = ok ? 'y' : 'n';
      if (write(ready[1], &answer, 1) != 1) _exit(1);
      char ignored = 0;
      while (read(done[0], &ignored, 1) > 0) {
      }
      sqlite3_close(db);
      _exit(0);
    }
    close(ready[1]);
    close(done[0]);
    done_ = done[1];
    char answer = 'n';
    ready_ = read(ready[0], &answer, 1) == 1 && answer == 'y';
    close(ready[0]);
  }
  ~OwnerProcess() {
    if (done_ >= 0) close(done_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  OwnerProcess(const OwnerProcess&) = delete;
  OwnerProcess& operator=(const OwnerProcess&) = delete;

  // The owner has the file open and ran its SQL.
  bool ready() const { return ready_; }

 private:
  bool ready_ = false;
  pid_t pid_ = -1;
  int done_ = -1;
};

}  // namespace blockfog::storage::testing
