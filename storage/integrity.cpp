#include "storage/integrity.h"

#include <sqlite3.h>

#include <string>

namespace blockfog::storage {

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
