#pragma once

// Consistency checks over a whole database (docs/storage.md, Integrity): a page overwritten on
// disk is otherwise noticed only when a query reads it, perhaps long after the server stored
// more on top of it. SQLite checks with its own pragmas; PostgreSQL with amcheck.

#include <string>
#include <vector>

#include "storage/sqlite.h"

namespace blockfog::storage {

enum class IntegrityDepth {
  Quick,  // PRAGMA quick_check: every page and record, not whether indexes match their tables
  Full,   // PRAGMA integrity_check: that too; slower on a large database
};

struct IntegrityReport {
  bool ok = false;
  std::vector<std::string> problems;  // the database's words, at most kMaxProblems lines

  static constexpr int kMaxProblems = 20;
  // "ok", or the problems on one line each.
  std::string text() const;
};

// Runs the check on `db` (read-only is enough). A database too damaged for the check to run
// (SQLITE_CORRUPT, SQLITE_NOTADB) gives a report with SQLite's error as its problem. Any other
// error says nothing about the file's pages (a -shm this process may not read, a lock held, an
// I/O error): it is thrown as StorageError, and the file counts as unchecked, never as damaged.
// On PostgreSQL: amcheck's bt_index_check of every B-tree index of the store's schema (Full:
// also that every table row has its index entries); a page found corrupt (SQLSTATE XX001,
// XX002) is a problem of the report. Without the amcheck extension in the database nothing is
// checked: StorageError says so. `db` must not be inside a transaction (a failed check ends
// one), so give it a connection of its own.
IntegrityReport check_integrity(Database& db, IntegrityDepth depth);

// Whether SQLite's result `code` means the file's content is damaged.
bool is_damage(int code);

}  // namespace blockfog::storage
