#include "tools/common/verify.h"

#include <map>
#include <set>

#include "protocol/tar.h"
#include "rules/core/hex.h"
#include "rules/core/role.h"
#include "rules/core/sha256.h"
#include "rules/core/shared_seed.h"
#include "tools/common/record.h"

namespace blockfog::tools {
namespace {

using nlohmann::json;

constexpr std::string_view kBundleFormat = "blockfog-tournament-bundle";
constexpr std::string_view kManifest = "manifest.json";
constexpr std::string_view kServerKey = "server-key.json";

std::string sha256_hex(std::string_view bytes) { return core::to_hex(core::sha256(bytes)); }

std::string describe_result(const json& winner, const std::string& reason) {
  return (winner.is_string() ? winner.get<std::string>() : std::string("nobody")) + " by " + reason;
}

GameVerdict failed(GameVerdict verdict, std::string reason) {
  verdict.ok = false;
  verdict.reason = std::move(reason);
  return verdict;
}

// The recorded result as {"winner": role name or null, "reason": text}, or why it is unusable.
std::optional<std::string> check_result_shape(const json& result) {
  if (!result.is_object() || !result.contains("reason") || !result.at("reason").is_string()) {
    return "the result has no reason";
  }
  const auto& winner = result.value("winner", json());
  if (!winner.is_null() && !(winner.is_string() && (winner == "scotland" || winner == "england"))) {
    return "the result's winner is neither scotland, england nor null";
  }
  return std::nullopt;
}

// Why `document`'s signature is not accepted, or nothing when it is. `what` names it.
std::optional<std::string> signature_problem(const json& document, std::string_view kind,
                                             const std::vector<protocol::PublicKey>& accepted,
                                             const std::string& what) {
  const auto verdict = protocol::check_signature(document, kind, accepted);
  switch (verdict.check) {
    case protocol::SignatureCheck::Valid:
      return std::nullopt;
    case protocol::SignatureCheck::Unsigned:
      return what + " carries no signature";
    case protocol::SignatureCheck::UnknownKey:
      return what + " is signed by key " + verdict.key_id + ", which is not a trusted key";
    case protocol::SignatureCheck::BadSignature:
      break;
  }
  return what + "'s signature by key " + verdict.key_id +
         " does not match its contents: it was changed after the server signed it";
}

// verify_record with the keys already chosen; `accepted` null: signatures not checked.
GameVerdict verify_record_with(const json& record_json, const std::string& fallback_id,
                               const std::vector<protocol::PublicKey>* accepted);

}  // namespace

std::vector<protocol::PublicKey> accepted_keys(const Trust& trust,
                                               const std::vector<protocol::PublicKey>& carried) {
  std::vector<protocol::PublicKey> keys;
  const auto take = [&](const protocol::PublicKey& key) {
    if (trust.pinned_key_id && key.key_id != *trust.pinned_key_id) return;
    for (const auto& known : keys) {
      if (known.key_id == key.key_id) return;
    }
    keys.push_back(key);
  };
  for (const auto& key : trust.keys) take(key);
  if (trust.pinned_key_id) {
    for (const auto& key : carried) take(key);
  }
  return keys;
}

bool ended_outside_rules(std::string_view reason) {
  // A resignation and a clock running out (docs/protocol.md); a tournament organiser's
  // forfeit or adjudication (docs/records.md).
  return reason == "resigned" || reason == "timeout" || reason == "forfeit" ||
         reason == "adjudicated";
}

GameVerdict verify_record(const json& record_json, const std::string& fallback_id,
                          const Trust& trust) {
  if (!trust.checks_signatures()) return verify_record_with(record_json, fallback_id, nullptr);
  const auto accepted = accepted_keys(trust, {});
  return verify_record_with(record_json, fallback_id, &accepted);
}

namespace {

GameVerdict verify_record_with(const json& record_json, const std::string& fallback_id,
                               const std::vector<protocol::PublicKey>* accepted) {
  GameVerdict verdict;
  verdict.game_id = fallback_id;
  if (record_json.is_object() && record_json.contains("game_id") &&
      record_json.at("game_id").is_number_integer()) {
    verdict.game_id = std::to_string(record_json.at("game_id").get<std::int64_t>());
  }
  // The signature first: a record the server did not sign as it is says nothing, however
  // consistent.
  if (accepted) {
    if (auto problem =
            signature_problem(record_json, protocol::kSignedRecord, *accepted, "the record")) {
      return failed(verdict, *problem);
    }
  }
  std::string error;
  const auto record = parse_record(record_json, error);
  if (!record) return failed(verdict, error);

  // The seed against the commitment published when the game was created.
  if (!record->seed_sha256) return failed(verdict, "the record has no seed commitment");
  const auto seed_hash = sha256_hex(
      std::string_view(reinterpret_cast<const char*>(record->seed.data()), record->seed.size()));
  if (seed_hash != *record->seed_sha256) {
    return failed(verdict, "the seed does not match its commitment (SHA-256 of the seed is " +
                               seed_hash + ", the commitment " + *record->seed_sha256 + ")");
  }

  // Each contribution against its commitment; the seed is then the three's (dice.h).
  if (record->dice) {
    for (const auto& [role, dice] :
         {std::pair{"Scotland", record->dice->first}, std::pair{"England", record->dice->second}}) {
      if (core::dice_commitment(dice.contribution) != dice.commitment) {
        return failed(verdict,
                      std::string(role) + "'s dice contribution does not match its commitment");
      }
    }
  }

  std::string setup_error;
  const auto set_up = set_up_recorded_game(*record, setup_error);
  if (!set_up) return failed(verdict, "the game cannot be set up: " + setup_error);
  auto& game = *set_up;
  std::size_t seq = 0;
  for (const auto& entry : record->actions) {
    ++seq;
    if (auto refused = game.apply(entry.role, entry.action)) {
      return failed(verdict, "action " + std::to_string(seq) + " (" +
                                 std::string(core::role_name(entry.role)) + " " +
                                 entry.action.dump() + ") is illegal: " + refused->message);
    }
    if (!entry.state_hash) {
      return failed(verdict, "action " + std::to_string(seq) + " has no state hash");
    }
    if (game.state_hash() != *entry.state_hash) {
      return failed(verdict, "the state hash after action " + std::to_string(seq) +
                                 " differs (replayed " + game.state_hash() + ", recorded " +
                                 *entry.state_hash + ")");
    }
  }
  verdict.actions = seq;
  verdict.final_state_hash = game.state_hash();
  if (!record->final_state_hash) return failed(verdict, "the record has no final state hash");
  if (*record->final_state_hash != verdict.final_state_hash) {
    return failed(verdict, "the final state hash differs (replayed " + verdict.final_state_hash +
                               ", recorded " + *record->final_state_hash + ")");
  }

  if (!record->result) return failed(verdict, "the record has no result");
  if (auto bad = check_result_shape(*record->result)) return failed(verdict, *bad);
  const json recorded_winner = record->result->value("winner", json());
  const auto recorded_reason = record->result->at("reason").get<std::string>();
  const auto outcome = game.outcome();
  if (outcome.finished) {
    const json winner = outcome.winner ? json(core::role_name(*outcome.winner)) : json();
    if (winner != recorded_winner || outcome.reason != recorded_reason) {
      return failed(verdict, "the result says " +
                                 describe_result(recorded_winner, recorded_reason) +
                                 ", the replay " + describe_result(winner, outcome.reason));
    }
  } else if (!ended_outside_rules(recorded_reason)) {
    return failed(verdict, "the result says " + describe_result(recorded_winner, recorded_reason) +
                               ", but the replayed game has not ended");
  } else if (recorded_winner.is_null()) {
    return failed(verdict,
                  "the result says the game was " + recorded_reason + " but names no winner");
  }
  verdict.result =
      "winner=" +
      (recorded_winner.is_string() ? recorded_winner.get<std::string>() : std::string("none")) +
      " reason=" + recorded_reason;
  verdict.ok = true;
  return verdict;
}

}  // namespace

static std::optional<std::vector<GameVerdict>> verify_entries(
    const std::vector<protocol::TarEntry>& entries, std::string& error, const Trust& trust);

std::optional<std::vector<GameVerdict>> verify_bundle(std::string_view archive, std::string& error,
                                                      const Trust& trust) {
  const auto entries = protocol::read_tar(archive, error);
  if (!entries) return std::nullopt;
  try {
    return verify_entries(*entries, error, trust);
  } catch (const json::exception& e) {
    error = std::string("manifest.json is malformed: ") + e.what();
    return std::nullopt;
  }
}

static std::optional<std::vector<GameVerdict>> verify_entries(
    const std::vector<protocol::TarEntry>& entries, std::string& error, const Trust& trust) {
  std::map<std::string, const std::string*> files;
  for (const auto& e : entries) files[e.name] = &e.data;
  const auto manifest_file = files.find(std::string(kManifest));
  if (manifest_file == files.end()) {
    error = "not a tournament bundle: the archive has no manifest.json";
    return std::nullopt;
  }
  const json manifest = json::parse(*manifest_file->second, nullptr, false);
  if (!manifest.is_object() || manifest.value("format", "") != kBundleFormat ||
      !manifest.contains("version") || manifest.at("version") != 1 ||
      !manifest.contains("rounds") || !manifest.at("rounds").is_array()) {
    error = "manifest.json is not a version 1 " + std::string(kBundleFormat) + " manifest";
    return std::nullopt;
  }

  std::vector<GameVerdict> verdicts;
  std::set<std::string> listed{std::string(kManifest)};
  // The keys the bundle carries, which only a pinned key id makes trustworthy (accepted_keys).
  std::vector<protocol::PublicKey> carried;
  if (const auto keys_file = files.find(std::string(kServerKey)); keys_file != files.end()) {
    listed.insert(std::string(kServerKey));
    if (auto keys = protocol::parse_public_keys(json::parse(*keys_file->second, nullptr, false))) {
      carried = std::move(*keys);
    }
  }
  std::optional<std::vector<protocol::PublicKey>> accepted;
  if (trust.checks_signatures()) {
    accepted = accepted_keys(trust, carried);
    if (auto problem =
            signature_problem(manifest, protocol::kSignedManifest, *accepted, "manifest.json")) {
      GameVerdict verdict;
      verdict.game_id = std::string(kManifest);
      verdicts.push_back(failed(verdict, *problem));
    }
  }
  const auto tournament = manifest.value("tournament", json::object());
  const json tournament_id = tournament.is_object() ? tournament.value("id", json()) : json();
  for (const auto& round : manifest.at("rounds")) {
    if (!round.is_object() || !round.contains("games") || !round.at("games").is_array()) {
      error = "manifest.json has a round without a games list";
      return std::nullopt;
    }
    for (const auto& listing : round.at("games")) {
      GameVerdict verdict;
      verdict.game_id =
          listing.is_object() && listing.contains("game_id")
              ? (listing.at("game_id").is_string() ? listing.at("game_id").get<std::string>()
                                                   : listing.at("game_id").dump())
              : std::string("?");
      const auto fail = [&](std::string reason) {
        verdicts.push_back(failed(verdict, std::move(reason)));
      };
      if (!listing.is_object() || !listing.contains("record") ||
          !listing.at("record").is_string() || !listing.contains("record_sha256") ||
          !listing.contains("seed_commitment") || !listing.contains("result")) {
        fail("the manifest's entry lacks record, record_sha256, seed_commitment or result");
        continue;
      }
      const auto path = listing.at("record").get<std::string>();
      if (!listed.insert(path).second) {
        fail(path + " is listed twice");
        continue;
      }
      const auto file = files.find(path);
      if (file == files.end()) {
        fail(path + " is listed in the manifest but missing from the archive");
        continue;
      }
      const auto bytes_hash = sha256_hex(*file->second);
      if (listing.at("record_sha256") != bytes_hash) {
        fail("the SHA-256 of " + path + " is " + bytes_hash + ", the manifest says " +
             listing.at("record_sha256").dump());
        continue;
      }
      const json record = json::parse(*file->second, nullptr, false);
      if (record.is_discarded()) {
        fail(path + " is not JSON");
        continue;
      }
      if (record.contains("game_id") && record.at("game_id").dump() != verdict.game_id) {
        fail(path + " is the record of game " + record.at("game_id").dump() +
             ", the manifest says " + verdict.game_id);
        continue;
      }
      if (record.value("seed_sha256", json()) != listing.at("seed_commitment")) {
        fail("the record's seed commitment " + record.value("seed_sha256", json()).dump() +
             " is not the manifest's " + listing.at("seed_commitment").dump());
        continue;
      }
      // A signed record names its tournament: one moved in from another bundle says so.
      if (record.contains("tournament_id") && record.at("tournament_id") != tournament_id) {
        fail(path + " is a game of tournament " + record.at("tournament_id").dump() +
             ", not of this bundle's tournament " + tournament_id.dump());
        continue;
      }
      auto checked = verify_record_with(record, verdict.game_id, accepted ? &*accepted : nullptr);
      checked.game_id = verdict.game_id;
      if (!checked.ok) {
        verdicts.push_back(std::move(checked));
        continue;
      }
      // The manifest's result and winner are the record's, which the replay confirmed.
      const auto& result = record.at("result");
      if (listing.at("result") != result.at("reason") ||
          listing.value("winner", json()) != result.value("winner", json())) {
        fail("the manifest says " +
             describe_result(listing.value("winner", json()), listing.at("result").dump()) +
             ", the record " + checked.result);
        continue;
      }
      verdicts.push_back(std::move(checked));
    }
  }
  for (const auto& [name, data] : files) {
    if (!listed.contains(name)) {
      GameVerdict stray;
      stray.game_id = name;
      verdicts.push_back(
          failed(stray, "the archive holds " + name + ", which the manifest does not list"));
    }
  }
  return verdicts;
}

std::string verdict_line(const GameVerdict& verdict) {
  if (!verdict.ok) return "FAIL " + verdict.game_id + ": " + verdict.reason;
  return "OK " + verdict.game_id + " actions=" + std::to_string(verdict.actions) + " " +
         verdict.result + " final_state=" + verdict.final_state_hash;
}

}  // namespace blockfog::tools
