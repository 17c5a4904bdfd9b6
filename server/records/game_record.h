#pragma once

// The record of a finished game (docs/records.md, "A record"): enough to replay and verify it,
// how it ended, and the server's signature over all of it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/signature.h"
#include "storage/game_dice.h"
#include "storage/store.h"

namespace blockfog::server {

// What the record says about a game beyond its row and log: the tournament it belongs to and
// that tournament's organiser.
struct RecordContext {
  std::optional<std::int64_t> tournament_id;
  std::optional<std::string> organiser;
  std::vector<storage::DiceRow> dice;  // the seats' dice (server/play/dice.h)
};
RecordContext load_record_context(storage::Store& store, const storage::GameRow& row);

// {"game_id","rules_version","game","scenario","options","seed_sha256" (the commitment
// published at creation, as stored then),"seed","actions":[{"seq","role","action",
// "state_hash"}],"final_state_hash"}, "result" ({"winner","reason"}) once it has one, "end"
// (how and when it ended: "by" "rules", "resignation", "timeout" or "tournament", the losing
// "side" of a resignation or timeout, the "organiser" of a tournament's decision, and "at",
// milliseconds since the epoch), "tournament_id" for a tournament's game, and "dice" for a game
// set up from shared dice: {"scotland": {"commitment", "contribution"}, "england": ...}, whose
// seed is core::shared_seed("seed", Scotland's contribution, England's).
nlohmann::json game_record(const storage::GameRow& row,
                           const std::vector<storage::ActionRow>& actions,
                           const RecordContext& context);

// The record as served: signed by `key` when there is one (protocol/signature.h).
nlohmann::json signed_game_record(const storage::GameRow& row,
                                  const std::vector<storage::ActionRow>& actions,
                                  const RecordContext& context,
                                  const std::optional<protocol::SigningKey>& key);

}  // namespace blockfog::server
