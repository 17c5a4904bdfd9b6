#include "storage/integrity.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace blockfog::storage {
namespace {

IntegrityReport check_postgres(Database& db, IntegrityDepth depth) {
  auto installed = db.prepare("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'");
  installed.step();
  if (installed.column_int64(0) == 0) {
    throw StorageError(ErrorKind::Other,
                       "the amcheck extension is not installed in this database, so its pages "
                       "were not checked (as a superuser: CREATE EXTENSION amcheck)");
  }
  std::vector<std::pair<std::int64_t, std::string>> indexes;
  auto list = db.prepare(
      "SELECT CAST(c.oid AS bigint), c.relname FROM pg_index AS i"
      " JOIN pg_class AS c ON c.oid = i.indexrelid"
      " JOIN pg_am AS a ON a.oid = c.relam"
      " JOIN pg_namespace AS n ON n.oid = c.relnamespace"
      " WHERE a.amname = 'btree' AND n.nspname = current_schema() ORDER BY c.relname");
  while (list.step()) indexes.emplace_back(list.column_int64(0), list.column_text(1));
  IntegrityReport report;
  for (const auto& [oid, name] : indexes) {
    try {
      auto check =
          db.prepare(depth == IntegrityDepth::Full ? "SELECT bt_index_check(CAST(?1 AS oid), true)"
                                                   : "SELECT bt_index_check(CAST(?1 AS oid))");
      check.bind(1, oid);
      check.step();
    } catch (const StorageError& e) {
      if (e.kind() != ErrorKind::Corrupt) throw;
      report.problems.push_back(name + ": " + e.what());
      if (report.problems.size() >= static_cast<std::size_t>(IntegrityReport::kMaxProblems)) break;
    }
  }
  report.ok = report.problems.empty();
  return report;
}

}  // namespace

bool is_damage(int code) {
  const int primary = code & 0xff;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}

std::string IntegrityReport::text() const {
  if (ok) return "ok";
  std::string lines;
  for (const auto& problem : problems) lines += (lines.empty() ? "" : "\n") + problem;
  return lines;
}

IntegrityReport check_integrity(Database& db, IntegrityDepth depth) {
  if (db.backend() == Backend::Postgres) return check_postgres(db, depth);
  const std::string pragma = depth == IntegrityDepth::Quick ? "quick_check" : "integrity_check";
  IntegrityReport report;
  try {
    Statement check =
        db.prepare("PRAGMA " + pragma + "(" + std::to_string(IntegrityReport::kMaxProblems) + ")");
    while (check.step()) report.problems.push_back(check.column_text(0));
  } catch (const StorageError& e) {
    if (!is_damage(e.code())) throw;
    report.problems.emplace_back(e.what());
  }
  report.ok = report.problems.size() == 1 && report.problems.front() == "ok";
  if (report.ok) report.problems.clear();
  return report;
}

}  // namespace blockfog::storage
