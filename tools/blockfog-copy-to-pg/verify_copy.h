#pragma once

// The copy's second check (docs/storage.md, "Copying SQLite into PostgreSQL"): every finished
// game of the copy, read back as the server's record endpoint would serve it, replays from its
// seed to the recorded state hashes and result, as `hots-replay verify` checks a record.

#include <vector>

#include "storage/store.h"
#include "tools/common/verify.h"

namespace blockfog::copy_to_pg {

// One verdict per finished game of `store`, in the order of their ids.
std::vector<tools::GameVerdict> verify_finished_games(storage::Store& store);

}  // namespace blockfog::copy_to_pg
