#pragma once

// Databases the storage and server tests build on: a started game, and one page of the action
// log overwritten as a failing disk would (docs/storage.md, Integrity).

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "storage/store.h"

namespace blockfog::storage::testing {

// A braveheart game between two new accounts, "scot" and "eng", both seats taken and started:
// ready for actions. Returns its id.
inline std::int64_t create_active_game(Store& store, std::int64_t now) {
  const std::int64_t scot = store.create_account("scot", "kdf$scot", now)->id;
  const std::int64_t eng = store.create_account("eng", "kdf$eng", now)->id;
  NewGame game;
  game.rules_version = "1";
  game.scenario = "braveheart";
  game.seed_hex = "00ff";
  game.seed_sha256 = std::string(64, 'a');
  game.created_by = scot;
  game.creator_role = "scotland";
  const std::int64_t id = store.create_game(game, now).id;
  store.take_seat(id, "england", eng, now);
  store.set_game_status(id, GameStatus::Active, now);
  return id;
}

// Overwrites the root page of `actions` in the closed database at `path` (its WAL checkpointed
// into the file), which must be a leaf: a log of a few actions. Call it inside
// ASSERT_NO_FATAL_FAILURE.
inline void overwrite_log_leaf_page(const std::filesystem::path& path) {
  std::int64_t page = 0;
  std::int64_t page_size = 0;
  {
    SqliteDatabase db(path, OpenMode::ReadOnly);
    auto root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'actions'");
    ASSERT_TRUE(root.step());
    page = root.column_int64(0);
    auto size = db.prepare("PRAGMA page_size");
    ASSERT_TRUE(size.step());
    page_size = size.column_int64(0);
  }
  std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
  file.seekg((page - 1) * page_size);
  char type = 0;
  file.read(&type, 1);
  ASSERT_EQ(type, '\x0d') << "a few actions fit on the table's root, a leaf page";
  file.seekp((page - 1) * page_size);
  const std::string garbage(static_cast<std::size_t>(page_size), '\x55');
  file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  ASSERT_TRUE(file.flush());
}

}  // namespace blockfog::storage::testing
