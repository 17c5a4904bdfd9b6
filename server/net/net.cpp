#include "server/net/net.h"

#include "server/cluster/node_leases.h"
#include "server/periodic/clock_checks.h"
#include "server/periodic/dice_deadlines.h"
#include "server/periodic/presence_sharing.h"
#include "server/periodic/signing_key_checks.h"
#include "server/periodic/summary_sharing.h"
#include "server/periodic/tournament_checks.h"
#include "server/play/computer_players.h"
#include "storage/postgres.h"

#include "server/net/common.h"
#include "server/net/listener.h"
#include "server/net/tls.h"
#include "server/notices/notice_sender.h"

namespace blockfog::server {

using namespace net_internal;

namespace {

// Runs `ioc` on this thread like io_context::run(), but a thread that runs out of work polls
// for more (yielding the core to any other thread that wants it) for `poll` before it sleeps.
// On this project's virtual machine a sleeping thread took tens of microseconds to wake: at one
// game, with each action waking the network threads several times, the switches were a third
// of the server's CPU per action, and on the action's path. Polling 200 us bridges the client's
// turn-around: p50 190-240 -> 115-140 us at one game, no change at 100 or 1,000 games. A
// busy server never runs out of work; an idle one sleeps.
void run_network_thread(net::io_context& ioc, std::chrono::microseconds poll) {
  if (poll.count() == 0) return (void)ioc.run();
  using Clock = std::chrono::steady_clock;
  auto last_work = Clock::now();
  for (;;) {
    if (ioc.poll() > 0) {  // runs every ready handler, and checks the sockets without waiting
      last_work = Clock::now();
    } else if (ioc.stopped()) {
      return;  // stop(), or no work left: as run() returns
    } else if (Clock::now() - last_work < poll) {
      std::this_thread::yield();
    } else {
      if (ioc.run_one() == 0) return;  // sleeps until there is work
      last_work = Clock::now();
    }
  }
}

}  // namespace

int run_server(const Config& config, DbWorker& db, Metrics& metrics) {
  NetworkContexts contexts(config.threads);
  net::io_context& ioc = contexts.first();
  net::thread_pool workers(2);
  // One thread: at most one core hashes passwords, whatever the flood (kdf_budget.h).
  net::thread_pool kdf_workers(1);
  // A failed store (a lost write: storage/faults.h) stops the server as SIGTERM does, but with
  // exit status 1, so that its supervisor restarts it and recovery decides from what is on disk.
  int exit_code = 0;
  std::function<void(const std::string&)> drain;  // set below, before the network runs
  db.on_failure([&ioc, &exit_code, &drain](const std::string&) {
    net::post(ioc, [&exit_code, &drain] {
      exit_code = 1;
      drain("the store failed");
    });
  });
  metrics.storage_writable = [&db] { return db.health() == StorageHealth::Ok; };
  RoomRegistry rooms(db, metrics, [&contexts](std::int64_t game_id) -> Strand {
    // The game's io_context is the room's strand: one thread runs it.
    return [executor = contexts.of_game(game_id).get_executor()](std::function<void()> task) {
      net::post(executor, std::move(task));
    };
  });
  // The computer's thinking: one thread of its own, never a network, room or storage thread
  // (server/play/computer_players.h). Set before the games are resumed, which wakes it.
  ComputerPlayers computer(1, metrics);
  rooms.set_computer_players(config.read_only ? nullptr : &computer);
  // On PostgreSQL several nodes may share the database: each game is played under a lease
  // (docs/multi-node.md, section 2). Registered before any game is loaded.
  std::unique_ptr<NodeLeases> leases;
  if (storage::is_postgres_uri(config.db_path)) {
    leases = std::make_unique<NodeLeases>(db, config.node_name);
    rooms.set_leases(leases.get());
  }
  metrics.node_name = leases                     ? leases->name()
                      : config.node_name.empty() ? default_node_name()
                                                 : config.node_name;
  metrics.games_held = [&rooms] { return rooms.games_held(); };
  const auto resumed = rooms.resume_all();
  log_info("resumed " + std::to_string(resumed) + " unfinished games from the log");
  if (!config.read_only) {
    start_clock_checks(db, rooms);
    start_dice_deadline_checks(db, rooms);
    start_tournament_checks(db, rooms);
    if (leases) start_summary_sharing(db, rooms);
  }

  Api api(config, db, rooms, metrics);
  start_signing_key_checks(db, api.signing_key());
  if (leases && !config.read_only) {
    start_presence_sharing(db, *leases, rooms.presence(), api.session_sockets());
  }
  ConnectionLimiter limiter(config.max_connections_per_address, config.max_connections);
  Shared shared{config, metrics, api, workers, kdf_workers, limiter, contexts};
  const auto tls = make_tls_context(config);
  std::shared_ptr<Listener> listener;
  std::string where;  // what the port file says: the port, or unix:PATH
  std::string url;
  // Removes the socket file when the server ends, however it ends after this point.
  struct SocketFile {
    std::string path;
    SocketFileId id;
    void remove() const {
      if (!path.empty()) remove_unix_socket(path, id);
    }
    ~SocketFile() { remove(); }
  } socket_file;
  if (config.unix_socket.empty()) {
    const tcp::endpoint endpoint(net::ip::make_address(config.host), config.port);
    auto tcp_listener = std::make_shared<ProtocolListener<tcp>>(shared, tls.get(), endpoint);
    where = std::to_string(tcp_listener->port());
    url = std::string(tls ? "https://" : "http://") + config.host + ":" + where;
    listener = std::move(tcp_listener);
  } else {
    claim_unix_socket_path(config.unix_socket);
    const net::local::stream_protocol::endpoint endpoint(config.unix_socket);
    listener = std::make_shared<ProtocolListener<net::local::stream_protocol>>(
        shared, nullptr, endpoint, [&] {
          socket_file.id = take_unix_socket(config.unix_socket);
          socket_file.path = config.unix_socket;
        });
    where = "unix:" + config.unix_socket;
    url = "http+" + where;
  }
  // The operator's port: /metrics (and /healthz) only, plain HTTP, never the public listener.
  std::shared_ptr<ProtocolListener<tcp>> metrics_listener;
  if (config.metrics_port) {
    const tcp::endpoint endpoint(net::ip::make_address(config.metrics_host), *config.metrics_port);
    metrics_listener =
        std::make_shared<ProtocolListener<tcp>>(shared, nullptr, endpoint, nullptr, Port::Operator);
  }
  // Turn notices leave from the outbox on their own thread (none when nothing can be written).
  std::string public_url = config.public_url.empty() ? url : config.public_url;
  while (!public_url.empty() && public_url.back() == '/') public_url.pop_back();
  Api::Mailer mailer;
  if (config.smtp()) mailer = [&config](const Email& email) { send_email(config, email); };
  api.set_notices(public_url, std::move(mailer));
  std::unique_ptr<NoticeSender> notice_sender;
  if (!config.read_only)
    notice_sender = std::make_unique<NoticeSender>(config, public_url, db, metrics);
  // Caught from here on: whoever sees the port (or the port file) may already send SIGTERM, and
  // it must drain, not kill.
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  listener->run();
  log_info("listening on " + url + ", database " + config.db_path + ", web root " +
           config.web_root);
  if (metrics_listener) {
    metrics_listener->run();
    log_info("metrics on http://" + config.metrics_host + ":" +
             std::to_string(metrics_listener->port()) + "/metrics");
  }
  if (config.port_file) {
    // Line 1: where the server listens; line 2, with --metrics-listen: "metrics PORT".
    const std::string tmp = *config.port_file + ".tmp";
    {
      std::ofstream out(tmp);
      out << where << "\n";
      if (metrics_listener) out << "metrics " << metrics_listener->port() << "\n";
    }
    std::filesystem::rename(tmp, *config.port_file);  // readers never see a half-written file
  }

  // Drain: stop accepting, tell every client, wait for the sessions to close (bounded).
  net::steady_timer drain_timer(ioc);
  const auto drain_started = std::make_shared<std::chrono::steady_clock::time_point>();
  bool forced = false;
  std::function<void()> wait_for_sessions = [&] {
    // When every session is gone, each network thread returns by itself once its last
    // handlers are done.
    if (tracker().live() == 0) return contexts.release();
    if (std::chrono::steady_clock::now() - *drain_started >
        std::chrono::seconds(config.drain_timeout_seconds)) {
      forced = true;
      contexts.stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(50));
    drain_timer.async_wait([&](beast::error_code) { wait_for_sessions(); });
  };
  drain = [&](const std::string& why) {
    if (shared.draining.exchange(true)) return;
    log_info(why + ": draining");
    signals.cancel();  // its wait would keep the first network thread from returning
    *drain_started = std::chrono::steady_clock::now();
    listener->stop();
    if (metrics_listener) metrics_listener->stop();
    rooms.drain_all();
    tracker().shutdown_all();
    wait_for_sessions();
  };
  signals.async_wait([&](beast::error_code ec, int signal) {
    if (!ec) drain("signal " + std::to_string(signal));
  });

  std::vector<std::thread> threads;
  const auto poll = std::chrono::microseconds(config.poll_us);
  for (std::size_t i = 1; i < contexts.size(); ++i) {
    threads.emplace_back([&contexts, i, poll] { run_network_thread(contexts.at(i), poll); });
  }
  run_network_thread(ioc, poll);
  for (auto& t : threads) t.join();
  computer.stop();
  workers.join();
  kdf_workers.join();
  metrics.games_held = nullptr;  // the rooms end with this function; the metrics do not
  notice_sender.reset();         // finishes the delivery in progress, which may need the store
  // After the commits already queued: the other nodes may take this node's games at once.
  if (leases) leases->release(db);
  // Commits already queued finish before the process exits.
  db.stop();
  if (forced) {
    // Handlers still queued reference sessions and rooms whose teardown order no longer
    // matters: everything durable is written, so leave without unwinding them.
    log_warn("drain deadline passed: exiting with connections still open");
    socket_file.remove();
    std::_Exit(exit_code);
  }
  return exit_code;
}

}  // namespace blockfog::server
