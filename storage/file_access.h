#pragma once

// What this process may do with the database's files, asked of the file system before SQLite
// is (docs/storage.md, "Refused starts"). SQLite finds the same problems only once it has opened
// the file for writing, which makes -wal and -shm files beside it, and says them in its own
// terms ("attempt to write a readonly database"); these checks change nothing and name the
// file or folder, who this process is and what it may not do there.

#include <cstdint>
#include <filesystem>
#include <string>

namespace blockfog::storage {

// The server needs this much room to start writing: a -shm file (32 KiB) and a few WAL frames.
inline constexpr std::uintmax_t kMinimumFreeBytes = 64 * 1024;

// "user NAME (uid N)": who this process is, for messages about permissions.
std::string process_user();

// Whether something exists at `path`. Throws StorageError (SQLITE_CANTOPEN) naming the folder
// this process may not search when that cannot be told, rather than taking the file for absent.
bool database_exists(const std::filesystem::path& path);

// Throws StorageError unless this process can write the database at `path`: its folder must be
// searchable and writable (SQLite makes PATH-wal and PATH-shm there, and a new database is made
// as PATH.new and renamed), the database file and any -wal and -shm beside it readable and
// writable, and its file system must have kMinimumFreeBytes free. The code is SQLITE_READONLY
// for permissions and read-only file systems, SQLITE_FULL for a full disk.
void check_writable(const std::filesystem::path& path);

// What keeps this process from reading the database at `path`, or the -wal and -shm beside it,
// in plain words ("PATH-shm is not readable by user nobody (uid 65534): Permission denied"), or
// "" when nothing does.
std::string read_problem(const std::filesystem::path& path);

// Makes the folder of `path` (and its parents) if missing. Throws StorageError (SQLITE_CANTOPEN)
// naming the folder and the reason when it cannot.
void create_database_folder(const std::filesystem::path& path);

}  // namespace blockfog::storage
