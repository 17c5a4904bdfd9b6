// What storing one action costs the storage layer (the load goals: bench/RESULTS.md):
// Store::append_action into a database in WAL mode with synchronous=NORMAL, as the server's --sync
// normal does. Arguments: games written in turn, actions per transaction (1: each commits alone, as
// a lone action on an idle storage thread does; 10: a group commit of ten rooms' actions).

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "storage/sqlite.h"
#include "storage/store.h"

namespace {

using namespace blockfog;

// A fresh database with `games` active games, removed afterwards.
class Games {
 public:
  explicit Games(int games) {
    dir_ = std::filesystem::temp_directory_path() / ("store-bench-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    store_ = std::make_unique<storage::Store>(dir_ / "bench.db", 1, storage::Sync::Normal);
    const auto scot = store_->create_account("scot", "kdf$x", 1)->id;
    const auto eng = store_->create_account("eng", "kdf$y", 1)->id;
    for (int i = 0; i < games; ++i) {
      storage::NewGame spec;
      spec.rules_version = "hots-1";
      spec.scenario = "braveheart";
      spec.seed_hex = std::string(64, '3');
      spec.seed_sha256 = std::string(64, 'a');
      spec.created_by = scot;
      spec.creator_role = "scotland";
      const auto row = store_->create_game(spec, 1);
      store_->take_seat(row.id, "england", eng, 1);
      store_->set_game_status(row.id, storage::GameStatus::Active, 1);
      ids_.push_back(row.id);
      next_seq_.push_back(1);
    }
  }
  ~Games() {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  Games(const Games&) = delete;
  Games& operator=(const Games&) = delete;

  storage::Store& store() { return *store_; }
  // Appends the next action of the game after the last one written.
  void append_next() {
    static const std::string kAction =
        R"({"block":"sco_wallace","from":"selkirk","kind":"move","to":"lanark"})";
    static const std::string kHash(64, 'f');
    const auto i = turn_++ % ids_.size();
    store_->append_action(ids_[i], next_seq_[i]++, "scotland", kAction, kHash, 5, std::nullopt,
                          storage::ViewVersions{1, 2, 3});
  }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;
  std::vector<std::int64_t> ids_;
  std::vector<std::int64_t> next_seq_;
  std::size_t turn_ = 0;
};

void BM_AppendAction(benchmark::State& state) {
  Games games(static_cast<int>(state.range(0)));
  const auto per_transaction = state.range(1);
  for (auto _ : state) {
    storage::Transaction transaction(games.store().database());
    for (std::int64_t k = 0; k < per_transaction; ++k) games.append_next();
    transaction.commit();
  }
  state.SetItemsProcessed(state.iterations() * per_transaction);
}
BENCHMARK(BM_AppendAction)
    ->ArgNames({"games", "per_commit"})
    ->Args({1, 1})
    ->Args({100, 1})
    ->Args({100, 10})
    ->Args({100, 5})
    ->Args({100, 25});

}  // namespace

BENCHMARK_MAIN();
