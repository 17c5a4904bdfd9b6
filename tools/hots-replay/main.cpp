// hots-replay: verifies a stored game record. It sets the game up from the record's seed,
// scenario and options, re-applies every action, reports the first one the rules refuse, and
// prints the outcome and the final state hash. It can print the log as any seat would have
// read it, or (for a finished game) everything.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/core/rule_error.h"
#include "rules/hots/module.h"
#include "tools/common/record.h"

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
            << "usage: hots-replay RECORD.json [--log scotland|england|observer|all] [--quiet]\n";
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

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse_args(argc, argv);
  std::string error;
  const auto record = tools::parse_record(read_json(options.path), error);
  if (!record) {
    std::cerr << "hots-replay: " << error << "\n";
    return 2;
  }
  auto setup = hots::module().setup_as(record->rules_version, record->seed, record->scenario,
                                       record->options);
  if (!setup.game) {
    std::cerr << "hots-replay: " << setup.error << "\n";
    return 2;
  }
  auto& game = *setup.game;
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
