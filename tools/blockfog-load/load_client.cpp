#include "tools/blockfog-load/load_client.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>

#include "rules/core/shared_seed.h"
#include "tools/blockfog-load/event_loop.h"
#include "tools/blockfog-load/frame_scan.h"
#include "tools/blockfog-load/ws_connection.h"

namespace blockfog::load {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

// --- set-up over HTTP, blocking (one short connection per request) ---

struct HttpAnswer {
  int status = 0;
  std::string body;
  std::string cookie;  // "name=value" of a Set-Cookie, if any
};

// One request and its answer on `stream`, connected.
template <typename Stream>
HttpAnswer exchange(Stream& stream, const ServerAddress& server, http::verb verb,
                    const std::string& target, const std::string& body, const std::string& cookie) {
  http::request<http::string_body> request{verb, target, 11};
  const std::string origin = "http://" + server.host_header();
  request.set(http::field::host, server.host_header());
  request.set(http::field::origin, origin);
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  if (verb == http::verb::post) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
    request.prepare_payload();
  }
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  HttpAnswer answer{static_cast<int>(response.result_int()), response.body(), ""};
  if (const auto it = response.find(http::field::set_cookie); it != response.end()) {
    const std::string value(it->value());
    answer.cookie = value.substr(0, value.find(';'));
  }
  beast::error_code ignored;
  stream.socket().shutdown(net::socket_base::shutdown_both, ignored);
  return answer;
}

HttpAnswer http_request(const LoadOptions& o, http::verb verb, const std::string& target,
                        const std::string& body, const std::string& cookie) {
  net::io_context io;
  const auto& server = o.server;
  if (!server.unix_socket.empty()) {
    beast::basic_stream<net::local::stream_protocol> stream(io);
    stream.expires_after(std::chrono::seconds(30));
    stream.connect(net::local::stream_protocol::endpoint(server.unix_socket));
    return exchange(stream, server, verb, target, body, cookie);
  }
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(
      tcp::endpoint(net::ip::make_address(server.host), static_cast<unsigned short>(server.port)));
  return exchange(stream, server, verb, target, body, cookie);
}

// Registers `name`, or logs in if it exists (a rerun against the same database).
std::string session_for(const LoadOptions& o, const std::string& name) {
  const std::string credentials =
      json{{"username", name}, {"password", "load test password"}}.dump();
  auto answer = http_request(o, http::verb::post, "/api/register", credentials, "");
  if (answer.status != 201)
    answer = http_request(o, http::verb::post, "/api/login", credentials, "");
  if (answer.cookie.empty()) {
    throw std::runtime_error("cannot sign in as " + name + ": HTTP " +
                             std::to_string(answer.status) + " " + answer.body);
  }
  return answer.cookie;
}

struct Accounts {
  std::string scotland;
  std::string england;
};

Accounts sign_in(const LoadOptions& o) {
  const std::string prefix = "load" + std::to_string(o.seed % 100000);
  return {session_for(o, prefix + "_sco"), session_for(o, prefix + "_eng")};
}

// Both players roll (docs/records.md, "Dice"): each commits to a random contribution, then
// each reveals it; the game then starts.
void roll_dice(const LoadOptions& o, const Accounts& accounts, std::int64_t id) {
  std::random_device device;
  std::mt19937_64 random((std::uint64_t{device()} << 32) ^ device());
  const std::string path = "/api/games/" + std::to_string(id) + "/dice";
  std::string contribution[2];
  for (auto& c : contribution) {
    for (int i = 0; i < 4; ++i) {
      char word[17];
      std::snprintf(word, sizeof word, "%016llx", static_cast<unsigned long long>(random()));
      c += word;
    }
  }
  const std::string* cookies[2] = {&accounts.scotland, &accounts.england};
  const auto step = [&](int seat, const json& body) {
    const auto answer = http_request(o, http::verb::post, path, body.dump(), *cookies[seat]);
    if (answer.status != 200) {
      throw std::runtime_error("cannot roll the dice of game " + std::to_string(id) + ": HTTP " +
                               std::to_string(answer.status) + " " + answer.body);
    }
  };
  for (int seat : {0, 1}) step(seat, {{"commitment", *core::dice_commitment(contribution[seat])}});
  for (int seat : {0, 1}) step(seat, {{"contribution", contribution[seat]}});
}

// Creates a game with Scotland's account and joins it with England's; both roll: it starts.
std::int64_t new_game(const LoadOptions& o, const Accounts& accounts) {
  const auto created = http_request(
      o, http::verb::post, "/api/games",
      json{{"scenario", o.scenario}, {"side", "scotland"}, {"visibility", "public"}}.dump(),
      accounts.scotland);
  const json body = json::parse(created.body, nullptr, false);
  if (created.status != 201 || body.is_discarded()) {
    throw std::runtime_error("cannot create a game: HTTP " + std::to_string(created.status) + " " +
                             created.body);
  }
  const std::int64_t id = body["game"]["id"];
  const auto joined = http_request(
      o, http::verb::post, "/api/games/" + std::to_string(id) + "/join", "{}", accounts.england);
  if (joined.status != 200) {
    throw std::runtime_error("cannot join game " + std::to_string(id) + ": HTTP " +
                             std::to_string(joined.status) + " " + joined.body);
  }
  roll_dice(o, accounts, id);
  return id;
}

// --- WebSocket connections (ws_connection.h): opened blocking, then run by the loop ---

// Both seats' sockets of a game, opened off the loop (the first games before it runs, their
// replacements on the thread that creates them), so a slow set-up never stalls the games in
// play.
struct OpenedGame {
  std::int64_t id = 0;
  OpenedSocket seats[2];
};

std::string game_target(const LoadOptions& o, std::int64_t id) {
  return "/ws/games/" + std::to_string(id) + (o.patches ? "?patches=1" : "");
}

OpenedGame open_game(const LoadOptions& o, const Accounts& accounts, std::uint64_t random) {
  OpenedGame game;
  game.id = new_game(o, accounts);
  const auto target = game_target(o, game.id);
  game.seats[0] = open_websocket(o.server, target, accounts.scotland, random);
  game.seats[1] = open_websocket(o.server, target, accounts.england, random + 1);
  return game;
}

// --- the closed loop ---

struct SeatState {
  std::shared_ptr<WsConnection> socket;
  std::int64_t seq = -1;
  ActionList actions;
  std::int64_t views = 0;  // view frames received
  // The other seat's action was accepted and this seat's view has not arrived since: its new
  // view may be on its way (the server publishes to both seats at once, on two connections).
  bool maybe_stale = false;
};

// How long a seat whose view may be on its way is given before it acts on the view it has:
// when the other seat's action changed nothing this seat may see (RULES 13.1.4), no view comes.
constexpr auto kViewGrace = std::chrono::milliseconds(2);

struct GameState {
  std::int64_t id = 0;
  SeatState seats[2];
  bool in_flight = false;
  std::string ref;
  Clock::time_point sent;
  bool sent_in_window = false;
  int warmup_left = 0;
  bool finished = false;
  bool retired = false;
  bool awaited = false;  // one of the first games, not yet counted as ready to be measured
  std::int64_t refs = 0;
  int actor = 0;                          // the seat of the action in flight
  std::int64_t other_views = 0;           // the other seat's views when it was sent
  bool other_owed = false;                // and whether a view was owed to it then
  std::optional<EventLoop::Timer> grace;  // armed while a seat waits for its view
};

class Loop {
 public:
  Loop(const LoadOptions& options, WindowHooks& hooks)
      : o_(options), hooks_(hooks), rng_(options.seed), keys_(options.seed ^ 0x6b657973) {}

  LoadResult run() {
    accounts_ = sign_in(o_);
    std::vector<OpenedGame> first;
    for (int i = 0; i < o_.games; ++i) first.push_back(open_game(o_, accounts_, keys_()));
    warming_ = o_.games;
    for (auto& game : first) start_game(std::move(game), true);
    // Replacement games are created and connected off the loop's thread, so a slow set-up
    // never stalls the games in play.
    std::thread creator([this] { create_replacements(); });
    loop_.run();
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wanted_.notify_all();
    creator.join();
    return std::move(result_);
  }

 private:
  void start_game(OpenedGame opened, bool with_warmup) {
    auto game = std::make_shared<GameState>();
    game->id = opened.id;
    game->warmup_left = with_warmup && o_.warmup > 0
                            ? std::uniform_int_distribution<int>(0, o_.warmup - 1)(rng_)
                            : 0;
    game->refs = 0;
    game->awaited = with_warmup;
    ++result_.games_started;
    games_.push_back(game);
    for (int s = 0; s < 2; ++s) {
      game->seats[s].socket =
          std::make_shared<WsConnection>(loop_, std::move(opened.seats[s]), rng_());
    }
    // A game without warm-up is measured once it is connected.
    if (game->warmup_left == 0) ready(game);
    std::weak_ptr<GameState> weak = game;
    for (int s = 0; s < 2 && !game->retired; ++s) {
      game->seats[s].socket->start(
          [this, weak, s](std::string_view frame) {
            if (auto g = weak.lock()) on_frame(g, s, frame);
          },
          [this, weak](const std::string& why) {
            if (auto g = weak.lock(); g && !g->retired) {
              ++result_.errors["connection " + why];
              retire(g, false);
            }
          });
    }
    act(game);
  }

  void on_frame(const std::shared_ptr<GameState>& g, int s, std::string_view frame) {
    if (g->retired) return;
    // The answer's latency ends when it has arrived, before this client reads it.
    const auto arrived = Clock::now();
    // Scanned into buffers kept from frame to frame: the seat's new list of actions is swapped
    // in, and its old one's buffers serve the next frame.
    ScannedFrame* const scanned = &scratch_;
    if (!scan_frame(frame, *scanned)) {
      ++result_.errors["unreadable frame"];
      return;
    }
    if (scanned->is_view()) {
      auto& seat = g->seats[s];
      if (!take_view(seat, *scanned)) {
        // A patch this seat cannot apply (never expected): ask for the whole view. Meanwhile
        // it acts on the view it has (an action at its old version is answered as stale,
        // with the whole view, too).
        ++result_.errors["view_patch not applicable"];
        seat.socket->send(R"({"v":1,"type":"sync","chat_since":0})");
      }
      ++seat.views;
      if (seat.maybe_stale && g->grace) {  // the view waited for came: no more grace
        loop_.cancel(*g->grace);
        g->grace.reset();
      }
      seat.maybe_stale = false;
      if (scanned->finished) g->finished = true;
    }
    if (g->in_flight && scanned->ref && *scanned->ref == g->ref) answered(g, *scanned, arrived);
    act(g);
  }

  void answered(const std::shared_ptr<GameState>& g, const ScannedFrame& answer,
                Clock::time_point arrived) {
    g->in_flight = false;
    const bool counted = measuring_ && g->sent_in_window;
    if (answer.type == "error") {
      if (counted) ++result_.errors[answer.error_code];
    } else if (answer.stale) {
      if (counted) ++result_.stale;
    } else {
      if (counted) {
        ++result_.accepted;
        result_.latencies_us.push_back(
            std::chrono::duration<double, std::micro>(arrived - g->sent).count());
        if (o_.actions > 0 && result_.accepted == o_.actions) {
          loop_.after(Clock::duration::zero(), [this] { end_window(); });
        }
      }
      // Accepted: unless the other seat's new view came first, it may still be coming. A real
      // client acts on the view it was last sent; this one, acting within microseconds of the
      // answer, would otherwise often act on the view before (a stale action, answered with a
      // view and counted apart: 11-14% of all actions sent at 100 games before this wait).
      //
      // A view that came while this action was in flight is the action's only if none was
      // owed to the seat before it (frames come in order, but an action that changed nothing
      // the seat sees sends it none).
      auto& other = g->seats[1 - g->actor];
      if (other.views == g->other_views || g->other_owed) other.maybe_stale = true;
    }
    if (g->warmup_left > 0 && answer.is_view() && !answer.stale) {
      if (--g->warmup_left == 0) ready(g);
    }
  }

  // A seat's new version and legal actions from a whole view or a patch of the version it
  // holds; false for a patch it cannot apply (the seat is left as it was).
  static bool take_view(SeatState& seat, ScannedFrame& scanned) {
    if (scanned.type == "view_patch") {
      if (!scanned.seq || *scanned.seq != seat.seq + 1) return false;
      if (!scanned.action_changes.empty() && !seat.actions.replace(scanned.action_changes)) {
        return false;
      }
    }
    if (scanned.seq) seat.seq = *scanned.seq;
    // Swapped in: the seat's old list's buffers serve the next frame's scan.
    if (scanned.actions_given) std::swap(seat.actions, scanned.actions);
    return true;
  }

  // Sends one random legal action of a seat that may act, if no action is in flight.
  void act(const std::shared_ptr<GameState>& g) {
    if (g->in_flight || g->retired) return;
    if (g->finished) return retire(g, true);
    int candidates[2];
    int n = 0;
    bool awaiting_view = false;
    for (int s = 0; s < 2; ++s) {
      if (g->seats[s].actions.empty()) continue;
      if (g->seats[s].maybe_stale) {
        awaiting_view = true;
      } else {
        candidates[n++] = s;
      }
    }
    // A seat whose new view may be on its way is waited for (kViewGrace at most) even when
    // the other could act: the choice between two seats that may both act (the card phase)
    // must be made on both seats' current views, or a seat that may take its choice back
    // would be picked over and over.
    if (awaiting_view) return give_grace(g);
    if (n == 0) return;  // the seat to act has not got its new view yet
    const int s = candidates[std::uniform_int_distribution<int>(0, n - 1)(rng_)];
    auto& seat = g->seats[s];
    const std::string_view action =
        seat.actions[std::uniform_int_distribution<std::size_t>(0, seat.actions.size() - 1)(rng_)];
    g->ref = "r" + std::to_string(++g->refs);
    g->in_flight = true;
    g->actor = s;
    g->other_views = g->seats[1 - s].views;
    g->other_owed = g->seats[1 - s].maybe_stale || g->seats[1 - s].views == 0;
    g->sent_in_window = measuring_;
    g->sent = Clock::now();
    std::string message = R"({"v":1,"type":"action","seq":)" + std::to_string(seat.seq) +
                          R"(,"ref":")" + g->ref + R"(","action":)";
    message.append(action).append("}");
    seat.socket->send(std::move(message));
  }

  // A seat whose view may be on its way acts on the view it has if none came in kViewGrace.
  void give_grace(const std::shared_ptr<GameState>& g) {
    if (g->grace) return;
    std::weak_ptr<GameState> weak = g;
    g->grace = loop_.after(kViewGrace, [this, weak] {
      auto game = weak.lock();
      if (!game) return;
      game->grace.reset();
      for (auto& seat : game->seats) seat.maybe_stale = false;
      act(game);
    });
  }

  void retire(const std::shared_ptr<GameState>& g, bool finished) {
    if (g->retired) return;
    g->retired = true;
    if (finished) ++result_.games_finished;
    g->warmup_left = 0;
    ready(g);  // a game that failed before it was ready must not hold up the measurement
    if (g->grace) loop_.cancel(*g->grace);
    for (auto& seat : g->seats) seat.socket->close();
    std::erase(games_, g);
    if (!done_) {
      std::lock_guard lock(mutex_);
      ++replacements_wanted_;
      wanted_.notify_one();
    }
  }

  // One of the first games is connected and warmed up (or gone): once all are, measure.
  void ready(const std::shared_ptr<GameState>& g) {
    if (!g->awaited) return;
    g->awaited = false;
    if (--warming_ > 0 || measuring_) return;
    measuring_ = true;
    window_start_ = Clock::now();
    hooks_.window_started();
    const auto window =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.duration));
    loop_.after(window, [this] { end_window(); });
  }

  // Called from the loop's timers only, never inside a socket's handler: it closes every socket.
  void end_window() {
    if (done_) return;
    measuring_ = false;
    done_ = true;
    result_.seconds = std::chrono::duration<double>(Clock::now() - window_start_).count();
    hooks_.window_ended();
    for (auto& game : games_) {
      game->retired = true;
      for (auto& seat : game->seats) seat.socket->close();
    }
    games_.clear();
    loop_.stop();
  }

  void create_replacements() {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        wanted_.wait(lock, [this] { return stopping_ || replacements_wanted_ > 0; });
        if (stopping_) return;
        --replacements_wanted_;
      }
      try {
        // Shared: a posted function must be copyable, and the game's sockets are not.
        auto game = std::make_shared<OpenedGame>(open_game(o_, accounts_, keys_()));
        loop_.post([this, game] {
          if (!done_) start_game(std::move(*game), false);
        });
      } catch (const std::exception& e) {
        loop_.post([this, what = std::string(e.what())] { ++result_.errors[what]; });
      }
    }
  }

  const LoadOptions& o_;
  WindowHooks& hooks_;
  EventLoop loop_;  // run by one thread; the replacement creator only posts to it
  std::mt19937_64 rng_;
  std::mt19937_64 keys_;  // handshake keys: the creator's thread draws them too
  Accounts accounts_;
  std::vector<std::shared_ptr<GameState>> games_;
  LoadResult result_;
  ScannedFrame scratch_;
  int warming_ = 0;
  bool measuring_ = false;
  bool done_ = false;
  Clock::time_point window_start_;

  std::mutex mutex_;
  std::condition_variable wanted_;
  int replacements_wanted_ = 0;
  bool stopping_ = false;
};

}  // namespace

LoadResult run_games(const LoadOptions& options, WindowHooks& hooks) {
  Loop loop(options, hooks);
  return loop.run();
}

LoadResult run_idle(const LoadOptions& options, WindowHooks& hooks) {
  const auto accounts = sign_in(options);
  const std::int64_t id = new_game(options, accounts);
  const auto target = "/ws/games/" + std::to_string(id) + "?observe=1";
  EventLoop loop;
  LoadResult result;
  std::vector<std::shared_ptr<WsConnection>> sockets;
  int failed = 0;
  bool all_in = false;
  // Once every connection has its view or has failed: the server holds them all, idle.
  const auto maybe_all_in = [&] {
    if (all_in || result.idle_connected + failed < options.idle) return;
    all_in = true;
    hooks.window_started();
    loop.after(std::chrono::seconds(3), [&] {
      hooks.window_ended();
      for (auto& socket : sockets) socket->close();
      loop.stop();
    });
  };
  const auto start = Clock::now();
  std::mt19937_64 random(options.seed);
  // Opened one after the other (a handshake at a time never swamps the server's accept
  // queue); the views they are sent wait in their sockets until the loop runs.
  for (int i = 0; i < options.idle; ++i) {
    try {
      auto socket = std::make_shared<WsConnection>(
          loop, open_websocket(options.server, target, "", random()), random());
      sockets.push_back(socket);
      auto got_view = std::make_shared<bool>(false);
      socket->start(
          [&, got_view](std::string_view frame) {
            if (*got_view || frame.find("\"type\":\"view\"") == std::string_view::npos) return;
            *got_view = true;
            ++result.idle_connected;
            maybe_all_in();
          },
          [&](const std::string& why) {
            ++failed;
            ++result.errors["connection " + why];
            maybe_all_in();
          });
    } catch (const std::exception& e) {
      ++failed;
      ++result.errors[std::string("connection ") + e.what()];
      maybe_all_in();
    }
  }
  loop.run();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace blockfog::load
