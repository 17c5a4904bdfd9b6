#include "tools/blockfog-load/load_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <thread>

#include "tools/blockfog-load/frame_scan.h"

namespace blockfog::load {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
// The loop's connections all run on one thread's io_context, so their streams name its
// executor's concrete type: with Beast's default (a type-erased any_io_executor) every operation
// copied the executor, as the server's connections did before they named theirs.
using WsStream = websocket::stream<beast::basic_stream<tcp, net::io_context::executor_type>>;

// --- set-up over HTTP, blocking (one short connection per request) ---

struct HttpAnswer {
  int status = 0;
  std::string body;
  std::string cookie;  // "name=value" of a Set-Cookie, if any
};

HttpAnswer http_request(const LoadOptions& o, http::verb verb, const std::string& target,
                        const std::string& body, const std::string& cookie) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(tcp::endpoint(net::ip::make_address(o.host), static_cast<unsigned short>(o.port)));
  http::request<http::string_body> request{verb, target, 11};
  const std::string origin = "http://" + o.host + ":" + std::to_string(o.port);
  request.set(http::field::host, o.host + ":" + std::to_string(o.port));
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
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return answer;
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

// Creates a game with Scotland's account and joins it with England's: it starts.
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
  return id;
}

// --- one WebSocket connection ---

class Socket : public std::enable_shared_from_this<Socket> {
 public:
  using OnFrame = std::function<void(std::string_view)>;
  using OnFail = std::function<void(const std::string&)>;

  Socket(net::io_context& io, OnFrame on_frame, OnFail on_fail)
      : ws_(io.get_executor()), on_frame_(std::move(on_frame)), on_fail_(std::move(on_fail)) {}

  void open(const LoadOptions& o, const std::string& target, const std::string& cookie,
            std::function<void()> on_open) {
    auto self = shared_from_this();
    const tcp::endpoint endpoint(net::ip::make_address(o.host),
                                 static_cast<unsigned short>(o.port));
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(60));
    beast::get_lowest_layer(ws_).async_connect(endpoint, [self, o, target, cookie,
                                                          on_open](beast::error_code ec) {
      if (ec) return self->fail("connect", ec);
      beast::get_lowest_layer(self->ws_).expires_never();
      self->ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
      self->ws_.set_option(
          websocket::stream_base::decorator([cookie](websocket::request_type& request) {
            if (!cookie.empty()) request.set(http::field::cookie, cookie);
          }));
      self->ws_.async_handshake(o.host + ":" + std::to_string(o.port), target,
                                [self, on_open](beast::error_code hec) {
                                  if (hec) return self->fail("handshake", hec);
                                  self->read();
                                  on_open();
                                });
    });
  }

  void send(std::string text) {
    out_.push_back(std::move(text));
    if (out_.size() == 1) write();
  }

  void close() {
    closed_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("read", ec);
      const auto data = self->buffer_.cdata();
      self->on_frame_(std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  void write() {
    ws_.async_write(net::buffer(out_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->fail("write", ec);
                      self->out_.pop_front();
                      if (!self->out_.empty()) self->write();
                    });
  }

  void fail(const char* what, beast::error_code ec) {
    if (closed_) return;
    closed_ = true;
    on_fail_(std::string(what) + ": " + ec.message());
  }

  WsStream ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  OnFrame on_frame_;
  OnFail on_fail_;
  bool closed_ = false;
};

// --- the closed loop ---

struct SeatState {
  std::shared_ptr<Socket> socket;
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
  int open = 0;  // connections open
  bool in_flight = false;
  std::string ref;
  Clock::time_point sent;
  bool sent_in_window = false;
  int warmup_left = 0;
  bool finished = false;
  bool retired = false;
  bool awaited = false;  // one of the first games, not yet counted as ready to be measured
  std::int64_t refs = 0;
  int actor = 0;                             // the seat of the action in flight
  std::int64_t other_views = 0;              // the other seat's views when it was sent
  bool other_owed = false;                   // and whether a view was owed to it then
  std::unique_ptr<net::steady_timer> grace;  // armed while a seat waits for its view
  bool waiting = false;
  std::int64_t grace_armed = 0;  // which arming of the timer is current
};

class Loop {
 public:
  Loop(const LoadOptions& options, WindowHooks& hooks)
      : o_(options), hooks_(hooks), rng_(options.seed), window_timer_(io_) {}

  LoadResult run() {
    accounts_ = sign_in(o_);
    std::vector<std::int64_t> ids;
    for (int i = 0; i < o_.games; ++i) ids.push_back(new_game(o_, accounts_));
    warming_ = o_.games;
    for (auto id : ids) start_game(id, true);
    // Replacement games are created off the network thread, so a slow HTTP set-up never
    // stalls the games in play.
    std::thread creator([this] { create_replacements(); });
    io_.run();
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wanted_.notify_all();
    creator.join();
    return std::move(result_);
  }

 private:
  void start_game(std::int64_t id, bool with_warmup) {
    auto game = std::make_shared<GameState>();
    game->id = id;
    game->warmup_left = with_warmup && o_.warmup > 0
                            ? std::uniform_int_distribution<int>(0, o_.warmup - 1)(rng_)
                            : 0;
    game->refs = 0;
    game->awaited = with_warmup;
    ++result_.games_started;
    const std::string target = "/ws/games/" + std::to_string(id) + (o_.patches ? "?patches=1" : "");
    for (int s = 0; s < 2; ++s) {
      std::weak_ptr<GameState> weak = game;
      game->seats[s].socket = std::make_shared<Socket>(
          io_,
          [this, weak, s](std::string_view frame) {
            if (auto g = weak.lock()) on_frame(g, s, frame);
          },
          [this, weak](const std::string& why) {
            if (auto g = weak.lock(); g && !g->retired) {
              ++result_.errors["connection " + why];
              retire(g, false);
            }
          });
      game->seats[s].socket->open(o_, target, s == 0 ? accounts_.scotland : accounts_.england,
                                  [this, game, with_warmup] {
                                    if (++game->open < 2) return;
                                    // A game without warm-up is measured once it is connected.
                                    if (game->warmup_left == 0) ready(game);
                                    act(game);
                                  });
    }
    games_.push_back(game);
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
      if (seat.maybe_stale && g->waiting) {  // the view waited for came: no more grace
        ++g->grace_armed;
        g->waiting = false;
        g->grace->cancel();
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
    if (g->in_flight || g->retired || g->open < 2) return;
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
    if (g->waiting) return;
    if (!g->grace) g->grace = std::make_unique<net::steady_timer>(io_);
    g->waiting = true;
    const auto armed = ++g->grace_armed;
    g->grace->expires_after(kViewGrace);
    std::weak_ptr<GameState> weak = g;
    g->grace->async_wait([this, weak, armed](beast::error_code) {
      auto game = weak.lock();
      if (!game || game->grace_armed != armed) return;  // cancelled, or armed again since
      game->waiting = false;
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
    window_timer_.expires_after(
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.duration)));
    window_timer_.async_wait([this](beast::error_code) {
      measuring_ = false;
      done_ = true;
      result_.seconds = std::chrono::duration<double>(Clock::now() - window_start_).count();
      hooks_.window_ended();
      for (auto& game : games_) {
        game->retired = true;
        for (auto& seat : game->seats) seat.socket->close();
      }
      games_.clear();
      io_.stop();
    });
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
        const auto id = new_game(o_, accounts_);
        net::post(io_, [this, id] {
          if (!done_) start_game(id, false);
        });
      } catch (const std::exception& e) {
        net::post(io_, [this, what = std::string(e.what())] { ++result_.errors[what]; });
      }
    }
  }

  const LoadOptions& o_;
  WindowHooks& hooks_;
  // Run by one thread (the replacement creator only posts to it): the hint lets Asio keep the
  // handlers that thread posts in a queue of its own, without taking the scheduler's lock.
  net::io_context io_{1};
  std::mt19937_64 rng_;
  net::steady_timer window_timer_;
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
  net::io_context io;
  LoadResult result;
  std::vector<std::shared_ptr<Socket>> sockets;
  // At most this many handshakes at once, so the server's accept queue is never swamped.
  constexpr int kConnecting = 200;
  int next = 0;
  int failed = 0;
  std::function<void()> open_next;
  net::steady_timer hold(io);
  open_next = [&] {
    if (next >= options.idle) return;
    ++next;
    auto got_view = std::make_shared<bool>(false);
    auto socket = std::make_shared<Socket>(
        io,
        [&, got_view](std::string_view frame) {
          if (*got_view || frame.find("\"type\":\"view\"") == std::string_view::npos) return;
          *got_view = true;
          if (++result.idle_connected == options.idle - failed) {
            hooks.window_started();
            hold.expires_after(std::chrono::seconds(3));
            hold.async_wait([&](beast::error_code) {
              hooks.window_ended();
              for (auto& s : sockets) s->close();
              io.stop();
            });
          }
          open_next();
        },
        [&](const std::string& why) {
          ++failed;
          ++result.errors["connection " + why];
          open_next();
        });
    sockets.push_back(socket);
    socket->open(options, "/ws/games/" + std::to_string(id) + "?observe=1", "", [] {});
  };
  for (int i = 0; i < kConnecting; ++i) open_next();
  const auto start = Clock::now();
  io.run();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace blockfog::load
