#include "server/records/game_record.h"

#include "server/play/game_loader.h"
#include "storage/tournament_store.h"

namespace blockfog::server {

using nlohmann::json;

namespace {

// How the game ended, from its result's reason: the reasons no replay can check say who
// decided them (docs/records.md).
json end_of(const storage::GameRow& row, const json& result, const RecordContext& context) {
  json end = {{"at", row.finished_at ? json(*row.finished_at) : json()}};
  const auto reason = result.is_object() ? result.value("reason", std::string()) : std::string();
  const auto winner = result.is_object() ? result.value("winner", json()) : json();
  const auto loser = [&]() -> json {
    if (!winner.is_string()) return json();
    return winner == "scotland" ? "england" : "scotland";
  };
  if (reason == "resigned") {
    end["by"] = "resignation";
    end["side"] = loser();
  } else if (reason == "timeout") {
    end["by"] = "timeout";
    end["side"] = loser();
  } else if (reason == "forfeit" || reason == "adjudicated") {
    end["by"] = "tournament";
    end["organiser"] = context.organiser ? json(*context.organiser) : json();
  } else {
    end["by"] = "rules";
  }
  return end;
}

}  // namespace

RecordContext load_record_context(storage::Store& store, const storage::GameRow& row) {
  RecordContext context;
  context.dice = storage::list_dice(store, row.id);
  context.tournament_id = storage::tournament_of_game(store, row.id);
  if (context.tournament_id) {
    if (const auto tournament = storage::find_tournament(store, *context.tournament_id)) {
      if (const auto account = store.find_account_by_id(tournament->organiser)) {
        context.organiser = account->username;
      }
    }
  }
  return context;
}

json game_record(const storage::GameRow& row, const std::vector<storage::ActionRow>& actions,
                 const RecordContext& context) {
  json list = json::array();
  for (const auto& a : actions) {
    list.push_back({{"seq", a.seq},
                    {"role", a.role},
                    {"action", json::parse(a.action_json)},
                    {"state_hash", a.state_hash}});
  }
  // The state at the end: after the last action, or right after setup for a game without one.
  std::string final_hash;
  if (!actions.empty()) {
    final_hash = actions.back().state_hash;
  } else if (const auto setup = setup_game(row); setup.game) {
    final_hash = setup.game->state_hash();
  }
  json record = {{"game_id", row.id},
                 {"rules_version", row.rules_version},
                 {"game", row.kind},
                 {"scenario", row.scenario},
                 {"options", json::parse(row.options_json)},
                 {"seed_sha256", row.seed_sha256},
                 {"seed", row.seed_hex},
                 {"actions", list},
                 {"final_state_hash", final_hash}};
  if (context.tournament_id) record["tournament_id"] = *context.tournament_id;
  if (row.play_seed_hex) {
    json dice = json::object();
    for (const auto& d : context.dice) {
      dice[d.role] = {{"commitment", d.commitment},
                      {"contribution", d.contribution ? json(*d.contribution) : json()}};
    }
    record["dice"] = dice;
  }
  // How it ended, also when not by the rules (resigned, timeout, a tournament's decision).
  if (row.result_json) {
    record["result"] = json::parse(*row.result_json, nullptr, false);
    record["end"] = end_of(row, record["result"], context);
  }
  return record;
}

json signed_game_record(const storage::GameRow& row, const std::vector<storage::ActionRow>& actions,
                        const RecordContext& context,
                        const std::optional<protocol::SigningKey>& key) {
  auto record = game_record(row, actions, context);
  if (key) protocol::sign_document(record, protocol::kSignedRecord, *key);
  return record;
}

}  // namespace blockfog::server
