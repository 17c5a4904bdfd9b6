// An LD_PRELOAD library for the storage fault tests (tests/server/storage_fault_test.cpp): while
// a trigger file exists, system calls on the files whose path starts with $BLOCKFOG_FAULT_PATH
// fail as a broken or a full disk makes them fail. Triggers, in $BLOCKFOG_FAULT_DIR:
//   eio-sync  fsync and fdatasync fail with EIO (the data may or may not be on disk)
//   enospc    write, pwrite and pwrite64 fail with ENOSPC (nothing was written), and statvfs
//             of those paths finds no free space
// Built without sanitizers: it runs before the sanitizer runtime is ready.

#include <dlfcn.h>
#include <errno.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool armed(const char* trigger) {
  const char* dir = std::getenv("BLOCKFOG_FAULT_DIR");
  if (dir == nullptr) return false;
  char path[4096];
  std::snprintf(path, sizeof path, "%s/%s", dir, trigger);
  return access(path, F_OK) == 0;
}

bool targeted(const char* path) {
  const char* prefix = std::getenv("BLOCKFOG_FAULT_PATH");
  if (prefix == nullptr || *prefix == '\0' || path == nullptr) return false;
  return std::strncmp(path, prefix, std::strlen(prefix)) == 0;
}

bool targeted(int fd) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char target[4096];
  const ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return false;
  target[n] = '\0';
  return targeted(target);
}

bool fails(int fd, const char* trigger, int error) {
  if (!targeted(fd) || !armed(trigger)) return false;
  errno = error;
  return true;
}

template <typename F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

int fsync(int fd) {
  static const auto real = next<int (*)(int)>("fsync");
  return fails(fd, "eio-sync", EIO) ? -1 : real(fd);
}

int fdatasync(int fd) {
  static const auto real = next<int (*)(int)>("fdatasync");
  return fails(fd, "eio-sync", EIO) ? -1 : real(fd);
}

ssize_t write(int fd, const void* data, size_t size) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t)>("write");
  return fails(fd, "enospc", ENOSPC) ? -1 : real(fd, data, size);
}

ssize_t pwrite(int fd, const void* data, size_t size, off_t offset) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  return fails(fd, "enospc", ENOSPC) ? -1 : real(fd, data, size, offset);
}

ssize_t pwrite64(int fd, const void* data, size_t size, off64_t offset) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64");
  return fails(fd, "enospc", ENOSPC) ? -1 : real(fd, data, size, offset);
}

int statvfs(const char* path, struct statvfs* space) {
  static const auto real = next<int (*)(const char*, struct statvfs*)>("statvfs");
  const int rc = real(path, space);
  if (rc == 0 && targeted(path) && armed("enospc")) {
    space->f_bfree = 0;
    space->f_bavail = 0;
  }
  return rc;
}

}  // extern "C"
