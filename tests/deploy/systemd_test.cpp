// deploy/blockfog.service, its environment file and the backup units: the settings they give
// are a valid server configuration, systemd waits longer than the drain before it kills, the
// service is hardened, and systemd itself accepts the units (systemd-analyze, where present).

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

#include "server/config.h"
#include "tests/deploy/shell.h"
#include "tests/server/server_process.h"

namespace blockfog::server::testing {
namespace {

namespace fs = std::filesystem;

// Key=value settings of a unit file, every value of a repeated key kept in order.
std::multimap<std::string, std::string> unit_settings(const std::string& text) {
  std::multimap<std::string, std::string> settings;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '[') continue;
    const auto eq = line.find('=');
    if (eq != std::string::npos) settings.emplace(line.substr(0, eq), line.substr(eq + 1));
  }
  return settings;
}

std::string setting(const std::multimap<std::string, std::string>& settings,
                    const std::string& key) {
  const auto it = settings.find(key);
  return it == settings.end() ? "" : it->second;
}

ConfigResult config_from(const std::map<std::string, std::string>& env) {
  return parse_config({}, [&](const std::string& name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
}

TEST(Systemd, TheUnitIsHardenedAndOutlastsTheDrain) {
  const auto unit = unit_settings(read_file(source_path("deploy/blockfog.service")));
  EXPECT_EQ(setting(unit, "User"), "blockfog");
  EXPECT_EQ(setting(unit, "Restart"), "on-failure");
  EXPECT_EQ(setting(unit, "KillSignal"), "SIGTERM");
  EXPECT_EQ(setting(unit, "EnvironmentFile"), "/etc/blockfog/blockfog.env");
  EXPECT_EQ(setting(unit, "StateDirectory"), "blockfog");
  for (const auto& [key, value] :
       std::map<std::string, std::string>{{"NoNewPrivileges", "yes"},
                                          {"ProtectSystem", "strict"},
                                          {"ProtectHome", "yes"},
                                          {"PrivateTmp", "yes"},
                                          {"PrivateDevices", "yes"},
                                          {"CapabilityBoundingSet", ""}}) {
    EXPECT_EQ(unit.count(key), 1u) << key;
    EXPECT_EQ(setting(unit, key), value) << key;
  }

  // The environment file is a valid configuration: the database in the StateDirectory, the
  // local nginx trusted, and a drain that ends well before systemd's SIGKILL.
  const auto env = read_env_file(source_path("deploy/blockfog.env"));
  const auto parsed = config_from(env);
  ASSERT_TRUE(parsed.config) << parsed.error;
  const auto& config = *parsed.config;
  EXPECT_EQ(config.db_path.rfind("/var/lib/blockfog/", 0), 0u) << config.db_path;
  EXPECT_EQ(config.host, "127.0.0.1") << "only nginx should reach the server";
  EXPECT_NE(std::find(config.trusted_proxies.begin(), config.trusted_proxies.end(), "127.0.0.1"),
            config.trusted_proxies.end());
  EXPECT_EQ(config.web_root, "/opt/blockfog/web-client");
  // Metrics only for the operator, on loopback; the public name that nginx passes as Host.
  EXPECT_EQ(config.metrics_host, "127.0.0.1");
  EXPECT_TRUE(config.metrics_port.has_value());
  EXPECT_EQ(config.allowed_hosts, std::vector<std::string>{"blockfog.example.org"});
  const int stop_timeout = std::stoi(setting(unit, "TimeoutStopSec"));
  // After the drain the storage thread still finishes its queue: leave it time.
  EXPECT_GE(stop_timeout, config.drain_timeout_seconds + 10);
  EXPECT_EQ(env.count("BLOCKFOG_DRAIN_TIMEOUT"), 1u) << "the drain must be set, not assumed";

  const auto backup = unit_settings(read_file(source_path("deploy/blockfog-backup.service")));
  EXPECT_EQ(setting(backup, "User"), "blockfog");
  EXPECT_NE(setting(backup, "ExecStart").find("--db " + config.db_path), std::string::npos)
      << "the backup unit must copy the database the service uses";
}

TEST(Systemd, SystemdAcceptsTheUnits) {
  if (!has_command("systemd-analyze")) {
    GTEST_SKIP() << "systemd-analyze is not installed here; the units are checked where it is";
  }
  TempDir dir;
  // The unit as installed, with the paths that exist on this machine: verify checks that the
  // programs it runs exist.
  std::string service = read_file(source_path("deploy/blockfog.service"));
  service = std::regex_replace(service, std::regex("/opt/blockfog/bin/blockfog-server"),
                               BLOCKFOG_SERVER_BIN);
  service = std::regex_replace(service, std::regex("/etc/blockfog/blockfog.env"),
                               source_path("deploy/blockfog.env").string());
  write_file(dir.path() / "blockfog.service", service);
  std::string backup = read_file(source_path("deploy/blockfog-backup.service"));
  backup = std::regex_replace(backup, std::regex("/opt/blockfog/deploy/backup.sh"),
                              source_path("deploy/backup.sh").string());
  write_file(dir.path() / "blockfog-backup.service", backup);
  fs::copy_file(source_path("deploy/blockfog-backup.timer"), dir.path() / "blockfog-backup.timer");

  const std::string units = shell_quote((dir.path() / "blockfog.service").string()) + " " +
                            shell_quote((dir.path() / "blockfog-backup.service").string()) + " " +
                            shell_quote((dir.path() / "blockfog-backup.timer").string());
  const auto verified = run_command("systemd-analyze verify --man=no " + units);
  EXPECT_EQ(verified.status, 0) << verified.output;
  // verify only warns about unknown or misspelt settings: any message is a failure here.
  EXPECT_EQ(verified.output, "");

  // systemd's own exposure score (0 safe .. 10 exposed): the service is "OK" (below 2.0).
  for (const char* name : {"blockfog.service", "blockfog-backup.service"}) {
    const auto security = run_command("systemd-analyze security --offline=yes --threshold=20 " +
                                      shell_quote((dir.path() / name).string()));
    EXPECT_EQ(security.status, 0) << name << "\n" << security.output;
  }
}

// The PostgreSQL backup: it dumps the database the server uses (the same environment file)
// as the same unprivileged user, and systemd accepts it and rates it "OK".
TEST(Systemd, ThePostgresBackupUnitsDumpTheServersDatabase) {
  const auto server = unit_settings(read_file(source_path("deploy/blockfog.service")));
  const auto backup = unit_settings(read_file(source_path("deploy/blockfog-pg-backup.service")));
  EXPECT_EQ(setting(backup, "User"), "blockfog");
  EXPECT_EQ(setting(backup, "Type"), "oneshot");
  EXPECT_EQ(setting(backup, "EnvironmentFile"), setting(server, "EnvironmentFile"));
  EXPECT_EQ(setting(backup, "ExecStart")
                .rfind("/opt/blockfog/deploy/pg-backup.sh --db ${BLOCKFOG_DB} ", 0),
            0u)
      << setting(backup, "ExecStart");
  const auto timer = unit_settings(read_file(source_path("deploy/blockfog-pg-backup.timer")));
  EXPECT_EQ(setting(timer, "OnCalendar"), "daily");
  EXPECT_EQ(setting(timer, "Persistent"), "true");

  if (!has_command("systemd-analyze")) {
    GTEST_SKIP() << "systemd-analyze is not installed here; the units are checked where it is";
  }
  TempDir dir;
  std::string service = read_file(source_path("deploy/blockfog-pg-backup.service"));
  service = std::regex_replace(service, std::regex("/opt/blockfog/deploy/pg-backup.sh"),
                               source_path("deploy/pg-backup.sh").string());
  service = std::regex_replace(service, std::regex("/etc/blockfog/blockfog.env"),
                               source_path("deploy/blockfog.env").string());
  write_file(dir.path() / "blockfog-pg-backup.service", service);
  fs::copy_file(source_path("deploy/blockfog-pg-backup.timer"),
                dir.path() / "blockfog-pg-backup.timer");
  const auto verified =
      run_command("systemd-analyze verify --man=no " +
                  shell_quote((dir.path() / "blockfog-pg-backup.service").string()) + " " +
                  shell_quote((dir.path() / "blockfog-pg-backup.timer").string()));
  EXPECT_EQ(verified.status, 0) << verified.output;
  EXPECT_EQ(verified.output, "");
  const auto security =
      run_command("systemd-analyze security --offline=yes --threshold=20 " +
                  shell_quote((dir.path() / "blockfog-pg-backup.service").string()));
  EXPECT_EQ(security.status, 0) << security.output;
}

// The listen address of `node` in the multi-node nginx site: the one server of its own
// upstream, which must also be one of the round-robin upstream's.
std::string site_address_of(const std::string& site, const std::string& node) {
  std::smatch m;
  const std::regex own("upstream blockfog_node_" + node + R"( \{\s*server ([^;]+);)");
  if (!std::regex_search(site, m, own)) return "";
  const std::regex shared(R"(upstream blockfog_nodes \{[^}]*server )" + m[1].str() + ";");
  return std::regex_search(site, shared) ? m[1].str() : "";
}

// deploy/multi-node/: each node's settings (the shared file, then its own) are a valid
// configuration on the shared PostgreSQL database, listening where the nginx site sends its
// requests; the template names the node after its instance and is as hardened as the
// single-node unit; systemd accepts an instance of it.
TEST(Systemd, TheNodeTemplateRunsEachNodeWhereNginxSendsItsRequests) {
  const auto unit = unit_settings(read_file(source_path("deploy/multi-node/blockfog@.service")));
  const auto single = unit_settings(read_file(source_path("deploy/blockfog.service")));
  EXPECT_EQ(setting(unit, "ExecStart"), "/opt/blockfog/bin/blockfog-server --node-name %i");
  std::vector<std::string> env_files;
  for (auto [it, end] = unit.equal_range("EnvironmentFile"); it != end; ++it) {
    env_files.push_back(it->second);
  }
  EXPECT_EQ(env_files,
            (std::vector<std::string>{"/etc/blockfog/blockfog.env", "/etc/blockfog/nodes/%i.env"}));
  // Every hardening setting of the single-node unit, with the same value.
  for (const auto& [key, value] : single) {
    if (key.rfind("Protect", 0) == 0 || key.rfind("Private", 0) == 0 ||
        key.rfind("Restrict", 0) == 0 || key.rfind("SystemCall", 0) == 0 ||
        key == "NoNewPrivileges" || key == "CapabilityBoundingSet" || key == "User" ||
        key == "KillSignal" || key == "TimeoutStopSec" || key == "Restart" ||
        key == "RestartPreventExitStatus") {
      const auto [from, to] = unit.equal_range(key);
      const auto [single_from, single_to] = single.equal_range(key);
      EXPECT_TRUE(std::equal(from, to, single_from, single_to)) << key << "=" << value;
    }
  }

  const auto site = read_file(source_path("deploy/multi-node/blockfog-nodes.conf"));
  const auto shared = read_env_file(source_path("deploy/multi-node/blockfog.env"));
  std::vector<std::string> addresses;
  for (const std::string node : {"a", "b", "c"}) {
    auto env = shared;
    for (const auto& [key, value] :
         read_env_file(source_path("deploy/multi-node/node-" + node + ".env"))) {
      EXPECT_EQ(shared.count(key), 0u) << key << " is set twice for node " << node;
      env[key] = value;
    }
    const auto parsed = config_from(env);
    ASSERT_TRUE(parsed.config) << "node " << node << ": " << parsed.error;
    const auto& config = *parsed.config;
    EXPECT_EQ(config.db_path.rfind("postgresql://", 0), 0u) << config.db_path;
    EXPECT_EQ(config.db_path, shared.at("BLOCKFOG_DB")) << "one database for all nodes";
    EXPECT_GE(std::stoi(setting(unit, "TimeoutStopSec")), config.drain_timeout_seconds + 10);
    EXPECT_EQ(config.metrics_host, "127.0.0.1");
    const auto address = config.host + ":" + std::to_string(config.port);
    EXPECT_EQ(site_address_of(site, node), address) << "node " << node;
    const std::string route =
        "location /n/" + node + "/ {\n        proxy_pass http://blockfog_node_" + node + "/;";
    EXPECT_NE(site.find(route), std::string::npos)
        << "node " << node << " has no /n/" << node << "/ location stripping the prefix";
    addresses.push_back(address);
  }
  std::sort(addresses.begin(), addresses.end());
  EXPECT_EQ(std::unique(addresses.begin(), addresses.end()), addresses.end())
      << "two nodes on one address";

  if (!has_command("systemd-analyze")) {
    GTEST_SKIP() << "systemd-analyze is not installed here; the units are checked where it is";
  }
  // An instance of the template, with this machine's paths (verify checks the program and the
  // environment files exist).
  TempDir dir;
  std::string service = read_file(source_path("deploy/multi-node/blockfog@.service"));
  service = std::regex_replace(service, std::regex("/opt/blockfog/bin/blockfog-server"),
                               BLOCKFOG_SERVER_BIN);
  service = std::regex_replace(service, std::regex("/etc/blockfog/blockfog.env"),
                               source_path("deploy/multi-node/blockfog.env").string());
  service = std::regex_replace(service, std::regex("/etc/blockfog/nodes/%i.env"),
                               source_path("deploy/multi-node/node-%i.env").string());
  write_file(dir.path() / "blockfog@b.service", service);
  const auto instance = shell_quote((dir.path() / "blockfog@b.service").string());
  const auto verified = run_command("systemd-analyze verify --man=no " + instance);
  EXPECT_EQ(verified.status, 0) << verified.output;
  EXPECT_EQ(verified.output, "");
  const auto security =
      run_command("systemd-analyze security --offline=yes --threshold=20 " + instance);
  EXPECT_EQ(security.status, 0) << security.output;
}

}  // namespace
}  // namespace blockfog::server::testing
