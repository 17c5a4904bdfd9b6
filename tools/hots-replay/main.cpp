// hots-replay: verifies a stored game record. It sets the game up from the record's seed,
// scenario and options, re-applies every action, reports the first one the rules refuse, and
// prints the outcome and the final state hash. It can print the log as any seat would have
// read it, or (for a finished game) everything.
//
// hots-replay verify BUNDLE_OR_RECORD checks a record as the server serves it, or every game of
// a tournament bundle (docs/records.md): one line per game, a summary, and exit status 0 when
// all pass, 1 on any failure, 2 for bad usage or input that cannot be read. With --key FILE
// or --key-id ID, every record and the manifest must carry the server's signature too.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/signature.h"
#include "rules/core/rule_error.h"
#include "tools/common/record.h"
#include "tools/common/verify.h"

namespace {

using namespace blockfog;
using nlohmann::json;

struct Options {
  std::string path;
  std::string log_as;  // "", "scotland", "england", "observer" or "all"
  bool quiet = false;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "hots-replay: " << problem << "\n"
            << "usage: hots-replay RECORD.json [--log scotland|england|observer|all] [--quiet]\n"
            << "       hots-replay verify [--key FILE] [--key-id ID] BUNDLE.tar|RECORD.json\n";
  std::exit(2);
}

Options parse_args(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--log") {
      if (i + 1 >= argc) usage("--log needs a seat");
      options.log_as = argv[++i];
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (!arg.empty() && arg[0] == '-') {
      usage("unknown argument " + arg);
    } else {
      options.path = arg;
    }
  }
  if (options.path.empty()) usage("no record file given");
  if (!options.log_as.empty() && options.log_as != "all" && !core::role_from_name(options.log_as)) {
    usage("--log takes scotland, england, observer or all");
  }
  return options;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) usage("cannot read " + path);
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    std::cerr << "hots-replay: " << path << " is not JSON: " << e.what() << "\n";
    std::exit(2);
  }
}

void print_log(const core::Game& game, const std::string& seat) {
  if (seat == "all") {
    // Everything, including private lines: the finished game's own record (RULES 13.1.6).
    const json view = game.view(core::Role::Observer);
    for (const auto& line : view.at("full_log")) {
      std::cout << "[" << line.at("audience").get<std::string>() << "] "
                << line.at("text").get<std::string>() << "\n";
    }
    return;
  }
  const json view = game.view(*core::role_from_name(seat));
  for (const auto& line : view.at("log")) {
    std::cout << line.at("text").get<std::string>() << "\n";
  }
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return bytes.str();
}

// --key FILE: the server's public keys, as GET /api/server-key serves them (or one of them).
std::vector<protocol::PublicKey> read_keys(const std::string& path) {
  const auto bytes = read_file(path);
  if (!bytes) usage("cannot read the key file " + path);
  const auto keys = protocol::parse_public_keys(json::parse(*bytes, nullptr, false));
  if (!keys || keys->empty()) {
    usage(path + " holds no public key (expected the JSON of GET /api/server-key)");
  }
  return *keys;
}

int verify(int argc, char** argv) {
  tools::Trust trust;
  std::string path;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--key" || arg == "--key-id") {
      if (i + 1 >= argc) usage(arg + " needs a value");
      const std::string value = argv[++i];
      if (arg == "--key") {
        for (auto& key : read_keys(value)) trust.keys.push_back(std::move(key));
      } else {
        trust.pinned_key_id = value;
      }
    } else if (arg.starts_with("-") || !path.empty()) {
      usage("verify takes one bundle or record file, and --key FILE or --key-id ID");
    } else {
      path = arg;
    }
  }
  if (path.empty()) usage("verify takes one bundle or record file");
  const auto bytes = read_file(path);
  if (!bytes) usage("cannot read " + path);
  const auto first = bytes->find_first_not_of(" \t\r\n");
  std::vector<tools::GameVerdict> verdicts;
  if (first != std::string::npos && (*bytes)[first] == '{') {
    const json record = json::parse(*bytes, nullptr, false);
    if (record.is_discarded()) {
      std::cerr << "hots-replay: " << path << " is not JSON\n";
      return 2;
    }
    // A record carries no key: a pinned id needs the key itself.
    if (trust.pinned_key_id && tools::accepted_keys(trust, {}).empty()) {
      usage("--key-id " + *trust.pinned_key_id +
            " names no key of --key FILE: a record carries no key, give the server's keys");
    }
    const auto slash = path.find_last_of('/');
    verdicts.push_back(tools::verify_record(
        record, slash == std::string::npos ? path : path.substr(slash + 1), trust));
  } else {
    std::string error;
    auto checked = tools::verify_bundle(*bytes, error, trust);
    if (!checked) {
      std::cerr << "hots-replay: " << path
                << " is neither a record nor a readable bundle: " << error << "\n";
      return 2;
    }
    verdicts = std::move(*checked);
  }
  if (!trust.checks_signatures()) {
    std::cerr << "hots-replay: signatures not checked: the records are consistent, but only a "
                 "signature shows the server made them (give --key FILE or --key-id ID; "
                 "docs/records.md)\n";
  }
  std::size_t failures = 0;
  for (const auto& verdict : verdicts) {
    std::cout << tools::verdict_line(verdict) << "\n";
    if (!verdict.ok) ++failures;
  }
  std::cout << (failures == 0 ? "verified " : "FAILED ") << verdicts.size() << " game"
            << (verdicts.size() == 1 ? "" : "s") << ": " << verdicts.size() - failures << " ok, "
            << failures << " failed\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "verify") return verify(argc, argv);
  const auto options = parse_args(argc, argv);
  std::string error;
  const auto record = tools::parse_record(read_json(options.path), error);
  if (!record) {
    std::cerr << "hots-replay: " << error << "\n";
    return 2;
  }
  const auto set_up = tools::set_up_recorded_game(*record, error);
  if (!set_up) {
    std::cerr << "hots-replay: " << error << "\n";
    return 2;
  }
  auto& game = *set_up;
  int seq = 0;
  for (const auto& entry : record->actions) {
    ++seq;
    if (auto refused = game.apply(entry.role, entry.action)) {
      std::cout << json{{"valid", false},
                        {"first_illegal",
                         {{"seq", seq},
                          {"role", core::role_name(entry.role)},
                          {"action", entry.action},
                          {"error", core::rule_error_code_name(refused->code)},
                          {"message", refused->message}}},
                        {"state_hash", game.state_hash()}}
                       .dump()
                << "\n";
      return 1;
    }
  }
  const auto outcome = game.outcome();
  if (!options.log_as.empty()) {
    if (options.log_as == "all" && !outcome.finished) {
      std::cerr << "hots-replay: --log all is only for finished games\n";
      return 2;
    }
    print_log(game, options.log_as);
  }
  json summary = {{"valid", true},
                  {"actions", seq},
                  {"finished", outcome.finished},
                  {"winner", outcome.winner ? json(core::role_name(*outcome.winner)) : json()},
                  {"reason", outcome.reason},
                  {"state_hash", game.state_hash()}};
  if (!options.quiet || options.log_as.empty()) std::cout << summary.dump() << "\n";
  return 0;
}
